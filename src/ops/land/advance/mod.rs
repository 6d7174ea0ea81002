//! The target advanced by compare-and-swap, and the worktree that has it
//! checked out updated where it is clean.
//!
//! The order, and why (see docs/landing.md, "What landing does to your
//! checkout"):
//! 1. **check** ([`check`], which changes nothing): the target must still
//!    be at `old` (else [`Advance::TargetMoved`]) and `new` must descend
//!    from it (a landing only moves a branch forward: nothing it held is
//!    lost). The worktree that has it checked out is found with gix — the
//!    main checkout or a linked worktree whose `HEAD` is `ref:
//!    refs/heads/<branch>`; a worktree rebasing or bisecting it counts too
//!    — and refuses ([`Advance::TargetBusy`]) while an operation is in
//!    progress there (the kernel's [`crate::safety::OPERATION_MARKERS`]), an
//!    unresolved conflict is in its index, its directory is missing, or a
//!    second worktree has the branch checked out too. Then an in-process
//!    read ([`safety::checkout::certainly_clean`]) says yes when every path
//!    the landing changes is certainly up to date there; when it is unsure,
//!    `git read-tree -n -m -u old new` says whether the two-tree merge
//!    would go through: a path the landing does not change keeps its index
//!    entry and its file whatever they hold; a path it changes must be
//!    clean in the index and the work tree, and no untracked file may be in
//!    its way. When it would not, [`Advance::TargetDirty`] names the paths
//!    git named. A path only "not uptodate" may be a file merely touched:
//!    the index's cached stats are refreshed (`update-index -q --refresh`,
//!    what `git status` does) and the dry run asked once more. When it
//!    would, git would also overwrite or delete an ignored file (a `.env`,
//!    a `build/` directory) where the landing writes a file:
//!    [`safety::checkout::untracked`] names those, and the landing is
//!    refused ([`Advance::TargetIgnored`]). (The in-process read needs
//!    nothing at all where a file is added, so it never meets one.)
//! 2. **the ref**: `refs/heads/<branch>` from `old` to `new`, a
//!    compare-and-swap ([`move_ref`]; `git update-ref` when a hook may
//!    run): a concurrent move is refused, never overwritten
//!    ([`Advance::TargetMoved`] with the value found).
//! 3. **the checkout** (after reading once more that it still has the
//!    branch checked out): in process ([`checkout::two_way`], under the
//!    kernel's permit, [`safety::checkout`]) when its index lock is free,
//!    the read is certain once more, and nothing is beyond a plain write
//!    (an attribute, a filter, an eol or split-index setting…); else, and
//!    whenever it is unsure, `git read-tree -m -u old new`, once no
//!    ignored file is found again in its way (else undone as below,
//!    [`Advance::TargetIgnored`]). If git refuses (a file changed since
//!    the dry run: git writes nothing then), the ref is moved back from
//!    `new` to `old` by compare-and-swap, with the kernel's leave
//!    ([`crate::safety::undo_advance`]), and the landing is refused as in
//!    step 1: nothing changed but two reflog lines. If git stopped part
//!    way through the files (killed), the ref stays: the error names the
//!    command that finishes it ([`read_tree`]).
//!
//! From just before the ref moves to the end of step 3, Ctrl-C and
//! SIGTERM wait, then say how the landing ended ([`interrupt`]).
//!
//! Never a stash, a reset, a `checkout -f`, nor `refs/stash`: the user's
//! uncommitted work is either outside what the landing changes (and kept
//! byte for byte, staged or not) or in its way (and the landing refused).
//! No hook runs but `reference-transaction` (git's `update-ref` moves the
//! ref whenever one may exist, [`move_ref`]).
//!
//! # A sync's move ([`rewrite`], [`check_rewrite`])
//!
//! `git loop sync` moves a run's branch with the same steps, its own
//! worktree the checkout that follows. Its rebase moves the branch
//! sideways (`new` need not descend from `old`): the caller keeps `old` in
//! the trash first, and the move is the kernel's
//! ([`safety::rewrite_branch`], [`safety::exec::rewrite_branch`]), which
//! checks the trash entry holds `old`; the in-process checkout and the
//! undo take the same trash entry as their proof that `old` is held. Its
//! reflog line begins [`SYNC_PREFIX`], so a worktree the sync left behind
//! (a kill between the move and the checkout) is recognised, and named an
//! unfinished sync, as an unfinished landing is.
//!
//! Crash points ([`crate::crash`]): `land-before-ref`, `land-after-ref`
//! (the ref moved, the checkout still at `old`: `git status` there shows the
//! landing reversed as staged changes, every file as it was;
//! `git read-tree -m -u <old> <new>` finishes it, and [`check`] recognises
//! such a checkout on the next landing: [`Advance::TargetBusy`] naming that
//! command; one `git read-tree` left partly written is recognised too, with
//! its own command, [`unfinished`]), `land-after-checkout`.

