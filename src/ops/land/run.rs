//! One run's landing: refuse what must not land, build, persist, gate,
//! advance, then record it and tidy up (see the module doc of
//! [`super`] for the order and the locks).
//!
//! Every refusal happens before the target moves, and leaves the refs,
//! the index and files of every worktree and the manifest as they were; a
//! refusal (not in a dry run) is logged as a `land` event with its code.
//! After the target moved, nothing returns an error: a step that fails
//! (marking, removing the worktree, deleting the branch) is reported with
//! the landing, which stays landed.

use std::ffi::OsStr;

use gix::ObjectId;

use super::advance::{self, Advance};
use super::build::{self, Build, Strategy};
use super::gate::{self, GateRun};
use super::{Fate, GATE_TIMEOUT};
use crate::config::LandStrategy;
use crate::configured_command::ConfiguredCommand;
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::events::{Code as EventCode, Event, EventKind, State};
use crate::git::merge::Merger;
use crate::git::merged::MergedBy;
use crate::lock::{ManifestMutex, RUN_LOCK_DEADLINE, RunLock};
use crate::manifest::{Entry, Status};
use crate::output::Out;

/// What every run of one `land` shares.
pub(super) struct Env<'a> {
    pub ctx: &'a Ctx,
    pub merger: &'a Merger,
    pub strategy: LandStrategy,
    /// `--into` or `land.into`.
    pub into: Option<&'a str>,
    pub gate: Option<&'a ConfiguredCommand<'a>>,
    pub message: Option<&'a str>,
    pub keep: bool,
    pub dry_run: bool,
}

/// Where each target is as this command's landings left it (in a dry run,
/// the landed commit in the merger's memory), and every target named.
#[derive(Default)]
pub(super) struct Tips {
    tips: Vec<(String, ObjectId)>,
    targets: Vec<String>,
}

impl Tips {
    fn get(&self, into: &str) -> Option<ObjectId> {
        self.tips.iter().find(|(b, _)| b == into).map(|(_, t)| *t)
    }

    fn set(&mut self, into: &str, tip: ObjectId) {
        match self.tips.iter_mut().find(|(b, _)| b == into) {
            Some(slot) => slot.1 = tip,
            None => self.tips.push((into.to_owned(), tip)),
        }
    }

    fn seen(&mut self, into: &str) {
        if !self.targets.iter().any(|t| t == into) {
            self.targets.push(into.to_owned());
        }
    }

    /// The one target every run landed (or was to land) in.
    pub fn single_target(&self) -> Option<String> {
        match self.targets.as_slice() {
            [one] => Some(one.clone()),
            _ => None,
        }
    }
}

/// Why a run did not land: the codes of docs/cli.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    /// No target: its base is not a local branch and no `--into` was given.
    NoTarget,
    /// Its branch `loop/<id>` does not exist.
    NoBranch,
    /// Its worktree has uncommitted changes or untracked files.
    Dirty,
    /// Its worktree has a merge, rebase, cherry-pick… in progress.
    OperationInProgress,
    /// No commits of its own over the target.
    Empty,
    Conflict,
    /// `--strategy ff` and the target is not an ancestor of the run.
    NotFastForward,
    GateFailed,
    /// The target is not at the tip the landing was built on.
    TargetMoved,
    /// The target's checkout has local changes in paths the landing changes.
    TargetDirty,
    /// The target's checkout has an operation in progress.
    TargetBusy,
}

impl Code {
    pub fn as_str(self) -> &'static str {
        match self {
            Code::NoTarget => "no-target",
            Code::NoBranch => "no-branch",
            Code::Dirty => "dirty",
            Code::OperationInProgress => "operation-in-progress",
            Code::Empty => "empty",
            Code::Conflict => "conflict",
            Code::NotFastForward => "not-fast-forward",
            Code::GateFailed => "gate-failed",
            Code::TargetMoved => "target-moved",
            Code::TargetDirty => "target-dirty",
            Code::TargetBusy => "target-busy",
        }
    }
}

/// A run that did not land, and why.
#[derive(Debug)]
pub struct Skipped {
    /// The branch it was to land in, when known.
    pub into: Option<String>,
    pub code: Code,
    pub message: String,
    /// The paths in question (a conflict's, the target checkout's).
    pub paths: Vec<String>,
    /// The gate, when it ran.
    pub gate: Option<GateRun>,
}

