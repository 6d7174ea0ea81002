//! The rebase strategy: the run's non-merge commits replayed one by one
//! onto the target's tip, and a run with merges landed only when that
//! replay carries them (the module doc of [`super`] says how).

use std::collections::HashMap;

use gix::ObjectId;
use gix::bstr::{BString, ByteSlice};

use super::commit::{committer, write_commit};
use super::{Build, BuildRequest, Built, RunCommit, conflict, repo_err, tree_of};
use crate::error::Result;
use crate::git::merge::Merger;

pub(super) fn rebase(merger: &Merger, onto: ObjectId, commits: &[RunCommit]) -> Result<Build> {
    // Read when the first new commit is written: a rebase that keeps the
    // run's own commits needs no identity.
    let mut committer_line: Option<BString> = None;
    let mut tip = onto;
    let mut tip_tree = tree_of(merger, onto)?;
    let mut added = 0;
    // The trees of the run's commits, read once each (a pick's parent is
    // usually the previous pick).
    let mut trees: HashMap<ObjectId, ObjectId> = HashMap::new();
    for c in commits.iter().filter(|c| c.parents.len() == 1) {
        let parent = c.parents[0];
        let commit = merger
            .repo()
            .find_commit(c.id)
            .map_err(|e| repo_err(format!("could not read commit {}: {e}", c.id)))?;
        let decoded = commit
            .decode()
            .map_err(|e| repo_err(format!("could not decode commit {}: {e}", c.id)))?;
        let tree = decoded.tree();
        trees.insert(c.id, tree);
        if parent == tip {
            // git rebase's fast-forward: the commit already sits on the tip.
            tip = c.id;
            tip_tree = tree;
            added += 1;
            continue;
        }
        let parent_tree = match trees.get(&parent) {
            Some(t) => *t,
            None => tree_of(merger, parent)?,
        };
        let new_tree = match pick(merger, parent_tree, tip_tree, tree)? {
            Pick::Tree(t) => t,
            Pick::Dropped => continue,
            Pick::Conflict(paths) => return Ok(conflict(paths)),
        };
        let committer = match &committer_line {
            Some(line) => line,
            None => committer_line.insert(committer(merger)?),
        };
        tip = write_commit(
            merger,
            new_tree,
            &[tip],
            decoded.author,
            committer.as_bstr(),
            decoded.encoding,
            decoded.message,
        )?;
        tip_tree = new_tree;
        added += 1;
    }
    if added == 0 {
        return Ok(Build::Empty);
    }
    Ok(Build::Built(Built {
        tip,
        commits: added,
    }))
}

/// What one pick makes of the tree built so far.
enum Pick {
    Tree(ObjectId),
    /// Its change is already in the target: dropped, as git rebase drops it.
    Dropped,
    Conflict(Vec<BString>),
}

/// The change `parent_tree -> tree` applied to `tip_tree`.
fn pick(
    merger: &Merger,
    parent_tree: ObjectId,
    tip_tree: ObjectId,
    tree: ObjectId,
) -> Result<Pick> {
    if tree == parent_tree {
        // Empty to begin with (`--allow-empty`): kept, as git rebase keeps it.
        return Ok(Pick::Tree(tip_tree));
    }
    if parent_tree == tip_tree {
        return Ok(Pick::Tree(tree)); // nothing to merge
    }
    let merged = merger.merge_trees(parent_tree, tip_tree, tree)?;
    Ok(if !merged.is_clean() {
        Pick::Conflict(merged.conflicts)
    } else if merged.tree == tip_tree {
        Pick::Dropped
    } else {
        Pick::Tree(merged.tree)
    })
}

/// The rebase of a run with merge commits stands only when it carries all
/// they bring: its tree (the target's own, when every pick dropped) is the
/// tree of merging the run's tip into the target. Otherwise
/// [`Build::HasMerges`]. A run without merges, or a build that did not
/// build (a conflict), is returned as it is.
pub(super) fn carries_merges(
    merger: &Merger,
    req: &BuildRequest<'_>,
    commits: &[RunCommit],
    built: Build,
) -> Result<Build> {
    let merges: Vec<ObjectId> = commits
        .iter()
        .filter(|c| c.parents.len() > 1)
        .map(|c| c.id)
        .collect();
    let replayed = match &built {
        _ if merges.is_empty() => return Ok(built),
        Build::Built(b) => tree_of(merger, b.tip)?,
        Build::Empty => tree_of(merger, req.onto)?,
        Build::Conflict { .. } | Build::NotFastForward | Build::HasMerges { .. } => {
            return Ok(built);
        }
    };
    let whole = merger.merge_commits(req.onto, req.run_tip)?;
    Ok(if whole.is_clean() && whole.tree == replayed {
        built
    } else {
        Build::HasMerges { merges }
    })
}
