//! `git loop conflicts [--base <BRANCH>]` — which active runs would conflict
//! when landed, and in which files. Read-only: every merge is computed in
//! memory ([`crate::git::merge`]): no worktree, index, ref or object is
//! written, and no mutex is taken (the manifest is read as `list` reads it).
//!
//! What is computed, for each active run `A` (branch `loop/<A>`), against
//! the base it lands in — its recorded base, or `--base` for every run:
//! - **A conflicts with the base**: merging `A` into the base as it is now
//!   (`git merge-tree --write-tree <base> loop/<A>`) leaves conflicts. Such
//!   a run cannot land cleanly by itself; it needs a rebase or a merge first.
//! - **A pair conflicts**: for runs `A` and `B` (A before B by id) landing
//!   in the same base branch, land `A` first — the in-memory merge `M` of
//!   `A` into the base — then merge `B` into `M` over their best common
//!   ancestor (the merge base of the base and `B`, or of `A` and `B` when
//!   that one is newer, as when `B` was started from `A`). The pair's files
//!   are those this second merge leaves conflicted and that conflict in
//!   neither run's own merge into the base: a conflict one run has with the
//!   base by itself is reported once, for that run, not again for each of
//!   its pairs. So "the pair is clean" answers "would both land cleanly,
//!   one after the other", given that each lands cleanly alone. (One order
//!   is computed; a three-way merge's conflicts do not depend on which side
//!   is "ours".)
//!
//! Runs with different recorded bases land in different branches and are
//! not paired. A run whose branch is gone, whose base does not resolve, or
//! that shares no history with its base is skipped, with the reason.
//!
//! The suggested landing order puts first the runs with the fewest
//! conflicts: runs that land cleanly by themselves before those that
//! conflict with the base, then by how many other runs each conflicts with,
//! then by how many files, then by id.
//!
//! Work: one merge per run into its base, and one per pair, spread over the
//! [`crate::pool`] workers, each with its own in-memory [`Merger`]. A run's
//! merge into the base is made by the worker that then merges every pair
//! the run comes first in; those items are taken largest first.

mod report;

pub use report::{ConflictsReport, Skipped};

use std::collections::HashMap;

use gix::ObjectId;
use gix::bstr::{BString, ByteSlice};

use crate::cli::ConflictsArgs;
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::git::merge::{Merger, merge_base};
use crate::manifest::Status;
use crate::output::Out;

/// An active run that can be checked.
struct Candidate {
    id: String,
    base: String,
    base_commit: ObjectId,
    tip: ObjectId,
}

/// One worker item: a run, and the later runs of its base it pairs with.
struct Item {
    run: usize,
    partners: Vec<usize>,
}

/// What a worker found for one item: the run's own conflicts with its base,
/// and each pair's conflicts as merged (before the runs' own are taken out).
struct Found {
    base_conflicts: Vec<BString>,
    pairs: Vec<(usize, Vec<BString>)>,
}