/// What became of a landed run's worktree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorktreeFate {
    Removed,
    /// `--keep`.
    Kept,
    /// It had none.
    None,
    /// Removal's rules kept it: their skip code and reason.
    Skipped {
        code: String,
        reason: String,
    },
    /// A dry run: nothing was removed.
    DryRun,
}

/// What became of a landed run's branch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BranchFate {
    Deleted {
        merged_by: Option<MergedBy>,
        trash_ref: String,
    },
    /// Kept, with why (`--keep`, the kernel's reason).
    Kept {
        reason: String,
    },
    DryRun,
}

/// A run landed (in a dry run: that would land).
#[derive(Debug)]
pub struct Landed {
    pub into: String,
    /// The target's tip it was built on.
    pub from: ObjectId,
    /// The target's tip now.
    pub to: ObjectId,
    pub commits: usize,
    pub gate: Option<GateRun>,
    pub worktree: WorktreeFate,
    pub branch: BranchFate,
    /// What failed after the target moved (the landing stands).
    pub problems: Vec<String>,
}

/// Land `entry` (see the module doc). `Err` before the target moved stops
/// the command; after, the second value is the first failure (reported
/// with the landing).
pub(super) fn land_one(
    env: &Env<'_>,
    entry: &Entry,
    tips: &mut Tips,
    out: &mut Out<'_>,
) -> Result<(Fate, Option<Error>)> {
    let ctx = env.ctx;
    let id = entry.id.as_str();
    let branch = entry.branch();
    let into = match target(env, entry)? {
        Ok(into) => into,
        Err(message) => {
            return refused(env, entry, None, Code::NoTarget, message, vec![], None, out);
        }
    };
    tips.seen(&into);
    let refuse = |code, message, paths, gate, out: &mut Out<'_>| {
        refused(env, entry, Some(&into), code, message, paths, gate, out)
    };
    let Some(run_tip) = ctx.repo.branch_target(&branch)? else {
        let message = format!("its branch {branch} does not exist");
        return refuse(Code::NoBranch, message, vec![], None, out);
    };
    if let Some((code, message)) = worktree_refusal(ctx, id)? {
        return refuse(code, message, vec![], None, out);
    }
    let onto = match env.dry_run.then(|| tips.get(&into)).flatten() {
        Some(tip) => tip,
        None => match ctx.repo.branch_target(&into)? {
            Some(tip) => tip,
            None => {
                let message = format!("the branch {into} does not exist");
                return refuse(Code::NoTarget, message, vec![], None, out);
            }
        },
    };
    let short = |tip: ObjectId| ctx.repo.short_id(tip);
    if env.merger.merge_base(onto, run_tip)? == Some(run_tip) {
        let message = format!("it has no commits of its own over {into} ({})", short(onto));
        return refuse(Code::Empty, message, vec![], None, out);
    }
    let request = build::Request {
        onto,
        run_tip,
        strategy: strategy(env.strategy),
        message: env.message,
        run_id: id,
        into: &into,
    };
    let built = match build::build(env.merger, &request)? {
        Build::Built(built) => built,
        Build::Conflict { paths } => {
            let message = format!(
                "landing {branch} onto {into} ({}) conflicts in {}",
                short(onto),
                paths.join(", ")
            );
            return refuse(Code::Conflict, message, paths, None, out);
        }
        Build::NotFastForward => {
            let message = format!(
                "{into} ({}) is not an ancestor of {branch}: --strategy ff cannot land it (rebase, squash or merge can)",
                short(onto)
            );
            return refuse(Code::NotFastForward, message, vec![], None, out);
        }
        Build::Empty => {
            let message = format!("its commits are all in {into} ({}) already", short(onto));
            return refuse(Code::Empty, message, vec![], None, out);
        }
    };
    if env.dry_run {
        tips.set(&into, built.tip);
        let landed = Landed {
            into,
            from: onto,
            to: built.tip,
            commits: built.commits,
            gate: None,
            worktree: WorktreeFate::DryRun,
            branch: BranchFate::DryRun,
            problems: Vec::new(),
        };
        return Ok((Fate::Landed(Box::new(landed)), None));
    }
    build::persist(env.merger, &built)?;
    let gate_run = match env.gate {
        Some(command) => {
            let vars: [(&str, &OsStr); 3] = [
                ("GIT_LOOP_ID", OsStr::new(id)),
                ("GIT_LOOP_BRANCH", OsStr::new(&branch)),
                ("GIT_LOOP_INTO", OsStr::new(&into)),
            ];
            let run = gate::run(&ctx.repo, command, built.tip, GATE_TIMEOUT, &vars)?;
            if !run.passed {
                let message = gate_failure(&run);
                return refuse(Code::GateFailed, message, vec![], Some(run), out);
            }
            Some(run)
        }
        None => None,
    };
    crate::crash::point("land-built");
    // Under the run's lock from here to the mark: a mark or a removal of
    // this run waits for the landing to be recorded (taken holding nothing).
    let run_lock = RunLock::acquire(ctx.repo.common_dir(), id, RUN_LOCK_DEADLINE)?;
    let now = ctx.repo.branch_target(&into)?;
    if now != Some(onto) {
        drop(run_lock);
        let message = moved_message(&into, onto, now, ctx);
        return refuse(Code::TargetMoved, message, vec![], gate_run, out);
    }
    let reflog = format!("git-loop land {id} ({})", env.strategy);
    match advance::advance(&ctx.repo, &into, onto, built.tip, &reflog)? {
        Advance::Moved { .. } => {}
        refusal => {
            drop(run_lock);
            let (code, message, paths) = advance_refusal(refusal, &into, onto, ctx);
            return refuse(code, message, paths, gate_run, out);
        }
    }
    tips.set(&into, built.tip);
    let mut landed = Landed {
        into,
        from: onto,
        to: built.tip,
        commits: built.commits,
        gate: gate_run,
        worktree: WorktreeFate::Kept,
        branch: BranchFate::Kept {
            reason: "--keep".to_owned(),
        },
        problems: Vec::new(),
    };
    let mut error = None;
    if let Err(e) = record(env, entry, &landed, out) {
        landed
            .problems
            .push(format!("landed, but not recorded as merged: {e}"));
        error = Some(e);
    }
    drop(run_lock);
    if !env.keep {
        landed.worktree = remove_worktree(ctx, id, out);
        landed.branch = delete_branch(ctx, &branch, run_tip, &landed.into, out);
    }
    Ok((Fate::Landed(Box::new(landed)), error))
}

