//! Three-way merges computed in memory with gix, as `git merge-tree
//! --write-tree` computes them.
//!
//! Invariants:
//! - Nothing here touches a worktree, an index or a ref. Objects a merge
//!   produces (merged blobs, merged trees, virtual merge-base commits) go to
//!   an in-memory object store layered over the repository's ([`Merger`]
//!   holds a clone of the repository with object memory enabled), so the
//!   object database is not written either: the merge leaves no trace.
//! - Merges diff as git's merges do: `histogram` unless `diff.algorithm`
//!   is set ([`merge_options`]), and ambiguous hunks slid as far down as
//!   they go, without `git diff`'s indent heuristic (gix-merge is patched
//!   for that: vendor/README.md). Either difference alone makes conflicts
//!   git does not have.
//! - Merge options are read from the repository's configuration once
//!   (`merge.renames`, `diff.algorithm`, `merge.conflictStyle`…), like git,
//!   and what every merge needs besides (the attribute stacks of the diff
//!   and the blob merge, from the index; the commit graph) is built once per
//!   [`Merger`], at its first merge: gix's `Repository::merge_trees` would
//!   rebuild it for each merge, and a rebase merges once per commit.
//! - Merged trees are written without gix's path validation
//!   (`core.protectNTFS`…): a merge only ever combines entries of the
//!   trees it is given, all of them already in the repository.
//! - A conflict is what git would call one ([`TreatAsUnresolved::git`]): a
//!   content conflict with markers, or a tree conflict git leaves unresolved
//!   (modify/delete, rename/rename…). Each is reported by the path(s) of both
//!   sides.
//! - Unrelated histories (no merge base) are refused, as `git merge-tree`
//!   refuses them: [`merge_base`] says whether there is one.
//!
//! [`TreatAsUnresolved::git`]: gix::merge::tree::TreatAsUnresolved::git

mod paths;

pub use paths::Changes;

use std::cell::RefCell;

use gix::ObjectId;
use gix::bstr::BString;

use crate::error::{Error, Result};

/// The outcome of one three-way merge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeResult {
    /// The merged tree (with conflict markers in conflicting files, as git
    /// writes them). It lives in the [`Merger`]'s memory only.
    pub tree: ObjectId,
    /// Paths with an unresolved conflict, sorted and without duplicates;
    /// empty when the merge is clean.
    pub conflicts: Vec<BString>,
    /// The merge base used: the single best common ancestor, or a virtual
    /// one when there were several. `None` for [`merge_trees`].
    pub merge_base: Option<ObjectId>,
}

impl MergeResult {
    pub fn is_clean(&self) -> bool {
        self.conflicts.is_empty()
    }
}

/// A commit graph that merge-base walks share ([`Merger::walk`]).
pub type Walk<'a> = gix::revwalk::Graph<
    'a,
    'a,
    gix::revwalk::graph::Commit<gix::revision::plumbing::merge_base::Flags>,
>;

fn repo_err(e: impl std::fmt::Display) -> Error {
    Error::Repository(e.to_string())
}

/// Object-cache size for merges: enough for the trees and blobs of a
/// medium-sized repository, so a tree read twice is decoded once.
const OBJECT_CACHE_BYTES: usize = 16 * 1024 * 1024;

/// Reusable merge state: an in-memory-writing clone of the repository and
/// the merge options read from its configuration. Build one per command
/// and merge many times with it (reading options costs more than a small
/// merge).
pub struct Merger {
    repo: gix::Repository,
    options: gix::merge::tree::Options,
    /// What every merge needs and gix would otherwise build per merge:
    /// the attribute stacks for the diff and the blob merge (each read from
    /// the index, `O(files)`), and the commit graph. Made at the first merge
    /// (a merger that only finds merge bases never reads the index).
    caches: RefCell<Option<Caches>>,
    /// The repository's commit-graph file, when it has one and it is
    /// enabled: read once, at the first merge or merge-base query.
    commit_graph: std::cell::OnceCell<Option<gix::commitgraph::Graph>>,
}

struct Caches {
    diff: gix::diff::blob::Platform,
    blob_merge: gix::merge::blob::Platform,
}

impl Merger {
    pub fn new(repo: &gix::Repository) -> Result<Merger> {
        let mut repo = repo.clone().with_object_memory();
        repo.object_cache_size_if_unset(OBJECT_CACHE_BYTES);
        let options = merge_options(&repo)?;
        Ok(Merger {
            repo,
            options,
            caches: RefCell::new(None),
            commit_graph: Default::default(),
        })
    }

    /// The commit-graph, read at the first call.
    fn commit_graph(&self) -> Result<Option<&gix::commitgraph::Graph>> {
        if self.commit_graph.get().is_none() {
            let graph = self.repo.commit_graph_if_enabled().map_err(repo_err)?;
            let _ = self.commit_graph.set(graph);
        }
        Ok(self.commit_graph.get().and_then(Option::as_ref))
    }

