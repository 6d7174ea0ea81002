//! Is a run's work in its base? Answered in memory with gix: no worktree,
//! index or ref is touched, and no object is written (tree merges go to
//! object memory, see [`super::merge`]).
//!
//! **Branches are deleted only on the strongest proof.** [`Verdict::Merged`]
//! is that proof and nothing weaker; it is the only verdict a deletion path
//! accepts. Patch ids are evidence, not proof: alone they make
//! [`Verdict::Probable`], which the reports show and nothing deletes on.
//!
//! A branch with no commits of its own is [`Verdict::Empty`], never merged:
//! its tip is (an ancestor of) the commit it was created at, read from the
//! branch's reflog creation line (`branch: Created from …`). When that line
//! is gone (reflogs off or expired), a tip contained in the base cannot be
//! told apart from an empty branch, and is reported `Empty` — never claimed
//! merged without proof.
//!
//! Otherwise `Merged` takes one of two proofs:
//! 1. `ancestor`: the tip is an ancestor of the base (a plain merge or a
//!    fast-forward): every commit of the branch is in the base's history.
//! 2. **Merging the branch changes nothing**: a tree-level merge of the
//!    branch's whole change into the base is clean and gives the base's own
//!    tree, git's built-in text merge deciding every path either side
//!    changed (no merge driver, `union`, `binary`, `merge.default` or
//!    `merge.renormalize`: a driver that keeps the base's side "merges to
//!    nothing" unmerged work). And the branch changes something: its tree
//!    is not its merge base's. A branch whose net change is empty but which
//!    has commits (a file added then removed, empty commits carrying
//!    messages) merges to nothing because it brings nothing, which proves
//!    nothing about its commits: it is not merged, and keeps its branch.
//!    This proof is labelled `rebase` when the patch ids below also match
//!    (the label says how the work most likely got there), `squash`
//!    otherwise.
//!
//! The patch-id evidence: every commit of `merge_base..tip` that changes
//! something has a [patch id](super::patch_id) equal to one of
//! `merge_base..base`'s, and no merge commit among them changes its first
//! parent's tree (a merge's change has no patch id, so nothing would vouch
//! for what it brings in — a file added in a conflict resolution, say).
//! When that holds but the proof above fails, the verdict is
//! `Probable(rebase)`. Patch ids match on a change and one line of context
//! each side, not on where it is: the same one-line edit made in another
//! copy of identical lines has the same id, and the branch's own edit is
//! then not in the base at all — why they never delete on their own.
//!
//! A squash-merged branch that got one more commit after the squash is not
//! merged: that commit's change is neither in the base's tree nor in its
//! history. A branch that merged its base after being squash-merged (so
//! its tree is its new merge base's) is kept too: a branch wrongly kept
//! costs a `git branch -D`, one wrongly deleted costs work. Cost per run:
//! a merge base, a walk of each side since it ([`Walks`], shared by the
//! command), one in-memory tree merge (over git's virtual base when several).

use std::collections::HashSet;

use gix::ObjectId;
use serde::Serialize;

use super::merge::Merger;
use super::patch_id::PatchIds;
use super::repo::Walks;
use crate::error::{Error, Result};

fn repo_err(e: impl std::fmt::Display) -> Error {
    Error::Repository(e.to_string())
}

/// How a run's work reached its base.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum MergedBy {
    Ancestor,
    Squash,
    Rebase,
}

impl MergedBy {
    pub fn as_str(self) -> &'static str {
        match self {
            MergedBy::Ancestor => "ancestor",
            MergedBy::Squash => "squash",
            MergedBy::Rebase => "rebase",
        }
    }
}

impl std::fmt::Display for MergedBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// No commits of its own.
    Empty,
    /// Proven: the tip is in the base's history, or merging the branch's
    /// whole change changes nothing (see the module docs). The only verdict
    /// that may delete a branch.
    Merged(MergedBy),
    /// Evidence, not proof: patch ids say the work was rebase-merged, but
    /// merging the branch would still change the base. Reported, never
    /// deleted on, never marked `merged`.
    Probable(MergedBy),
    NotMerged,
}

impl Verdict {
    /// The proof, when proven merged.
    pub fn merged_by(self) -> Option<MergedBy> {
        match self {
            Verdict::Merged(by) => Some(by),
            _ => None,
        }
    }

    /// What the evidence says, when probably merged and not proven.
    pub fn probably_merged_by(self) -> Option<MergedBy> {
        match self {
            Verdict::Probable(by) => Some(by),
            _ => None,
        }
    }
}