/// The run's target: `--into`/`land.into`, else its recorded base when
/// that is a local branch; `Err` with the message that says to pass
/// `--into`.
fn target(env: &Env<'_>, entry: &Entry) -> Result<std::result::Result<String, String>> {
    let into = match env.into {
        Some(into) => into.to_owned(),
        None => {
            let base = entry.base_branch.as_str();
            let local = base.strip_prefix("refs/heads/").unwrap_or(base);
            if env.ctx.repo.branch_target(local)?.is_none() {
                return Ok(Err(format!(
                    "its base {base:?} is not a local branch: pass --into <BRANCH> (or set land.into)"
                )));
            }
            local.to_owned()
        }
    };
    if into == entry.branch() {
        return Ok(Err(format!(
            "{into} is the run's own branch: pass --into <BRANCH>"
        )));
    }
    Ok(Ok(into))
}

/// Why the run's worktree refuses the landing, if it does: what lands is
/// the committed work, never a worktree's uncommitted state.
fn worktree_refusal(ctx: &Ctx, id: &str) -> Result<Option<(Code, String)>> {
    let Some((_, wt)) = ctx
        .repo
        .loop_worktrees()?
        .into_iter()
        .find(|(n, _)| n == id)
    else {
        return Ok(None);
    };
    if let Some((_, operation)) = crate::safety::operation_in_progress(&wt.admin_dir) {
        return Ok(Some((
            Code::OperationInProgress,
            format!("its worktree has a {operation} in progress: finish or abort it first"),
        )));
    }
    if !wt.path.is_dir() {
        return Ok(None);
    }
    let clean = crate::git::repo::cleanliness(&wt.path, &wt.admin_dir)?;
    let what = match (clean.modified, clean.untracked) {
        (true, true) => "uncommitted changes and untracked files",
        (true, false) => "uncommitted changes",
        (false, true) => "untracked files",
        (false, false) => return Ok(None),
    };
    Ok(Some((
        Code::Dirty,
        format!(
            "its worktree has {what}: what lands is the run's commits; commit them (or remove them) first"
        ),
    )))
}