    /// Run `merge` with the caches, made on first use; the diff's resource
    /// cache is emptied afterwards (it holds the last merge's blobs).
    fn with_caches<T>(&self, merge: impl FnOnce(&mut Caches) -> Result<T>) -> Result<T> {
        let mut slot = self.caches.borrow_mut();
        let caches = match slot.as_mut() {
            Some(c) => c,
            None => slot.insert(Caches {
                diff: self
                    .repo
                    .diff_resource_cache_for_tree_diff()
                    .map_err(repo_err)?,
                blob_merge: self
                    .repo
                    .merge_resource_cache(Default::default())
                    .map_err(repo_err)?,
            }),
        };
        let out = merge(caches);
        caches.diff.clear_resource_cache_keep_allocation();
        out
    }

    /// The in-memory repository: read merged trees, blobs and virtual merge
    /// bases through it.
    pub fn repo(&self) -> &gix::Repository {
        &self.repo
    }

    /// What changes from tree-ish `old` to tree-ish `new`, read through
    /// the in-memory repository (so `new` may be a merged tree).
    pub fn changes(&self, old: ObjectId, new: ObjectId) -> Result<Changes> {
        Changes::between(&self.repo, old, new)
    }

    /// The best common ancestor of commits `a` and `b` (`None`: unrelated).
    pub fn merge_base(&self, a: ObjectId, b: ObjectId) -> Result<Option<ObjectId>> {
        Ok(self.merge_bases(a, b)?.first().copied())
    }

    /// Every best common ancestor of commits `a` and `b`, as `git
    /// merge-base --all a b` prints them (empty: unrelated). More than one
    /// (a criss-cross history) and a merge goes over a virtual base made by
    /// merging them, as git's does: see [`Merger::merge_commits`].
    pub fn merge_bases(&self, a: ObjectId, b: ObjectId) -> Result<Vec<ObjectId>> {
        self.merge_bases_in(&mut self.walk()?, a, b)
    }

    /// A commit graph for merge-base walks, to share between them: each
    /// walk parses the commits it visits, and the graph keeps them, so
    /// the next walk over the same history reads none again. On a large
    /// history without a commit-graph file, where one walk visits
    /// thousands of commits, that is most of a walk's cost.
    pub fn walk(&self) -> Result<Walk<'_>> {
        Ok(self.repo.revision_graph(self.commit_graph()?))
    }

    /// [`Merger::merge_bases`] through a shared `walk`.
    pub fn merge_bases_in(
        &self,
        walk: &mut Walk<'_>,
        a: ObjectId,
        b: ObjectId,
    ) -> Result<Vec<ObjectId>> {
        if a == b {
            return Ok(vec![a]);
        }
        Ok(self
            .repo
            .merge_bases_many_with_graph(a, &[b], walk)
            .map_err(|e| {
                repo_err(format!(
                    "could not find the merge bases of {a} and {b}: {e}"
                ))
            })?
            .into_iter()
            .map(gix::Id::detach)
            .collect())
    }

    /// A commit of `tree` with `parents`, written to the merger's memory
    /// only (as a landing by merge would make it): later merges and merge
    /// bases can start from it.
    ///
    /// Its date is its newest parent's, as a commit made now would be no
    /// older: a merge-base walk visits commits newest first, and a commit
    /// dated 1970 would be visited last, after the other side's whole
    /// history.
    pub fn commit_in_memory(&self, tree: ObjectId, parents: &[ObjectId]) -> Result<ObjectId> {
        let mut newest = 0;
        for parent in parents {
            let commit = self.repo.find_commit(*parent).map_err(repo_err)?;
            newest = newest.max(commit.time().map_err(repo_err)?.seconds);
        }
        let who = gix::actor::Signature {
            name: "git-loop".into(),
            email: "git-loop@localhost".into(),
            time: gix::date::Time::new(newest, 0),
        };
        let commit = gix::objs::Commit {
            tree,
            parents: parents.iter().copied().collect(),
            author: who.clone(),
            committer: who,
            encoding: None,
            message: "in-memory landing\n".into(),
            extra_headers: Vec::new(),
        };
        Ok(self.repo.write_object(&commit).map_err(repo_err)?.detach())
    }

    /// Merge commit `theirs` into commit `ours` over their merge base(s),
    /// as `git merge-tree --write-tree ours theirs` does.
    pub fn merge_commits(&self, ours: ObjectId, theirs: ObjectId) -> Result<MergeResult> {
        self.merge_commits_in(&mut self.walk()?, ours, theirs)
    }

    /// [`Merger::merge_commits`], its merge bases found through a shared
    /// `walk` ([`Merger::walk`]).
    pub fn merge_commits_in(
        &self,
        walk: &mut Walk<'_>,
        ours: ObjectId,
        theirs: ObjectId,
    ) -> Result<MergeResult> {
        let options: gix::merge::commit::Options = self.options.clone().into();
        self.with_caches(|caches| {
            let outcome = gix::merge::plumbing::commit(
                ours,
                theirs,
                labels(),
                walk,
                &mut caches.diff,
                &mut caches.blob_merge,
                &self.repo,
                &mut |id| {
                    gix::prelude::ObjectIdExt::attach(id.to_owned(), &self.repo)
                        .shorten_or_id()
                        .to_string()
                },
                options.into(),
            )
            .map_err(|e| repo_err(format!("could not merge {theirs} into {ours}: {e}")))?;
            let merge_base = outcome
                .virtual_merge_bases
                .last()
                .copied()
                .or_else(|| outcome.merge_bases.as_ref().map(|b| *b.first()));
            let mut result = self.finish(outcome.tree_merge)?;
            result.merge_base = merge_base;
            Ok(result)
        })
    }

    /// Merge tree-ish `theirs` into `ours` over `ancestor` (each a tree or
    /// a commit, which stands for its tree).
    #[allow(dead_code)] // API for callers that merge trees
    pub fn merge_trees(
        &self,
        ancestor: ObjectId,
        ours: ObjectId,
        theirs: ObjectId,
    ) -> Result<MergeResult> {
        let tree = |id: ObjectId| -> Result<ObjectId> {
            let object = self.repo.find_object(id).map_err(repo_err)?;
            Ok(object.peel_to_tree().map_err(repo_err)?.id)
        };
        let (ancestor_tree, ours_tree, theirs_tree) = (tree(ancestor)?, tree(ours)?, tree(theirs)?);
        self.with_caches(|caches| {
            let outcome = gix::merge::plumbing::tree(
                &ancestor_tree,
                &ours_tree,
                &theirs_tree,
                labels(),
                &self.repo,
                |buf| gix::objs::Write::write_buf(&self.repo, gix::objs::Kind::Blob, buf),
                &mut Default::default(),
                &mut caches.diff,
                &mut caches.blob_merge,
                self.options.clone().into(),
            )
            .map_err(|e| repo_err(format!("could not merge {theirs} into {ours}: {e}")))?;
            self.finish(outcome)
        })
    }

    /// The conflicts git would leave unresolved, and the merged tree
    /// written (to memory).
    fn finish(&self, mut outcome: gix::merge::plumbing::tree::Outcome<'_>) -> Result<MergeResult> {
        let how = gix::merge::tree::TreatAsUnresolved::git();
        let mut conflicts: Vec<BString> = outcome
            .conflicts
            .iter()
            .filter(|c| c.is_unresolved(how))
            .flat_map(|c| [c.ours.location().to_owned(), c.theirs.location().to_owned()])
            .collect();
        conflicts.sort();
        conflicts.dedup();
        let tree = outcome
            .tree
            .write(|tree| self.repo.write_object(tree).map(gix::Id::detach))
            .map_err(repo_err)?;
        Ok(MergeResult {
            tree,
            conflicts,
            merge_base: None,
        })
    }
}