use std::path::PathBuf;

use crate::error::{Error, Result};
use crate::git::repo::Repo;
use crate::safety;
use gix::ObjectId;

mod checkout;
mod interrupt;
mod place;
mod read_tree;
mod unfinished;

use checkout::Followed;
use place::place;
use read_tree::Wrote;
pub use unfinished::SYNC_PREFIX;

#[cfg(test)]
mod tests;

/// The outcome of [`check`] and [`advance`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Advance {
    /// The ref moved (or, from [`check`], would move); `checkout` is the
    /// worktree updated with it, when the target is checked out.
    Moved { checkout: Option<PathBuf> },
    /// The target is no longer at the tip the landing was built on.
    TargetMoved { now: Option<ObjectId> },
    /// The checkout of the target has local changes (or untracked files) in
    /// paths the landing changes: nothing moved.
    TargetDirty {
        checkout: PathBuf,
        paths: Vec<String>,
    },
    /// Files the checkout's index does not list (ignored ones, a `.env`)
    /// stand where the landing writes: git would overwrite or delete them
    /// (a directory named with a trailing `/`). Nothing moved.
    TargetIgnored {
        checkout: PathBuf,
        paths: Vec<String>,
    },
    /// The checkout of the target has an operation in progress (a merge, a
    /// rebase…): nothing moved. `operation` names what is in the way: the
    /// operation as the kernel's markers name it (`merge`, `rebase`,
    /// `cherry-pick`, `revert`, `bisect`…), or [`UNMERGED`],
    /// [`MISSING`], [`SECOND_CHECKOUT`], or an unfinished landing (a crash
    /// at `land-after-ref`), with the command that finishes it.
    TargetBusy {
        checkout: PathBuf,
        operation: String,
    },
}

/// [`Advance::TargetBusy`]: the checkout's index holds an unresolved
/// conflict (no operation recorded, e.g. after a `git stash pop`).
pub const UNMERGED: &str = "unresolved conflicts";
/// [`Advance::TargetBusy`]: the worktree is registered with the branch
/// checked out, but its directory is gone (it cannot be updated).
pub const MISSING: &str = "missing worktree directory";
/// [`Advance::TargetBusy`]: the branch is checked out in this worktree as
/// well as in another (`git worktree add --ignore-other-worktrees`).
pub const SECOND_CHECKOUT: &str = "second checkout of the branch";

/// How the ref moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move<'a> {
    /// Forward only, `new` descending from `old` (a landing): nothing it
    /// held is lost, and no permit is asked.
    Forward,
    /// Anywhere (a sync's rebase of a run's branch): `old` kept in the
    /// trash entry `kept` first, the move the kernel's
    /// ([`safety::rewrite_branch`]).
    Rewrite { kept: &'a str },
}

impl<'a> Move<'a> {
    /// The trash entry that keeps `old`, for a rewrite.
    fn kept(self) -> Option<&'a str> {
        match self {
            Move::Forward => None,
            Move::Rewrite { kept } => Some(kept),
        }
    }

    /// What the move is called in what a Ctrl-C or an unfinished one says.
    fn word(self) -> &'static str {
        match self {
            Move::Forward => "landing",
            Move::Rewrite { .. } => "sync",
        }
    }
}

/// Where the target is checked out: nowhere, in the worktree at that path,
/// or somewhere it cannot be updated now.
enum Place {
    Nowhere,
    At(PathBuf),
    Busy(Advance),
}

/// Whether `branch` could move forward from `old` to `new` now; changes
/// nothing.
pub fn check(repo: &Repo, branch: &str, old: ObjectId, new: ObjectId) -> Result<Advance> {
    check_move(repo, branch, (old, new), true)
}