pub fn run(ctx: &Ctx, args: &ConflictsArgs, out: &mut Out<'_>) -> Result<ConflictsReport> {
    let manifest = if ctx.loop_dir_exists()? {
        ctx.manifest.load_or_default()?
    } else {
        Default::default()
    };
    if let Some(base) = &args.base
        && ctx.repo.resolve_commit(base).is_none()
    {
        return Err(Error::BaseNotFound {
            what: format!("--base {base:?}"),
            help: "`git branch --all` lists the branches; --base takes a branch, tag or commit"
                .into(),
        });
    }
    let mut active: Vec<_> = manifest
        .worktrees
        .iter()
        .filter(|e| e.status == Status::Active)
        .collect();
    active.sort_by(|a, b| a.id.cmp(&b.id));

    let repo = ctx.repo.gix();
    let mut bases: HashMap<String, Option<ObjectId>> = HashMap::new();
    let (mut candidates, mut skipped) = (Vec::new(), Vec::new());
    for entry in active {
        let base = args
            .base
            .clone()
            .unwrap_or_else(|| entry.base_branch.clone());
        let base_commit = *bases
            .entry(base.clone())
            .or_insert_with(|| ctx.repo.resolve_commit(&base));
        let skip = |reason: String| Skipped {
            id: entry.id.to_string(),
            reason,
        };
        let Some(tip) = ctx.repo.branch_target(&entry.branch())? else {
            skipped.push(skip(format!(
                "its branch {} does not exist",
                entry.branch()
            )));
            continue;
        };
        let Some(base_commit) = base_commit else {
            skipped.push(skip(format!("its base {base:?} does not resolve")));
            continue;
        };
        if merge_base(repo, base_commit, tip)?.is_none() {
            skipped.push(skip(format!("it shares no history with its base {base}")));
            continue;
        }
        candidates.push(Candidate {
            id: entry.id.to_string(),
            base,
            base_commit,
            tip,
        });
    }

    // Each run with the later runs of the same base; largest items first.
    let mut items: Vec<Item> = (0..candidates.len())
        .map(|run| Item {
            run,
            partners: (run + 1..candidates.len())
                .filter(|&j| candidates[j].base == candidates[run].base)
                .collect(),
        })
        .collect();
    items.sort_by_key(|item| std::cmp::Reverse(item.partners.len()));
    let total_pairs: usize = items.iter().map(|i| i.partners.len()).sum();

    // gix repositories stay on the thread that opened them (this build of
    // gix shares nothing between threads): each worker opens its own.
    let git_dir = repo.git_dir().to_path_buf();
    let mut found: Vec<Option<Found>> = (0..candidates.len()).map(|_| None).collect();
    let mut failure = None;
    let mut done = 0;
    crate::pool::for_each_parallel_with(
        &items,
        || {
            gix::open(&git_dir)
                .map_err(|e| Error::Repository(e.to_string()))
                .and_then(|repo| Merger::new(&repo))
        },
        |merger, item| match merger {
            Ok(merger) => check(merger, &candidates, item),
            Err(e) => Err(Error::Repository(format!(
                "could not open the repository: {e}"
            ))),
        },
        |i, result| {
            done += items[i].partners.len() + 1;
            out.progress(Some(format_args!(
                "merging: {done}/{} (runs and pairs)",
                total_pairs + candidates.len()
            )));
            match result {
                Ok(f) => found[items[i].run] = Some(f),
                Err(e) => failure = failure.take().or(Some(e)),
            }
        },
    );
    out.progress(None);
    if let Some(e) = failure {
        return Err(e);
    }
    let found: Vec<Found> = found
        .into_iter()
        .map(|f| f.expect("every item reported"))
        .collect();
    Ok(report::build(
        &candidates
            .iter()
            .map(|c| (c.id.as_str(), c.base.as_str()))
            .collect::<Vec<_>>(),
        found,
        total_pairs,
        skipped,
    ))
}

/// The merges of one item: its run into the base, then each partner into
/// that result.
fn check(merger: &Merger, candidates: &[Candidate], item: &Item) -> Result<Found> {
    let a = &candidates[item.run];
    let landed = merger.merge_commits(a.base_commit, a.tip)?;
    let mut pairs = Vec::with_capacity(item.partners.len());
    for &j in &item.partners {
        let b = &candidates[j];
        let ancestor = pair_ancestor(merger, a, b)?;
        let merged = merger.merge_trees(ancestor, landed.tree, b.tip)?;
        pairs.push((j, merged.conflicts));
    }
    Ok(Found {
        base_conflicts: landed.conflicts,
        pairs,
    })
}

/// The common ancestor of "the base with `a` landed" and `b`: the merge
/// base of the base and `b`, unless the merge base of `a` and `b` descends
/// from it (the runs share commits the base does not have).
fn pair_ancestor(merger: &Merger, a: &Candidate, b: &Candidate) -> Result<ObjectId> {
    let via_base = merger
        .merge_base(a.base_commit, b.tip)?
        .ok_or_else(|| Error::Repository(format!("{} shares no history with its base", b.id)))?;
    let Some(via_a) = merger.merge_base(a.tip, b.tip)? else {
        return Ok(via_base);
    };
    if via_a != via_base && merger.merge_base(via_base, via_a)? == Some(via_base) {
        return Ok(via_a);
    }
    Ok(via_base)
}

/// A path as JSON and tables show it (lossy for bytes that are not UTF-8).
fn path_text(path: &BString) -> String {
    path.to_str_lossy().into_owned()
}