/// The repository's merge options, with git's diff algorithm for merges:
/// `histogram` (merge-ort's default, whatever `diff.algorithm` says for
/// `git diff`), unless `diff.algorithm` is set, which `git merge` and `git
/// rebase` then use (`git merge-tree` alone ignores it). gix would take
/// `diff.algorithm`'s own default, Myers, and place changes where git's
/// merge does not.
fn merge_options(repo: &gix::Repository) -> Result<gix::merge::tree::Options> {
    let mut options: gix::merge::plumbing::tree::Options =
        repo.tree_merge_options().map_err(repo_err)?.into();
    if repo.config_snapshot().string("diff.algorithm").is_none() {
        options.blob_merge.text.diff_algorithm = gix::diff::blob::Algorithm::Histogram;
    }
    Ok(options.into())
}

fn labels() -> gix::merge::blob::builtin_driver::text::Labels<'static> {
    gix::merge::blob::builtin_driver::text::Labels {
        ancestor: Some("base".into()),
        current: Some("ours".into()),
        other: Some("theirs".into()),
    }
}

/// The best common ancestor of commits `a` and `b` (`None`: unrelated
/// histories), as `git merge-base a b` prints it.
pub fn merge_base(repo: &gix::Repository, a: ObjectId, b: ObjectId) -> Result<Option<ObjectId>> {
    if a == b {
        return Ok(Some(a));
    }
    Ok(repo
        .merge_base(a, b)
        .map_err(|e| repo_err(format!("could not find a merge base of {a} and {b}: {e}")))?
        .map(gix::Id::detach))
}

/// One-shot [`Merger::merge_commits`].
#[allow(dead_code)] // API for one-off merges
pub fn merge_commits(
    repo: &gix::Repository,
    ours: ObjectId,
    theirs: ObjectId,
) -> Result<MergeResult> {
    Merger::new(repo)?.merge_commits(ours, theirs)
}

/// One-shot [`Merger::merge_trees`].
#[allow(dead_code)] // API for one-off merges
pub fn merge_trees(
    repo: &gix::Repository,
    ancestor: ObjectId,
    ours: ObjectId,
    theirs: ObjectId,
) -> Result<MergeResult> {
    Merger::new(repo)?.merge_trees(ancestor, ours, theirs)
}

#[cfg(test)]
mod agree;
#[cfg(test)]
pub(crate) mod tests;
