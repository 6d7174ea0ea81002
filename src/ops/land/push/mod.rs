//! `land --push`: the landed target pushed to its upstream, never forced.
//!
//! A fleet on many machines lands onto one remote branch with no lock
//! server: the remote's own ref update is the coordinator. Once the
//! landing is built, gated and checked (the local target not moved yet),
//! [`push`] runs `git push --porcelain
//! --no-follow-tags -- <remote> <tip>:<merge ref>` (the branch's upstream:
//! `branch.<b>.remote` and `branch.<b>.merge`, as `git status` names it).
//! Never `--force`, never `--force-with-lease`, never a `+` refspec: the
//! remote accepts only a fast-forward, so nothing anyone else pushed can
//! be lost by a landing.
//!
//! When the remote refuses because its branch moved (`[rejected] (fetch
//! first)` or `(non-fast-forward)`, or a concurrent push holding its ref
//! lock), the remote branch is fetched into its remote-tracking branch
//! (`git fetch … +<merge ref>:<tracking ref>`, only that ref written) and:
//! - its new tip already contains the local tip (the push only lost a
//!   race for the lock): push again as it is;
//! - it does not contain the local target's tip from before the landing
//!   (`base`): the histories diverged (commits of the local branch the
//!   remote never had, or a remote rewritten): not pushed. Rebuilding
//!   there would drop those commits from the local branch;
//! - otherwise the orchestrator's rebuild callback lands the run(s) again
//!   on the remote's tip (build, persist, gate, check the local target
//!   could follow), and that is pushed. The local target moves once, after
//!   the push, by compare-and-swap from its tip before the landing.
//!
//! At most `retries` refusals are answered so (`land.push-retries`,
//! default 3); one more, a rebuild that cannot land (a conflict with what
//! the remote gained, a failed gate, the local target moved or its
//! checkout dirty), any other push failure (no upstream, unreachable
//! remote, a hook declining) ends in [`Push::NotPushed`] with the reason:
//! the landing still lands locally (code `not-pushed` in the report).

use gix::ObjectId;

use crate::error::Result;
use crate::git::merge::merge_base;
use crate::git::plumbing::{self, PushOutcome};
use crate::git::repo::Repo;

/// What the orchestrator's rebuild callback did with the remote's new tip.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rebuilt {
    /// The landing was built again on the remote's tip, persisted and
    /// gated at `tip`, and the local target's checkout could follow it
    /// (the target itself moves after the push).
    Advanced { tip: ObjectId },
    /// It could not land there (a conflict, a failed gate, the local
    /// target moved or its checkout dirty). `reason` names what refused,
    /// with the code's words.
    Refused { reason: String },
}

/// The outcome of [`push`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Push {
    /// The remote's branch is at `tip` (the local target's tip).
    Pushed {
        remote: String,
        /// The branch there, `refs/heads/<b>`.
        remote_ref: String,
        tip: ObjectId,
        /// How many times the landing was rebuilt on the remote's new tip.
        rebuilds: usize,
        /// git's word for the remote's update: `<old>..<new>` (abbreviated),
        /// `[new branch]`.
        summary: String,
    },
    /// Landed locally only (`not-pushed`): the local target is at `tip`.
    NotPushed {
        reason: String,
        tip: ObjectId,
        rebuilds: usize,
    },
}

/// Where `branch` pushes: its upstream remote, the branch there, and the
/// remote-tracking branch a fetch of it writes here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upstream {
    pub remote: String,
    /// `branch.<b>.merge`: a full ref name on the remote (`refs/heads/main`).
    pub remote_ref: String,
    /// `refs/remotes/<remote>/<b>`, through the remote's fetch refspec;
    /// `None` when no refspec maps it (a push works, a retry cannot fetch).
    pub tracking: Option<String>,
}