/// Whether `branch` could move from `old` to `new`, forward or not (a
/// sync's rebase), now: [`check`] but for the direction; changes nothing.
pub fn check_rewrite(repo: &Repo, branch: &str, old: ObjectId, new: ObjectId) -> Result<Advance> {
    check_move(repo, branch, (old, new), false)
}

/// [`check`], the move forward only when `forward`.
fn check_move(
    repo: &Repo,
    branch: &str,
    (old, new): (ObjectId, ObjectId),
    forward: bool,
) -> Result<Advance> {
    let now = repo.branch_target(branch)?;
    if now != Some(old) {
        return Ok(Advance::TargetMoved { now });
    }
    if forward {
        forward_only(repo, branch, old, new)?;
    }
    match place(repo, branch)? {
        Place::Busy(busy) => Ok(busy),
        Place::Nowhere => Ok(Advance::Moved { checkout: None }),
        Place::At(checkout) => {
            // The checkout's index, read once for both checks.
            let index = crate::git::repo::read_index(&crate::git::repo::open_worktree(&checkout)?)?;
            if let Some(busy) = unfinished::landing(repo, branch, old, &checkout, &index)? {
                return Ok(busy);
            }
            // Certainly clean, read in-process: no `read-tree -n` process.
            // Unsure (or unreadable): git's dry run decides and words it.
            if safety::checkout::certainly_clean(repo.gix(), &checkout, &index, old, new)
                .unwrap_or(false)
            {
                return Ok(Advance::Moved {
                    checkout: Some(checkout),
                });
            }
            match read_tree::dry_run(&checkout, old, new)? {
                Advance::Moved { .. } => checkout::untracked(repo, &checkout, &index, old, new),
                refused => Ok(refused),
            }
        }
    }
}

/// Where `branch`, at `tip`, is checked out (`Ok(None)`: nowhere), with
/// that checkout's index; or what makes that checkout busy now, as
/// [`check`] finds it (an operation in progress, its directory missing, a
/// second checkout, a landing or sync left unfinished). Changes nothing.
pub fn checked_out(
    repo: &Repo,
    branch: &str,
    tip: ObjectId,
) -> Result<std::result::Result<Option<(PathBuf, gix::index::File)>, Advance>> {
    Ok(match place(repo, branch)? {
        Place::Busy(busy) => Err(busy),
        Place::Nowhere => Ok(None),
        Place::At(checkout) => {
            let index = crate::git::repo::read_index(&crate::git::repo::open_worktree(&checkout)?)?;
            match unfinished::landing(repo, branch, tip, &checkout, &index)? {
                Some(busy) => Err(busy),
                None => Ok(Some((checkout, index))),
            }
        }
    })
}

/// The checkout of `branch` (at `tip`) as a landing or sync that stopped
/// between the branch's move and the checkout's update left it
/// ([`unfinished`]: [`Advance::TargetBusy`] with the command that finishes
/// it); `None` when it is not so. Changes nothing.
pub fn left_unfinished(repo: &Repo, branch: &str, tip: ObjectId) -> Result<Option<Advance>> {
    let Place::At(checkout) = place(repo, branch)? else {
        return Ok(None);
    };
    let index = crate::git::repo::read_index(&crate::git::repo::open_worktree(&checkout)?)?;
    unfinished::landing(repo, branch, tip, &checkout, &index)
}

