//! Why a run does not land: the checks made before anything is built (its
//! target, its branch, its worktree) and the words of every refusal. A
//! refusal is decided before the target moves and changes nothing.

use gix::ObjectId;

use super::GATE_TIMEOUT;
use super::advance::Advance;
use super::build::{Build, Built};
use super::gate::GateRun;
use super::outcome::Code;
use crate::ctx::Ctx;
use crate::error::Result;

/// Why one run did not land.
#[derive(Debug)]
pub(super) struct Refusal {
    pub code: Code,
    pub message: String,
    pub paths: Vec<String>,
    pub gate: Option<GateRun>,
}

impl Refusal {
    pub fn new(code: Code, message: String) -> Refusal {
        Refusal {
            code,
            message,
            paths: Vec::new(),
            gate: None,
        }
    }
}

/// The run's target: `into` (`--into`, `land.into`), else its recorded base when
/// that is a local branch, or the local branch a remote-tracking base
/// tracks ([`tracking_target`]); refused with the message that says what
/// is missing and to pass `--into`.
pub(super) fn target(
    ctx: &Ctx,
    into: Option<&str>,
    (id, base): (&str, &str),
) -> Result<std::result::Result<String, Refusal>> {
    let no_target = |message| Ok(Err(Refusal::new(Code::NoTarget, message)));
    let into = match into {
        Some(into) => into.to_owned(),
        None => {
            let local = base.strip_prefix("refs/heads/").unwrap_or(base);
            match local_branch(ctx, local)? {
                Some(local) => local,
                None => match tracking_target(ctx, base)? {
                    Some(Ok(local)) => local,
                    Some(Err(why)) => return no_target(why),
                    None => {
                        return no_target(format!(
                            "its base {base:?} is not a local branch: pass --into <BRANCH> (or set land.into)"
                        ));
                    }
                },
            }
        }
    };
    if into == crate::runid::branch_name(id) {
        return no_target(format!(
            "{into} is the run's own branch: pass --into <BRANCH>"
        ));
    }
    Ok(Ok(into))
}

/// The target of a run whose base is a remote-tracking branch (`create
/// --fetch --base origin/main`, as `create` advises): the local branch `<b>`
/// that `refs/remotes/<r>/<b>` is fetched from, when it exists and its
/// upstream (what `git status` compares it with) is that very
/// remote-tracking branch. A landing never moves the remote-tracking ref
/// itself. `None`: the base is no remote-tracking branch; `Some(Err)`: it
/// is one, and the words of why it lands nowhere.
fn tracking_target(ctx: &Ctx, base: &str) -> Result<Option<std::result::Result<String, String>>> {
    let gix = ctx.repo.gix();
    let Some(name) = crate::git::refs::dwim_name(gix, base) else {
        return Ok(None);
    };
    let Some(leaf) = crate::git::refs::chain(gix, &name).pop() else {
        return Ok(None);
    };
    let Some(short) = leaf.strip_prefix("refs/remotes/") else {
        return Ok(None);
    };
    let local = gix::refs::FullName::try_from(leaf.as_str())
        .ok()
        .and_then(|full| {
            gix.upstream_branch_and_remote_for_tracking_branch(full.as_ref())
                .ok()?
        })
        .and_then(|(remote_ref, _)| {
            let remote_ref = remote_ref.as_bstr().to_string();
            remote_ref.strip_prefix("refs/heads/").map(str::to_owned)
        });
    let Some(local) = local else {
        return Ok(Some(Err(format!(
            "its base {short} is a remote-tracking branch that no remote's fetch refspec maps from a branch: pass --into <BRANCH> (or set land.into)"
        ))));
    };
    let upstream = |branch: &str| super::push::upstream(&ctx.repo, branch).ok()?.tracking;
    Ok(Some(match local_branch(ctx, &local)? {
        Some(branch) if upstream(&branch).as_deref() == Some(leaf.as_str()) => Ok(branch),
        Some(branch) => Err(format!(
            "its base {short} is a remote-tracking branch, which lands in the local branch {local} only when {local}'s upstream is {short}, and {branch}'s is {}: pass --into <BRANCH>, or make {short} its upstream (git branch --set-upstream-to={short} {branch})",
            upstream(&branch)
                .map(|t| t.trim_start_matches("refs/remotes/").to_owned())
                .unwrap_or_else(|| "not set".to_owned()),
        )),
        None => Err(format!(
            "its base {short} is a remote-tracking branch, which lands in the local branch {local}, and there is none: create it (git branch --track {local} {short}), or pass --into <BRANCH>"
        )),
    }))
}

