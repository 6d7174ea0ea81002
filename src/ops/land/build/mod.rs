//! The landed commit(s) of one run, built in memory.
//!
//! Nothing here touches a worktree, an index, a ref or the object database:
//! every object a build makes (merged blobs and trees, the new commits) goes
//! to the [`Merger`]'s object memory, where the next build (a queue builds
//! run 2 on run 1's tip with the same merger), the gate's checkout and the
//! ref update find it only after [`persist`] has written it. A dry run never
//! persists, so it leaves no trace. A conflicting build leaves its objects in
//! memory only: they are never written.
//!
//! What lands is the run's commits `onto..run_tip` (the commits reachable
//! from the run's tip and not from the target's tip), never a worktree:
//! - **rebase** replays the run's non-merge commits, parents before
//!   children (first parent's line first), as `git rebase` does without
//!   `--rebase-merges`. Each pick is a three-way tree merge (ancestor: the
//!   commit's parent's tree, ours: the tree built so far, theirs: the
//!   commit's tree), written as a new commit whose author line (name, email,
//!   date), encoding and message are the original's, byte for byte, and
//!   whose committer is the repository's committer identity, now (gix reads
//!   `GIT_COMMITTER_NAME`/`EMAIL`/`DATE` as git does). Other headers (a
//!   signature, which would no longer be valid) are not carried over, as git
//!   carries none. Like `git rebase`:
//!   - a pick whose parent is the tip built so far is not rewritten: the
//!     commit itself is kept (so a run whose base did not move lands as its
//!     own commits, and its branch tip is then in the target);
//!   - a pick whose change is already in the target (the tree is unchanged
//!     after the merge) is dropped; a commit that was empty to begin with
//!     (`--allow-empty`) is kept;
//!   - a run with merge commits lands only when the replay carries all
//!     they bring: when the replayed tree is the tree of merging the run's
//!     tip into the target (what `merge` and `squash` would land). Else —
//!     a merge that adds or resolves content of its own (an "evil" merge,
//!     a conflict resolved in it), which a replay of the other commits
//!     drops — [`Build::HasMerges`]: never "landed" while content stays
//!     behind. A run that merged its base to catch up replays cleanly;
//!   - a conflict in any pick refuses the whole landing with that pick's
//!     paths. git would also drop, before picking, a commit whose patch id
//!     matches one in the target; a patch id is evidence, not proof
//!     (see [`crate::git::patch_id`]), so a pick that conflicts is never
//!     dropped on that ground: the landing is refused instead.
//! - **squash** makes one commit on the target's tip whose tree is the
//!   merge of the run's tip into it (as `git merge --squash`, over the merge
//!   base(s)); its message is `-m`, else the run's commits' subjects,
//!   oldest first, each its own paragraph (one commit: its subject). Its author and
//!   committer are both the repository's committer identity, now: the
//!   squash is a new commit by whoever lands it (the run's authors stay in
//!   the run's own commits, whose tip the landing keeps).
//! - **merge** makes a merge commit (parents: the target's tip, the run's
//!   tip; message `-m`, else `Merge branch 'loop/<id>' into <into>`), author
//!   and committer as for squash, even when the target's tip is an ancestor
//!   of the run's (`--no-ff`).
//! - **ff** builds nothing: when the target's tip is an ancestor of the
//!   run's, the run's tip itself is the landing.
//! - **merge-into** (`git loop sync --strategy merge`, which moves the
//!   run's branch, not the target) makes the merge commit the other way
//!   round: parents the run's tip, then the target's (here the run's
//!   base); message `Merge <base> into loop/<id>`; author and committer as
//!   for merge.
//!
//! A run with no commits of its own over the target (its tip is in the
//! target), or whose every pick dropped, or whose squash changes nothing, is
//! [`Build::Empty`]. Unrelated histories (no merge base) are an error naming
//! both commits, as `git merge-tree` refuses them.
//!
//! Cost: one [`Merger`] (the merge options read once) per command; per
//! build, one revision walk of the run's commits and one read of the
//! committer identity; per pick, one commit read and one tree merge, whose
//! diffs skip the subtrees both sides share (no walk of the whole tree).
//! A pick whose parent's tree is the tree built so far needs no merge.

use std::collections::{HashMap, HashSet};

use gix::ObjectId;
use gix::bstr::{BString, ByteSlice};

use crate::error::{Error, Result};
use crate::git::merge::Merger;

mod commit;
mod one_commit;
mod persist;
mod rebase;

/// How a run's commits land (`--strategy`, `land.strategy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Strategy {
    /// The run's commits replayed onto the target's tip, authors and
    /// messages kept (the default).
    #[default]
    Rebase,
    /// One commit with the run's whole change.
    Squash,
    /// A merge commit of the target's tip and the run's tip.
    Merge,
    /// Only when the target's tip is an ancestor of the run's tip: the
    /// target moves to the run's tip itself.
    Ff,
    /// `git loop sync --strategy merge`: a merge commit of the target's tip
    /// into the run's branch, for the run's branch (parents: the run's tip,
    /// then the target's; message `-m`, else `Merge <into> into loop/<id>`).
    MergeInto,
}

/// What to build.
#[derive(Debug, Clone)]
pub struct BuildRequest<'a> {
    /// The target's tip the landing is built on.
    pub onto: ObjectId,
    /// The run's branch tip (its committed work).
    pub run_tip: ObjectId,
    pub strategy: Strategy,
    /// `-m`: the message of a squash or merge commit.
    pub message: Option<&'a str>,
    /// For default messages: the run's id and the target branch's name.
    pub run_id: &'a str,
    pub into: &'a str,
}