/// A sync's move of `branch` to `tip` whose checkout did not follow (the
/// process killed between the two: see [`unfinished`]), finished now: when
/// the branch's newest reflog line is that sync's move from `before`, and
/// its checkout is still wholly at `before` in the paths the move changes
/// (nothing of it written, no index lock), the checkout is moved from
/// `before` to `tip` as the sync would have moved it (in process under the
/// kernel's permit, else `git read-tree -m -u`), with `before` held by the
/// trash entry `kept` gives for it. `Ok(Some(before))`: finished (`dry`:
/// would be; nothing written); `Ok(None)`: nothing to finish here, or not
/// safely (then [`check`] names the state and the command that finishes it
/// by hand).
pub fn finish_sync(
    repo: &Repo,
    branch: &str,
    tip: ObjectId,
    kept: impl Fn(ObjectId) -> Option<String>,
    dry: bool,
) -> Result<Option<(ObjectId, Option<String>)>> {
    let Some((before, "sync")) = unfinished::landed_from(repo.gix(), branch, tip)? else {
        return Ok(None);
    };
    let Place::At(checkout) = place(repo, branch)? else {
        return Ok(None);
    };
    // Killed while it held the run's index (see `checkout::Owner`): the
    // files it had written already are `tip`'s, the others `before`'s.
    let stale = checkout::stale_owned_lock(&checkout)?;
    let written = if stale {
        match unfinished::written_by_sync(repo, &checkout, before, tip)? {
            Some(written) => written,
            None => return Ok(None),
        }
    } else if unfinished::untouched(repo, &checkout, before, tip)? {
        Vec::new()
    } else {
        return Ok(None);
    };
    let kept = kept(before);
    if kept.is_none() && !safety::descends_from(repo.gix(), tip, before) {
        return Ok(None);
    }
    if dry {
        return Ok(Some((before, kept)));
    }
    if stale && !checkout::clear_stale_lock(&checkout)? {
        return Ok(None);
    }
    if !written.is_empty() {
        // Recorded as they are on disk (`tip`'s blobs): the index only.
        crate::git::plumbing::update_index_paths(&checkout, &written)?;
    }
    let Some(held) = checkout::hold(&checkout, true)? else {
        return Ok(None);
    };
    match follow_held(repo, branch, (before, tip), kept.as_deref(), held)? {
        Wrote::Done => Ok(Some((before, kept))),
        Wrote::Nothing(_) => Ok(None),
        Wrote::Partly(e) => Err(e),
    }
}

/// Move `branch` from `old` to `new` by compare-and-swap and update its
/// checkout; `message` is the reflog message (after
/// [`unfinished::REFLOG_PREFIX`]`: ` when it does not begin so).
pub fn advance(
    repo: &Repo,
    branch: &str,
    old: ObjectId,
    new: ObjectId,
    message: &str,
) -> Result<Advance> {
    advance_move(repo, branch, (old, new), message, Move::Forward)
}

/// Move `branch` from `old` to `new`, forward or not, by the kernel's
/// compare-and-swap ([`safety::exec::rewrite_branch`]), `old` kept in the
/// trash entry `kept` first (by the caller), and update its checkout as
/// [`advance`] does; `message` the reflog message (beginning with
/// [`unfinished::SYNC_PREFIX`]).
pub fn rewrite(
    repo: &Repo,
    branch: &str,
    (old, new): (ObjectId, ObjectId),
    kept: &str,
    message: &str,
) -> Result<Advance> {
    advance_move(repo, branch, (old, new), message, Move::Rewrite { kept })
}

/// [`advance`], the ref moved as `how` says.
fn advance_move(
    repo: &Repo,
    branch: &str,
    (old, new): (ObjectId, ObjectId),
    message: &str,
    how: Move<'_>,
) -> Result<Advance> {
    let message = &unfinished::stamped(message);
    let checked = match check_move(repo, branch, (old, new), how == Move::Forward)? {
        Advance::Moved { checkout } => checkout,
        refused => return Ok(refused),
    };
    crate::crash::point("land-before-ref");
    // From here a Ctrl-C waits until the move ended, moved or not.
    let window = interrupt::Window::open(branch, how.word());
    let outcome = move_and_follow(repo, branch, (old, new), message, (checked, how));
    window.close(repo, branch, (old, new), &outcome);
    outcome
}