fn strategy(s: LandStrategy) -> Strategy {
    match s {
        LandStrategy::Rebase => Strategy::Rebase,
        LandStrategy::Squash => Strategy::Squash,
        LandStrategy::Merge => Strategy::Merge,
        LandStrategy::Ff => Strategy::Ff,
    }
}

fn gate_failure(run: &GateRun) -> String {
    let how = match (run.timed_out, run.exit_code) {
        (true, _) => format!(
            "was killed after {} s (the timeout)",
            GATE_TIMEOUT.as_secs()
        ),
        (false, Some(code)) => format!("exited {code}"),
        (false, None) => "died of a signal".to_owned(),
    };
    let tail = run.tail.trim_end();
    let last = tail.lines().last().unwrap_or_default();
    if last.is_empty() {
        format!("the gate `{}` {how}", run.command)
    } else {
        format!("the gate `{}` {how}: {last}", run.command)
    }
}

fn moved_message(into: &str, onto: ObjectId, now: Option<ObjectId>, ctx: &Ctx) -> String {
    match now {
        Some(now) => format!(
            "{into} moved from {} to {} while the landing was built: land again",
            ctx.repo.short_id(onto),
            ctx.repo.short_id(now)
        ),
        None => format!("{into} was deleted while the landing was built"),
    }
}

/// The code, message and paths of an advance that did not move the target.
fn advance_refusal(
    refusal: Advance,
    into: &str,
    onto: ObjectId,
    ctx: &Ctx,
) -> (Code, String, Vec<String>) {
    match refusal {
        Advance::Moved { .. } => unreachable!("not a refusal"),
        Advance::TargetMoved { now } => (
            Code::TargetMoved,
            moved_message(into, onto, now, ctx),
            vec![],
        ),
        Advance::TargetDirty { checkout, paths } => (
            Code::TargetDirty,
            format!(
                "{} (where {into} is checked out) has local changes in paths the landing changes: {}; commit or move them, then land again",
                checkout.display(),
                paths.join(", ")
            ),
            paths,
        ),
        Advance::TargetBusy {
            checkout,
            operation,
        } => (
            Code::TargetBusy,
            format!(
                "{} (where {into} is checked out) has a {operation} in progress: finish or abort it first",
                checkout.display()
            ),
            vec![],
        ),
    }
}

/// The refusal of `entry`, logged (not in a dry run) as a `land` event
/// with its code.
#[allow(clippy::too_many_arguments)]
fn refused(
    env: &Env<'_>,
    entry: &Entry,
    into: Option<&str>,
    code: Code,
    message: String,
    paths: Vec<String>,
    gate: Option<GateRun>,
    out: &mut Out<'_>,
) -> Result<(Fate, Option<Error>)> {
    if !env.dry_run {
        let mut event = Event::new(EventKind::Land, &entry.id);
        event.code = Some(EventCode::Other(code.as_str().to_owned()));
        let mut detail = message.clone();
        if let Some(tail) = gate
            .as_ref()
            .map(|g| g.tail.trim_end())
            .filter(|t| !t.is_empty())
        {
            detail.push_str("\n");
            detail.push_str(tail);
        }
        event.detail = Some(detail);
        let mutex = ManifestMutex::acquire(&env.ctx.loop_dir())?;
        env.ctx.log_events(&[event], out);
        drop(mutex);
    }
    let skipped = Skipped {
        into: into.map(str::to_owned),
        code,
        message,
        paths,
        gate,
    };
    Ok((Fate::Skipped(skipped), None))
}

/// Under the run lock: the run marked `merged` (if it is still the run
/// that landed) and the `land` and `mark` events logged, under the mutex.
fn record(env: &Env<'_>, entry: &Entry, landed: &Landed, out: &mut Out<'_>) -> Result<()> {
    let ctx = env.ctx;
    let mut land = Event::new(EventKind::Land, &entry.id);
    land.from = Some(State::Commit(landed.from.to_string()));
    land.to = Some(State::Commit(landed.to.to_string()));
    land.detail = Some(format!(
        "landed {} into {} ({}, {} commit{})",
        entry.branch(),
        landed.into,
        env.strategy,
        landed.commits,
        if landed.commits == 1 { "" } else { "s" }
    ));
    let mutex = ManifestMutex::acquire(&ctx.loop_dir())?;
    let mut manifest = ctx.manifest.load_or_default()?;
    let mut events = vec![land];
    if let Some(current) = manifest.find_mut(&entry.id).filter(|e| e.same_run(entry))
        && current.status != Status::Merged
    {
        let mut mark = Event::new(EventKind::Mark, &entry.id);
        mark.from = Some(current.status.into());
        mark.to = Some(Status::Merged.into());
        mark.detail = Some(format!("landed into {} at {}", landed.into, landed.to));
        current.status = Status::Merged;
        ctx.manifest.write(&manifest, &mutex)?;
        events.push(mark);
    }
    ctx.log_events(&events, out);
    drop(mutex);
    Ok(())
}