/// A landing that built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Built {
    /// The commit the target would move to.
    pub tip: ObjectId,
    /// How many commits the landing adds on top of `onto`: the picks kept
    /// (rebase), 1 (squash), the run's commits and the merge commit
    /// (merge), the run's commits (ff).
    pub commits: usize,
}

/// The outcome of [`build`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Build {
    Built(Built),
    /// A commit (or the whole change) does not apply: the conflicting paths.
    Conflict {
        paths: Vec<String>,
    },
    /// `ff` asked, and the target's tip is not an ancestor of the run's tip.
    NotFastForward,
    /// `rebase` asked, and the run has merge commits whose content the
    /// replay (of the non-merge commits only) would not carry: these.
    HasMerges {
        merges: Vec<ObjectId>,
    },
    /// The run has no commits of its own over the target (or all of them are
    /// already in it).
    Empty,
}

fn repo_err(e: impl std::fmt::Display) -> Error {
    Error::Repository(e.to_string())
}

/// Build the landing of `req` with `merger` (its objects stay in the
/// merger's memory).
pub fn build(merger: &Merger, req: &BuildRequest<'_>) -> Result<Build> {
    let commits = ahead(merger, req.onto, req.run_tip)?;
    if commits.is_empty() {
        return Ok(Build::Empty);
    }
    match req.strategy {
        Strategy::Rebase => {
            let built = rebase::rebase(merger, req.onto, &commits)?;
            rebase::carries_merges(merger, req, &commits, built)
        }
        Strategy::Squash => one_commit::squash(merger, req, &commits),
        Strategy::Merge => one_commit::merge(merger, req, &commits),
        Strategy::MergeInto => one_commit::merge_into(merger, req, &commits),
        Strategy::Ff => {
            if merger.merge_base(req.onto, req.run_tip)? == Some(req.onto) {
                Ok(Build::Built(Built {
                    tip: req.run_tip,
                    commits: commits.len(),
                }))
            } else {
                Ok(Build::NotFastForward)
            }
        }
    }
}

/// One of the run's commits: its id and its parents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunCommit {
    pub id: ObjectId,
    pub parents: Vec<ObjectId>,
}

/// The run's own commits over the target, `onto..run_tip`, merges included,
/// parents before children (the first parent's line first): the order the
/// rebase replays them in. Empty when `run_tip` is in `onto`'s history.
/// Reads through the merger, so `onto` may be a tip built in its memory.
pub fn ahead(merger: &Merger, onto: ObjectId, run_tip: ObjectId) -> Result<Vec<RunCommit>> {
    if onto == run_tip {
        return Ok(Vec::new());
    }
    let walk = merger
        .repo()
        .rev_walk([run_tip])
        .with_hidden([onto])
        .all()
        .map_err(|e| repo_err(format!("could not walk {onto}..{run_tip}: {e}")))?;
    let mut parents: HashMap<ObjectId, Vec<ObjectId>> = HashMap::new();
    for info in walk {
        let info = info.map_err(|e| repo_err(format!("could not walk {onto}..{run_tip}: {e}")))?;
        if info.parent_ids.is_empty() {
            return Err(repo_err(format!(
                "{run_tip} and {onto} have unrelated histories: {} is a root commit not in {onto}",
                info.id
            )));
        }
        parents.insert(info.id, info.parent_ids.iter().copied().collect());
    }
    if parents.is_empty() {
        return Ok(Vec::new());
    }
    // Post-order depth-first walk from the tip, first parents first: a
    // commit comes after all of its parents that are in the run.
    let mut out = Vec::with_capacity(parents.len());
    let mut seen = HashSet::from([run_tip]);
    let mut stack = vec![(run_tip, 0usize)];
    while let Some((id, next)) = stack.last_mut() {
        let own = &parents[id];
        let unvisited = own[*next..]
            .iter()
            .position(|p| parents.contains_key(p) && !seen.contains(p));
        match unvisited {
            Some(offset) => {
                let parent = own[*next + offset];
                *next += offset + 1;
                seen.insert(parent);
                stack.push((parent, 0));
            }
            None => {
                let id = *id;
                stack.pop();
                out.push(RunCommit {
                    parents: parents[&id].clone(),
                    id,
                });
            }
        }
    }
    Ok(out)
}

/// The tree of `commit`, read through the merger (memory first).
fn tree_of(merger: &Merger, commit: ObjectId) -> Result<ObjectId> {
    Ok(merger
        .repo()
        .find_commit(commit)
        .map_err(|e| repo_err(format!("could not read commit {commit}: {e}")))?
        .tree_id()
        .map_err(|e| repo_err(format!("could not read the tree of {commit}: {e}")))?
        .detach())
}

fn conflict(paths: Vec<BString>) -> Build {
    Build::Conflict {
        paths: paths
            .iter()
            .map(|p| p.to_str_lossy().into_owned())
            .collect(),
    }
}

/// Write the objects `built` needs (its commits, trees, blobs) from the
/// merger's memory to the object database, each after what it points to
/// (the module `persist.rs` says how).
pub fn persist(merger: &Merger, built: &Built) -> Result<()> {
    persist::write(merger, built.tip)
}

#[cfg(test)]
mod tests;