/// The local branch `name` is, through symbolic refs (`master` kept as a
/// symbolic ref to `main` is `main`: the branch a landing moves, whose
/// checkout it updates), when it exists and holds a commit.
pub(super) fn local_branch(ctx: &Ctx, name: &str) -> Result<Option<String>> {
    let Some(branch) = crate::git::refs::branch_behind(ctx.repo.gix(), name) else {
        return Ok(None);
    };
    Ok(ctx.repo.branch_target(&branch)?.map(|_| branch))
}

/// Why the run's worktree refuses the landing, if it does: what lands is
/// the committed work, never a worktree's uncommitted state, so changes to
/// tracked files refuse it; untracked files (a scratch file is not what
/// lands) only with `land.require-clean`. Without it they stay, and the
/// worktree's removal after the landing keeps it for them (`untracked`, as
/// cleanup keeps it). `read`: the worktree's cleanliness read ahead
/// ([`super::lookahead`]), else read now.
pub(super) fn worktree(
    ctx: &Ctx,
    id: &str,
    read: Option<Result<crate::git::repo::Cleanliness>>,
) -> Result<Option<Refusal>> {
    let require_clean = ctx.settings()?.land_require_clean.value;
    let Some(wt) = ctx.repo.loop_worktree(id)? else {
        return Ok(None);
    };
    if let Some((_, operation)) = crate::safety::operation_in_progress(&wt.admin_dir) {
        return Ok(Some(Refusal::new(
            Code::OperationInProgress,
            format!("its worktree has a {operation} in progress: finish or abort it first"),
        )));
    }
    if !wt.path.is_dir() {
        return Ok(None);
    }
    let read = read.unwrap_or_else(|| crate::git::repo::cleanliness(&wt.path, &wt.admin_dir));
    // A worktree git-loop cannot read (its `.git` file gone, say) may hold
    // work it cannot see: that run is refused as a dirty one is, and kept;
    // never an error that stops every other run of a queue.
    let clean = match read {
        Ok(clean) => clean,
        Err(e) => {
            return Ok(Some(Refusal::new(
                Code::Dirty,
                format!(
                    "its worktree could not be read ({e}): what lands is the run's commits, and only from a worktree git-loop can see is clean; repair it (`git worktree repair`) or remove the run"
                ),
            )));
        }
    };
    let what = match (clean.modified, clean.untracked && require_clean) {
        (true, true) => "uncommitted changes and untracked files",
        (true, false) => "uncommitted changes",
        (false, true) => "untracked files (land.require-clean is set)",
        (false, false) => return Ok(None),
    };
    Ok(Some(Refusal::new(
        Code::Dirty,
        format!(
            "its worktree has {what}: what lands is the run's commits; commit them (or remove them) first"
        ),
    )))
}

/// The landing built of run `id`'s branch onto `into` (at `onto`), or why
/// not; with `fix`, a conflict's words end with the rebase that fixes it.
pub(super) fn build(
    ctx: &Ctx,
    id: &str,
    into: &str,
    onto: ObjectId,
    build: Build,
    fix: bool,
) -> Result<std::result::Result<Built, Refusal>> {
    let branch = &format!("loop/{id}");
    let short = ctx.repo.short_id(onto);
    let (code, message, paths) = match build {
        Build::Built(built) => return Ok(Ok(built)),
        Build::Conflict { paths } => (
            Code::Conflict,
            match fix {
                true => format!(
                    "landing {branch} onto {into} ({short}) conflicts in {}; {}",
                    paths.join(", "),
                    rebase_fix(ctx, id, into)?
                ),
                false => format!(
                    "landing {branch} onto {into} ({short}) conflicts in {}",
                    paths.join(", ")
                ),
            },
            paths,
        ),
        Build::NotFastForward => (
            Code::NotFastForward,
            format!(
                "{into} ({short}) is not an ancestor of {branch}: --strategy ff cannot land it (rebase, squash or merge can)"
            ),
            vec![],
        ),
        Build::HasMerges { merges } => {
            let merges: Vec<String> = merges.iter().map(|m| ctx.repo.short_id(*m)).collect();
            (
                Code::HasMerges,
                format!(
                    "{branch} has merge commits ({}) whose content a rebase, which replays only the other commits, would drop: land it with --strategy merge (or squash)",
                    merges.join(", ")
                ),
                vec![],
            )
        }
        Build::Empty => (
            Code::Empty,
            format!("its commits are all in {into} ({short}) already"),
            vec![],
        ),
    };
    Ok(Err(Refusal {
        paths,
        ..Refusal::new(code, message)
    }))
}