/// The commit `refs/heads/<branch>` was created at, from its reflog's
/// first line when that line records the creation (old id null).
pub fn branch_start(repo: &gix::Repository, branch: &str) -> Option<ObjectId> {
    // A reftable's reflog, read through git, has no old id for its oldest
    // line (see `git::refs`'s `LogLine::old`): it cannot say, so it is not
    // read (a process per run in `list --long`).
    if crate::git::refs::reftable(repo) {
        return None;
    }
    let name = format!("refs/heads/{branch}");
    let first = crate::git::refs::reflog(repo, &name).pop()?;
    first
        .old?
        .is_null()
        .then_some(first.new)
        .filter(|id| !id.is_null())
}

/// Whether the revision `base` is read through `refs/heads/<branch>`
/// (`loop/x`, `loop/x~0`, or a symbolic ref to it): a branch is never
/// proven merged into itself, and deleting it would take its work and the
/// base with it.
pub fn base_reads_branch(repo: &gix::Repository, base: &str, branch: &str) -> bool {
    let full = format!("refs/heads/{branch}");
    crate::git::refs::spec_refs(repo, base)
        .iter()
        .any(|first| crate::git::refs::chain(repo, first).contains(&full))
}

/// Detects merged runs; holds the caches one command shares across runs
/// (patch ids of base commits, the merge options, the history walks).
pub struct Detector<'r> {
    repo: &'r gix::Repository,
    merger: Merger,
    patch_ids: PatchIds<'r>,
    walks: Walks,
}

impl<'r> Detector<'r> {
    pub fn new(repo: &'r gix::Repository) -> Result<Detector<'r>> {
        Ok(Detector {
            repo,
            merger: Merger::new(repo)?,
            patch_ids: PatchIds::new(repo),
            walks: Walks::new(repo),
        })
    }

    /// Walk with `walks` (the command's, `Repo::walks`).
    pub fn sharing(mut self, walks: &Walks) -> Detector<'r> {
        self.walks = walks.clone();
        self
    }

    fn is_ancestor(&self, a: ObjectId, b: ObjectId) -> Result<bool> {
        self.walks.is_ancestor(a, b)
    }

    /// Is the work of the branch at `tip` (created at `start`, if known) in
    /// the commit `base`?
    pub fn check(
        &mut self,
        tip: ObjectId,
        base: ObjectId,
        start: Option<ObjectId>,
    ) -> Result<Verdict> {
        let in_base = self.is_ancestor(tip, base)?;
        let empty = match start {
            Some(start) => self.is_ancestor(tip, start)?,
            None => in_base,
        };
        if empty {
            return Ok(Verdict::Empty);
        }
        if in_base {
            return Ok(Verdict::Merged(MergedBy::Ancestor));
        }
        let Some(merge_base) = self.walks.merge_base(tip, base)? else {
            return Ok(Verdict::NotMerged);
        };
        // Patch ids name the proof, or are the evidence when it fails.
        let rebased = self.rebased(tip, base, merge_base)?;
        Ok(
            match (self.merges_to_nothing(tip, base, merge_base)?, rebased) {
                (true, true) => Verdict::Merged(MergedBy::Rebase),
                (true, false) => Verdict::Merged(MergedBy::Squash),
                (false, true) => Verdict::Probable(MergedBy::Rebase),
                (false, false) => Verdict::NotMerged,
            },
        )
    }

    fn tree_of(&self, commit: ObjectId) -> Result<ObjectId> {
        Ok(self
            .repo
            .find_commit(commit)
            .map_err(repo_err)?
            .tree_id()
            .map_err(repo_err)?
            .detach())
    }

    /// The proof that deletes, short of ancestry: the branch changes
    /// something (its tree is not the merge base's), and merging it into
    /// `base` is clean and gives `base`'s own tree, with git's text merge
    /// deciding every changed path.
    fn merges_to_nothing(
        &self,
        tip: ObjectId,
        base: ObjectId,
        merge_base: ObjectId,
    ) -> Result<bool> {
        let tip_tree = self.tree_of(tip)?;
        if tip_tree == self.tree_of(merge_base)? {
            return Ok(false);
        }
        // `merge_commits`'s merge, over the one merge base already found.
        let merged = match self.walks.merge_bases(tip, base)?[..] {
            [single] => self.merger.merge_trees(single, base, tip)?,
            _ => self.merger.merge_commits(base, tip)?,
        };
        if !merged.is_clean() || merged.tree != self.tree_of(base)? {
            return Ok(false);
        }
        // Several merge bases: the merge measured "nothing" from a virtual
        // one (in the merger's memory); the branch must change that too.
        if let Some(virtual_base) = merged.merge_base.filter(|b| *b != merge_base) {
            let virtual_tree = self
                .merger
                .repo()
                .find_commit(virtual_base)
                .ok()
                .and_then(|c| c.tree_id().ok())
                .map(gix::Id::detach);
            if virtual_tree.is_none_or(|t| t == tip_tree) {
                return Ok(false);
            }
        }
        self.text_merge_only(merge_base, tip, base)
    }