/// The upstream `branch` is pushed to, or why it has none to push to.
pub fn upstream(repo: &Repo, branch: &str) -> std::result::Result<Upstream, String> {
    use gix::remote::Direction;
    let gix = repo.gix();
    let full = format!("refs/heads/{branch}");
    let name: &gix::refs::FullNameRef = full
        .as_str()
        .try_into()
        .map_err(|_| format!("{branch} is not a valid branch name"))?;
    let none = || {
        format!(
            "{branch} has no upstream to push to (set one with `git branch --set-upstream-to=<remote>/{branch} {branch}`)"
        )
    };
    let remote = gix
        .branch_remote_name(name.shorten(), Direction::Fetch)
        .ok_or_else(none)?;
    let remote = remote.as_bstr().to_string();
    if remote == "." {
        return Err(format!(
            "{branch}'s upstream is a branch of this repository (branch.{branch}.remote is `.`): nothing to push to"
        ));
    }
    let remote_ref = match gix.branch_remote_ref_name(name, Direction::Fetch) {
        Some(Ok(r)) => r.as_bstr().to_string(),
        _ => return Err(none()),
    };
    if !remote_ref.starts_with("refs/heads/") {
        return Err(format!(
            "{branch}'s upstream {remote_ref} on {remote} is not a branch: not pushed"
        ));
    }
    let tracking = match gix.branch_remote_tracking_ref_name(name, Direction::Fetch) {
        Some(Ok(r)) => Some(r.as_bstr().to_string()),
        _ => None,
    }
    .filter(|t| t.starts_with("refs/remotes/"));
    Ok(Upstream {
        remote,
        remote_ref,
        tracking,
    })
}

/// Push `tip`, the landing built and gated on `branch`'s tip `base`, to
/// `branch`'s upstream, never forced.
///
/// How `land` calls it (`one::push`): before the local target moves
/// and holding no lock, once `advance::check` says the checkout would
/// accept `base -> tip`:
/// ```ignore
/// let retries = settings.land_push_retries.value; // land.push-retries, default 3
/// let outcome = push::push(repo, into, onto, landed_tip, retries, |remote_tip| {
///     // Land the same run again onto `remote_tip`: build, persist, gate,
///     // and check that the local target could move `onto -> new`.
///     // Ok(Rebuilt::Advanced { tip: new }) when it could;
///     // Ok(Rebuilt::Refused { reason }) when it cannot.
/// })?;
/// // Then the local target moves once, by compare-and-swap, from `onto` to
/// // the tip of the outcome (pushed or not).
/// ```
/// `rebuild` gets the remote's new tip, which contains `base` (else this
/// refuses, diverged), so the tip it returns descends from `base`: the
/// local target only ever moves forward, from `base` to the last tip
/// built, and no push is ever undone. It calls `rebuild` at most `retries`
/// times. `Err` only for what stops the command (git could not be run, the
/// repository unreadable, or an `Err` from `rebuild`); every reason the
/// target is not pushed is [`Push::NotPushed`]. Crash point
/// `land-before-push` is reached before each push.
pub fn push<F>(
    repo: &Repo,
    branch: &str,
    base: ObjectId,
    tip: ObjectId,
    retries: usize,
    mut rebuild: F,
) -> Result<Push>
where
    F: FnMut(ObjectId) -> Result<Rebuilt>,
{
    let mut tip = tip;
    let mut rebuilds = 0;
    let up = match upstream(repo, branch) {
        Ok(up) => up,
        Err(reason) => {
            return Ok(Push::NotPushed {
                reason,
                tip,
                rebuilds,
            });
        }
    };
    let there = there(&up);
    let mut refused = 0;
    let reason = loop {
        crate::crash::point("land-before-push");
        let why = match plumbing::push(repo.root(), &up.remote, &tip.to_string(), &up.remote_ref)? {
            PushOutcome::Done { summary } => {
                return Ok(Push::Pushed {
                    remote: up.remote,
                    remote_ref: up.remote_ref,
                    tip,
                    rebuilds,
                    summary,
                });
            }
            PushOutcome::Failed { reason } => {
                break format!("git push to {there} failed: {reason}");
            }
            PushOutcome::Moved { reason } => reason,
        };
        if refused == retries {
            break format!(
                "{there} moved under every push ({} refused, the last: {why}; land.push-retries is {retries})",
                retries + 1
            );
        }
        refused += 1;
        match answer_moved(repo, &up, branch, base, tip, &why, &mut rebuild)? {
            Answer::Again { tip: next, rebuilt } => {
                tip = next;
                rebuilds += usize::from(rebuilt);
            }
            Answer::Stop(reason) => break reason,
        }
    };
    Ok(Push::NotPushed {
        reason,
        tip,
        rebuilds,
    })
}