/// The fix of a conflict: the run rebased onto its target in its own
/// worktree (the exact command, from anywhere in the repository), its
/// conflicts resolved there, then landed again.
fn rebase_fix(ctx: &Ctx, id: &str, into: &str) -> Result<String> {
    Ok(match ctx.repo.loop_worktree(id)? {
        Some(wt) if wt.path.is_dir() => format!(
            "rebase the run onto {into} in its worktree, resolve the conflicts there, then land it again: dir=$(git loop path {id}) && cd \"$dir\" && git rebase {into}"
        ),
        _ => format!(
            "rebase loop/{id} onto {into} in a clean checkout, resolve the conflicts, then land it again: git switch loop/{id} && git rebase {into}"
        ),
    })
}

/// A gate that did not pass.
pub(super) fn gate_failed(run: GateRun) -> Refusal {
    let how = match (run.timed_out, run.exit_code) {
        (true, _) => format!(
            "was killed after {} s (the timeout)",
            GATE_TIMEOUT.as_secs()
        ),
        (false, Some(code)) => format!("exited {code}"),
        (false, None) => "died of a signal".to_owned(),
    };
    let last = run
        .tail
        .trim_end()
        .lines()
        .last()
        .unwrap_or_default()
        .to_owned();
    let message = if last.is_empty() {
        format!("the gate `{}` {how}", run.command)
    } else {
        format!("the gate `{}` {how}: {last}", run.command)
    };
    Refusal {
        gate: Some(run),
        ..Refusal::new(Code::GateFailed, message)
    }
}

/// The target is not at `onto` any more (`now`).
pub(super) fn moved(ctx: &Ctx, into: &str, onto: ObjectId, now: Option<ObjectId>) -> Refusal {
    let message = match now {
        Some(now) => format!(
            "{into} moved from {} to {} while the landing was built: land again",
            ctx.repo.short_id(onto),
            ctx.repo.short_id(now)
        ),
        None => format!("{into} was deleted while the landing was built"),
    };
    Refusal::new(Code::TargetMoved, message)
}

/// An advance that did not move the target.
pub(super) fn advance(ctx: &Ctx, refusal: Advance, into: &str, onto: ObjectId) -> Refusal {
    match refusal {
        Advance::Moved { .. } => unreachable!("not a refusal"),
        Advance::TargetMoved { now } => moved(ctx, into, onto, now),
        Advance::TargetDirty { checkout, paths } => Refusal {
            message: format!(
                "{} (where {into} is checked out) has local changes in paths the landing changes: {}; commit or move them, then land again",
                checkout.display(),
                paths.join(", ")
            ),
            paths,
            ..Refusal::new(Code::TargetDirty, String::new())
        },
        Advance::TargetIgnored { checkout, paths } => Refusal {
            message: format!(
                "{} (where {into} is checked out) has files git does not track (ignored ones, never committed) where the landing writes, which git would overwrite or delete: {}; move them aside, then land again",
                checkout.display(),
                paths.join(", ")
            ),
            paths,
            ..Refusal::new(Code::TargetIgnored, String::new())
        },
        Advance::TargetBusy {
            checkout,
            operation,
        } => Refusal::new(
            Code::TargetBusy,
            format!(
                "{} (where {into} is checked out) has {} {operation} in progress: finish or abort it first",
                checkout.display(),
                // "an unfinished landing", "a rebase"
                if operation.starts_with(['a', 'e', 'i', 'o', 'u']) {
                    "an"
                } else {
                    "a"
                },
            ),
        ),
    }
}