/// The landed run's worktree removed with `remove`'s rules (never forced;
/// a worktree with anything to lose is kept, with the code).
fn remove_worktree(ctx: &Ctx, id: &str, out: &mut Out<'_>) -> WorktreeFate {
    match ctx.repo.loop_worktrees() {
        Ok(wts) if !wts.iter().any(|(n, _)| n == id) => return WorktreeFate::None,
        Ok(_) => {}
        Err(e) => {
            return WorktreeFate::Skipped {
                code: e.code().to_owned(),
                reason: e.to_string(),
            };
        }
    }
    match crate::ops::reclaim::remove(ctx, &[id], false, false, out) {
        Ok(reclaimed) if !reclaimed.removed.is_empty() => WorktreeFate::Removed,
        Ok(reclaimed) => match (reclaimed.skipped.first(), reclaimed.error) {
            (Some(skip), _) => WorktreeFate::Skipped {
                code: skip.code.as_str().to_owned(),
                reason: skip.reason.clone(),
            },
            (None, Some(e)) => WorktreeFate::Skipped {
                code: e.code().to_owned(),
                reason: e.to_string(),
            },
            (None, None) => WorktreeFate::None,
        },
        Err(e) => WorktreeFate::Skipped {
            code: e.code().to_owned(),
            reason: e.to_string(),
        },
    }
}

/// The landed run's branch deleted through the safety kernel: judged
/// against the target it landed in, at the tip that landed, its tip kept
/// in the trash first; logged as `branch-delete`. Kept, with the reason,
/// otherwise.
fn delete_branch(
    ctx: &Ctx,
    branch: &str,
    landed_tip: ObjectId,
    into: &str,
    out: &mut Out<'_>,
) -> BranchFate {
    match try_delete_branch(ctx, branch, landed_tip, into, out) {
        Ok(fate) => fate,
        Err(e) => BranchFate::Kept {
            reason: e.to_string(),
        },
    }
}

fn try_delete_branch(
    ctx: &Ctx,
    branch: &str,
    landed_tip: ObjectId,
    into: &str,
    out: &mut Out<'_>,
) -> Result<BranchFate> {
    use crate::safety::branch::Deletion;
    let kept = |reason: String| Ok(BranchFate::Kept { reason });
    let Some(tip) = ctx.repo.branch_target(branch)? else {
        return kept(format!("{branch} no longer exists"));
    };
    if tip != landed_tip {
        return kept(format!(
            "{branch} moved to {} after {} landed",
            ctx.repo.short_id(tip),
            ctx.repo.short_id(landed_tip)
        ));
    }
    let repo = ctx.repo.gix();
    let mut detector = crate::git::merged::Detector::new(repo)?;
    let judged = crate::safety::branch::judge(repo, &mut detector, branch, tip, into)?;
    let checked_out = ctx.repo.checked_out_branches()?;
    match crate::safety::branch::delete(&ctx.repo, branch, tip, &judged, &checked_out)? {
        Deletion::Deleted {
            tip,
            merged_by,
            trash_ref,
        } => {
            let mut event = Event::new(EventKind::BranchDelete, entry_id(branch));
            let by = merged_by.map_or("no commits of its own".to_owned(), |b| {
                format!("merged: {b}")
            });
            event.detail = Some(format!(
                "branch {branch} deleted at {tip} ({by}, landed into {into}); kept as {trash_ref}"
            ));
            let mutex = ManifestMutex::acquire(&ctx.loop_dir())?;
            ctx.log_events(&[event], out);
            drop(mutex);
            Ok(BranchFate::Deleted {
                merged_by,
                trash_ref,
            })
        }
        Deletion::Kept(_, reason) => kept(format!("{reason} ({into})")),
    }
}

/// The run id of `loop/<id>`.
fn entry_id(branch: &str) -> &str {
    branch.strip_prefix("loop/").unwrap_or(branch)
}