/// What [`answer_moved`] says to do after a refused push.
enum Answer {
    /// Push again: the same tip (`rebuilt` false), or the landing rebuilt
    /// on the remote's new tip.
    Again { tip: ObjectId, rebuilt: bool },
    /// Not pushed, for this reason.
    Stop(String),
}

/// The answer to a push refused because the remote moved (`why`): its new
/// tip fetched, then `tip` pushed again as it is when the new tip contains
/// it (only the race for the remote's ref lock was lost), a stop when the
/// new tip does not contain `base` (the histories diverged), else the
/// landing rebuilt on the new tip.
fn answer_moved<F>(
    repo: &Repo,
    up: &Upstream,
    branch: &str,
    base: ObjectId,
    tip: ObjectId,
    why: &str,
    rebuild: &mut F,
) -> Result<Answer>
where
    F: FnMut(ObjectId) -> Result<Rebuilt>,
{
    let there = there(up);
    let remote_tip = match refetch(repo, up, &there, why)? {
        Ok(remote_tip) => remote_tip,
        Err(reason) => return Ok(Answer::Stop(reason)),
    };
    if is_ancestor(repo, remote_tip, tip)? {
        return Ok(Answer::Again {
            tip,
            rebuilt: false,
        });
    }
    if !is_ancestor(repo, base, remote_tip)? {
        return Ok(Answer::Stop(format!(
            "{there} at {} does not contain {branch}'s {} (the histories diverged): pull {branch} first",
            repo.short_id(remote_tip),
            repo.short_id(base)
        )));
    }
    Ok(match rebuild(remote_tip)? {
        Rebuilt::Advanced { tip } => Answer::Again { tip, rebuilt: true },
        Rebuilt::Refused { reason } => Answer::Stop(format!(
            "{there} moved to {} and the landing could not be rebuilt on it: {reason}",
            repo.short_id(remote_tip)
        )),
    })
}

/// The remote's branch as messages name it: `origin's main`.
fn there(up: &Upstream) -> String {
    format!("{}'s {}", up.remote, short_branch(&up.remote_ref))
}

/// After a push refused because the remote moved (`why`): its branch
/// fetched into the remote-tracking branch, and the commit it is at now;
/// `Err` with the reason it cannot be had.
fn refetch(
    repo: &Repo,
    up: &Upstream,
    there: &str,
    why: &str,
) -> Result<std::result::Result<ObjectId, String>> {
    let Some(tracking) = &up.tracking else {
        return Ok(Err(format!(
            "{there} moved ({why}) and no remote-tracking branch maps it, so it cannot be fetched to land again on it"
        )));
    };
    if let Err(failure) = repo.git().fetch(&up.remote, &up.remote_ref, tracking)? {
        return Ok(Err(format!(
            "{there} moved ({why}) and could not be fetched: {}",
            failure.reason()
        )));
    }
    Ok(repo.resolve_commit(tracking).ok_or_else(|| {
        format!("{there} moved ({why}) and {tracking} does not name a commit after the fetch")
    }))
}

/// Whether `ancestor` is `tip` or one of its ancestors.
fn is_ancestor(repo: &Repo, ancestor: ObjectId, tip: ObjectId) -> Result<bool> {
    Ok(merge_base(repo.gix(), ancestor, tip)? == Some(ancestor))
}

fn short_branch(full: &str) -> &str {
    full.strip_prefix("refs/heads/").unwrap_or(full)
}

#[cfg(test)]
mod tests;