/// [`advance`] from the ref's move on: the ref moved, and the checkout
/// (`checked`, when the target is checked out) made to follow; undone when
/// it cannot.
fn move_and_follow(
    repo: &Repo,
    branch: &str,
    (old, new): (ObjectId, ObjectId),
    message: &str,
    (checked, how): (Option<PathBuf>, Move<'_>),
) -> Result<Advance> {
    let full = format!("refs/heads/{branch}");
    // A sync holds its run's index from before the branch moves until the
    // worktree follows: a `git commit` there meanwhile would take the moved
    // branch as its parent and the index from before the sync as its tree,
    // undoing the sync in the run. Held, git's commit waits or fails on the
    // lock instead, and its own compare-and-swap of the branch is refused.
    // Not held (locked by a git command there, for one): refused, never
    // moved without it.
    let mut held = None;
    if let (Move::Rewrite { .. }, Some(path)) = (how, &checked) {
        held = checkout::hold(path, true)?;
        // A lock a killed sync took and left before it moved anything
        // (the check above found the branch at `old` and nothing
        // unfinished): its own, holding nothing yet; removed, then taken.
        if held.is_none() && checkout::clear_stale_lock(path)? {
            held = checkout::hold(path, true)?;
        }
        if held.is_some() {
            crate::crash::point("sync-index-held");
        }
        if held.is_none() {
            return Ok(Advance::TargetBusy {
                checkout: path.clone(),
                operation: "its index is locked (a git command is running there)".to_owned(),
            });
        }
    }
    let moved = match how {
        Move::Forward => move_ref(repo, &full, old, new, message),
        Move::Rewrite { kept } => {
            match safety::rewrite_branch(repo.gix(), branch, old, new, kept) {
                Some(permit) => {
                    safety::exec::rewrite_branch(repo, branch, old, new, message, &permit)
                }
                None => Err(Error::RefWrite(format!(
                    "{full} not moved: it is not at {old}, or {kept} does not keep {old}"
                ))),
            }
        }
    };
    if let Err(e) = moved {
        let now = repo.branch_target(branch)?;
        if now != Some(old) {
            return Ok(Advance::TargetMoved { now });
        }
        return Err(e);
    }
    crate::crash::point("land-after-ref");
    let checkout = match to_follow(repo, branch, checked)? {
        Ok(checkout) => checkout,
        Err(busy) => return undo(repo, branch, (old, new, how), message, Ok(busy)),
    };
    let followed = match (&checkout, held) {
        (Some(path), Some(held)) if *path == held.checkout() => {
            follow_held(repo, branch, (old, new), how.kept(), held)?
        }
        (Some(path), _) => follow(repo, branch, path, (old, new), how.kept())?,
        (None, _) => Wrote::Done,
    };
    match followed {
        Wrote::Done => {}
        Wrote::Nothing(refused) => return undo(repo, branch, (old, new, how), message, refused),
        Wrote::Partly(e) => return Err(e),
    }
    crate::crash::point("land-after-checkout");
    Ok(Advance::Moved { checkout })
}

/// The checkout at `path` moved from `old` to `new`: in process when that
/// is certainly the plain case ([`checkout::two_way`]), else by git
/// ([`by_git`]).
fn follow(
    repo: &Repo,
    branch: &str,
    path: &std::path::Path,
    (old, new): (ObjectId, ObjectId),
    kept: Option<&str>,
) -> Result<Wrote> {
    if checkout::two_way(repo, branch, path, (old, new), kept)? {
        return Ok(Wrote::Done);
    }
    by_git(repo, branch, path, (old, new), None)
}

/// [`follow`] with the checkout's index held from before the branch moved
/// until its index is written, whichever writes it (a sync's move: no
/// `git commit` there can pair the moved branch with the old index).
fn follow_held(
    repo: &Repo,
    branch: &str,
    (old, new): (ObjectId, ObjectId),
    kept: Option<&str>,
    held: checkout::Held,
) -> Result<Wrote> {
    let path = held.checkout().to_path_buf();
    match checkout::two_way_held(repo, branch, (old, new), kept, held)? {
        Followed::Done => Ok(Wrote::Done),
        Followed::Unsure(held) => by_git(repo, branch, &path, (old, new), Some(*held)),
        // The in-process write failed and put everything back; git is
        // asked without the lock (it takes its own).
        Followed::Released => by_git(repo, branch, &path, (old, new), None),
    }
}

/// `git read-tree -m -u old new` in the checkout at `path` (under the
/// index `held`, when given: [`read_tree::write_held`]), once no ignored
/// file is found in its way (git would overwrite it).
fn by_git(
    repo: &Repo,
    branch: &str,
    path: &std::path::Path,
    (old, new): (ObjectId, ObjectId),
    held: Option<checkout::Held>,
) -> Result<Wrote> {
    let index = crate::git::repo::read_index(&crate::git::repo::open_worktree(path)?)?;
    let ignored = checkout::untracked(repo, path, &index, old, new)?;
    if let Advance::TargetIgnored { .. } = ignored {
        return Ok(Wrote::Nothing(Ok(ignored)));
    }
    match held {
        Some(held) => read_tree::write_held(repo, branch, held, old, new),
        None => read_tree::write(repo, branch, path, old, new),
    }
}

/// `full` moved from `old` to `new` by compare-and-swap, with the reflog
/// line `message` (the reflog made if missing, as `--create-reflog`),
/// through the ref layer ([`crate::git::refs`]): git's `update-ref` when a
/// `reference-transaction` hook may exist (so it runs), the refs are not
/// plain files, or no committer identity is set (git writes the reflog
/// line with its default one, as for `git merge --ff-only`); else gix, in
/// process, through `HEAD` when the main checkout is on it (so `HEAD`'s
/// reflog has the line too).
fn move_ref(repo: &Repo, full: &str, old: ObjectId, new: ObjectId, message: &str) -> Result<()> {
    let name = full.to_owned();
    let update = crate::git::refs::Edit::Update { name, old, new };
    crate::git::refs::apply(repo.gix(), message, true, &[update])
        .map_err(|e| Error::RefWrite(format!("could not move {full}: {e}")))
}

/// After the ref moved, where the target is checked out now: the checkout
/// to update (the one checked, or none), or, when it became busy or was
/// checked out elsewhere since the check, the refusal to undo with.
fn to_follow(
    repo: &Repo,
    branch: &str,
    checked: Option<PathBuf>,
) -> Result<std::result::Result<Option<PathBuf>, Advance>> {
    Ok(match (place(repo, branch)?, checked) {
        (Place::At(now), Some(path)) if now == path => Ok(Some(path)),
        // Left since the check: only the ref had to move.
        (Place::Nowhere, _) => Ok(None),
        (Place::Busy(busy), _) => Err(busy),
        (Place::At(now), _) => Err(Advance::TargetBusy {
            checkout: now,
            operation: format!("checkout of {branch} made during the landing"),
        }),
    })
}

/// A landing moves its target forward only: `new` descends from `old`.
fn forward_only(repo: &Repo, branch: &str, old: ObjectId, new: ObjectId) -> Result<()> {
    if safety::descends_from(repo.gix(), new, old) {
        return Ok(());
    }
    Err(Error::Internal(format!(
        "{new} does not descend from {old}; a landing moves {branch} only forward"
    )))
}

/// The ref moved but the checkout could not follow: move the ref back from
/// `new` to `old` (the kernel's leave: our own move, a moment ago), then
/// give `outcome` (what stopped the checkout). If the ref has moved again
/// meanwhile it is left alone and the error says how to finish by hand.
fn undo(
    repo: &Repo,
    branch: &str,
    (old, new, how): (ObjectId, ObjectId, Move<'_>),
    message: &str,
    outcome: Result<Advance>,
) -> Result<Advance> {
    let stuck = |since: &str| {
        Error::PartWay(format!(
            "{branch} was moved from {old} to {new}, its checkout could not follow ({}), \
             and {since}: {branch} is left where it is; once the checkout is clean, \
             `git read-tree -m -u {old} {new}` in it finishes the {}",
            why(&outcome),
            how.word()
        ))
    };
    let undone = safety::undo_advance(repo.gix(), branch, (old, new), how.kept(), message);
    let Some(permit) = undone else {
        return Err(stuck(&format!("{branch} has moved since")));
    };
    let back = format!("{message} (undone: the checkout could not follow)");
    if let Err(e) = safety::exec::rewind_branch(repo, branch, new, old, &back, &permit) {
        return Err(stuck(&format!("moving it back failed ({e})")));
    }
    outcome.map_err(|e| {
        Error::PartWay(format!(
            "{e}; {branch} was moved back to {old}: nothing changed"
        ))
    })
}

/// What stopped a checkout, in words (for an error that cannot be an
/// outcome).
fn why(outcome: &Result<Advance>) -> String {
    match outcome {
        Ok(Advance::TargetDirty { checkout, paths }) => format!(
            "local changes in {} at {}",
            paths.join(", "),
            checkout.display()
        ),
        Ok(Advance::TargetIgnored { checkout, paths }) => format!(
            "untracked files in the way: {} at {}",
            paths.join(", "),
            checkout.display()
        ),
        Ok(Advance::TargetBusy {
            checkout,
            operation,
        }) => format!("{operation} at {}", checkout.display()),
        Ok(Advance::TargetMoved { now }) => match now {
            Some(now) => format!("the target moved to {now}"),
            None => "the target was deleted".to_owned(),
        },
        Ok(Advance::Moved { .. }) => "nothing".to_owned(),
        Err(e) => e.to_string(),
    }
}