    /// Whether git's built-in text merge decided every path either side
    /// changed since `merge_base`: no `merge` attribute naming another driver
    /// (a custom driver, `union`, `binary`), no `merge.default`, no
    /// `merge.renormalize`. Otherwise a merge that changes nothing is no
    /// proof: a driver that keeps the base's side drops the branch's change.
    fn text_merge_only(&self, merge_base: ObjectId, tip: ObjectId, base: ObjectId) -> Result<bool> {
        let config = self.repo.config_snapshot();
        if config.string("merge.default").is_some()
            || config.boolean("merge.renormalize") == Some(true)
        {
            return Ok(false);
        }
        let tree = |id| self.repo.find_tree(self.tree_of(id)?).map_err(repo_err);
        let old = tree(merge_base)?;
        let mut paths = Vec::new();
        for side in [tip, base] {
            let new = tree(side)?;
            let changes = self
                .repo
                .diff_tree_to_tree(Some(&old), Some(&new), gix::diff::Options::default())
                .map_err(repo_err)?;
            paths.extend(changes.iter().map(|c| c.location().to_owned()));
        }
        // The attributes the merge itself reads (the index's, then HEAD's).
        let index = self
            .repo
            .index_or_load_from_head_or_empty()
            .map_err(repo_err)?;
        let mut attrs = self
            .repo
            .attributes_only(
                &index,
                gix::worktree::stack::state::attributes::Source::IdMapping,
            )
            .map_err(repo_err)?;
        let mut outcome = attrs.selected_attribute_matches(["merge"]);
        for path in &paths {
            let platform = attrs
                .at_entry(path.as_ref() as &gix::bstr::BStr, None)
                .map_err(repo_err)?;
            platform.matching_attributes(&mut outcome);
            let text = outcome.iter_selected().all(|m| {
                matches!(
                    m.assignment.state,
                    gix::attrs::StateRef::Unspecified | gix::attrs::StateRef::Set
                )
            });
            if !text {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether the commit changes its first parent's tree (a root commit:
    /// whether its tree is not empty).
    fn changes_first_parent(&self, commit: ObjectId) -> Result<bool> {
        let c = self.repo.find_commit(commit).map_err(repo_err)?;
        let parent = match c.parent_ids().next() {
            Some(p) => self.tree_of(p.detach())?,
            None => ObjectId::empty_tree(self.repo.object_hash()),
        };
        Ok(c.tree_id().map_err(repo_err)?.detach() != parent)
    }

    /// The patch-id evidence (see the module docs): every commit of
    /// `merge_base..tip` that changes something has a patch-id twin in
    /// `merge_base..base` (and there is at least one), and no merge commit
    /// of the branch brings in changes of its own.
    fn rebased(&mut self, tip: ObjectId, base: ObjectId, merge_base: ObjectId) -> Result<bool> {
        let mut ours = Vec::new();
        let mut our_keys = HashSet::new();
        for c in self.walks.only(tip, merge_base)? {
            match self.patch_ids.key(c)? {
                Some(key) => {
                    our_keys.insert(key);
                    ours.push(c);
                }
                // A merge, or an empty commit: no patch. A merge that
                // changes its first parent's tree brings in changes no
                // patch id vouches for.
                None if self.changes_first_parent(c)? => return Ok(false),
                None => {}
            }
        }
        if our_keys.is_empty() {
            return Ok(false);
        }
        // The base side can be long: only commits touching the same paths
        // as one of ours get a blob-level patch id.
        let mut theirs = HashSet::new();
        for c in self.walks.only(base, merge_base)? {
            if self
                .patch_ids
                .key(c)?
                .is_some_and(|k| our_keys.contains(&k))
                && let Some(id) = self.patch_ids.of(c)?
            {
                theirs.insert(id);
            }
        }
        for c in &ours {
            if let Some(id) = self.patch_ids.of(*c)?
                && !theirs.contains(&id)
            {
                return Ok(false);
            }
        }
        Ok(true)
    }
}
