//! The rebase strategy: the run's non-merge commits replayed one by one
//! onto the target's tip (the module doc of [`super`] says how).

use std::collections::HashMap;

use gix::ObjectId;
use gix::bstr::{BString, ByteSlice};

use super::commit::{committer, write_commit};
use super::{Build, Built, RunCommit, conflict, repo_err, tree_of};
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
        let new_tree = if tree == parent_tree {
            tip_tree // empty to begin with: kept, as git rebase keeps it
        } else if parent_tree == tip_tree {
            tree
        } else {
            let merged = merger.merge_trees(parent_tree, tip_tree, tree)?;
            if !merged.is_clean() {
                return Ok(conflict(merged.conflicts));
            }
            if merged.tree == tip_tree {
                continue; // its change is already in the target: dropped
            }
            merged.tree
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
