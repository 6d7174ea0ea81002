//! `git loop conflicts [--base <BRANCH>] [--status <S,…>]`'s analysis —
//! which runs (the active ones, or those of the statuses asked for, as
//! `land --queue` takes its runs) would conflict when landed, and in which
//! files. Read-only: every merge is computed in
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
//!   `A` into the base, kept as an in-memory merge commit with parents the
//!   base and `A` — then merge `B` into `M` as `git merge-tree --write-tree
//!   M B` would: over their best common ancestor (the merge base of the
//!   base and `B`, or of `A` and `B` when that one is newer, as when `B` was
//!   started from `A`), or, when they have several (a criss-cross history:
//!   `A` and `B` each merged the same two topics), over the virtual base
//!   git makes by merging those. The pair's files
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
//! A pair whose two sides change paths that cannot meet — no file changed
//! by both, none where the other side has a directory — is clean without
//! its merge (the proof is in [`crate::git::merge::Changes`]): each side's
//! changes are read once by a tree diff, not merged once per pair.
//!
//! Work: one merge per run into its base, and one per pair, spread over the
//! [`crate::fanout`] workers, each with its own in-memory [`Merger`]. A run's
//! merge into the base is made by the worker that then merges every pair
//! the run comes first in; those items are taken largest first.

//!
//! Phases: the active runs and what each lands in ([`candidates`]), the
//! work items ([`items`]), the merges ([`merges::merge_all`]), and last the
//! [`ConflictsOutcome`] from what they found ([`outcome::tally`]: each run's own
//! conflicts taken out of its pairs, the landing order).

mod merges;
pub mod outcome;

pub use outcome::ConflictsOutcome;
use outcome::Skipped;

use std::collections::HashMap;

use gix::ObjectId;
use gix::bstr::BString;

use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::git::merge::merge_base;
use crate::manifest::{Entry, Status};
use crate::output::Notes;

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

/// Check every run whose status is in `statuses` (`None`: the active
/// ones), landing each in `base` when given (else in its recorded base).
pub fn predict(
    ctx: &Ctx,
    base: Option<&str>,
    statuses: Option<&[Status]>,
    out: &mut Notes<'_>,
) -> Result<ConflictsOutcome> {
    predict_for(ctx, base, statuses.unwrap_or(&[Status::Active]), out)
}

/// [`predict`] for the runs whose status is in `statuses` (`land --queue`'s
/// order comes from it).
pub fn predict_for(
    ctx: &Ctx,
    base: Option<&str>,
    statuses: &[Status],
    out: &mut Notes<'_>,
) -> Result<ConflictsOutcome> {
    let manifest = ctx.read_manifest()?;
    if let Some(base) = base
        && ctx.repo.resolve_commit(base).is_none()
    {
        return Err(Error::BaseNotFound {
            what: format!("--base {base:?}"),
            help: "`git branch --all` lists the branches; --base takes a branch, tag or commit"
                .into(),
        });
    }
    let (mut active, others): (Vec<&Entry>, Vec<&Entry>) = manifest
        .worktrees
        .iter()
        .partition(|e| statuses.contains(&e.status));
    active.sort_by(|a, b| a.id.cmp(&b.id));
    let (candidates, skipped) = candidates(ctx, base, active)?;
    let items = items(&candidates);
    let found = merges::merge_all(ctx, &candidates, &items, out)?;
    let pairs_checked = items.iter().map(|i| i.partners.len()).sum();
    let mut outcome = outcome::tally(&candidates, found, pairs_checked, skipped);
    outcome.statuses = statuses.to_vec();
    outcome.not_looked_at = Status::ALL
        .into_iter()
        .map(|s| (s, others.iter().filter(|e| e.status == s).count()))
        .filter(|&(_, n)| n > 0)
        .collect();
    // Most first: the note names the first one's `--status`.
    outcome
        .not_looked_at
        .sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    Ok(outcome)
}

/// The landing order of runs known by their tips alone (`land --queue
/// --fleet`: other machines' records, no branch of theirs here), each
/// `(name, base, tip)` landing in `base` when given, else its own, and
/// given in name order: the names in [`predict`]'s landing order, then
/// those that cannot be checked (a base that does not resolve here, no
/// history shared with it) in the order given.
pub fn order_tips(
    ctx: &Ctx,
    base: Option<&str>,
    runs: &[(String, String, ObjectId)],
    out: &mut Notes<'_>,
) -> Result<Vec<String>> {
    let (mut candidates, mut rest) = (Vec::new(), Vec::new());
    for (name, own, tip) in runs {
        let base = base.unwrap_or(own);
        match ctx.repo.resolve_commit(base) {
            Some(base_commit) if merge_base(ctx.repo.gix(), base_commit, *tip)?.is_some() => {
                candidates.push(Candidate {
                    id: name.clone(),
                    base: base.to_owned(),
                    base_commit,
                    tip: *tip,
                });
            }
            _ => rest.push(name.clone()),
        }
    }
    let items = items(&candidates);
    let found = merges::merge_all(ctx, &candidates, &items, out)?;
    let pairs_checked = items.iter().map(|i| i.partners.len()).sum();
    let outcome = outcome::tally(&candidates, found, pairs_checked, Vec::new());
    Ok(outcome.landing_order.into_iter().chain(rest).collect())
}

/// The runs that can be checked, and why the others cannot: a branch gone,
/// a base that does not resolve, no history shared with the base.
fn candidates(
    ctx: &Ctx,
    base: Option<&str>,
    active: Vec<&Entry>,
) -> Result<(Vec<Candidate>, Vec<Skipped>)> {
    let repo = ctx.repo.gix();
    let mut bases: HashMap<String, Option<ObjectId>> = HashMap::new();
    let (mut candidates, mut skipped) = (Vec::new(), Vec::new());
    for entry in active {
        let base = base.map_or_else(|| entry.base_branch.clone(), str::to_owned);
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
    Ok((candidates, skipped))
}

/// Each run with the later runs of the same base; largest items first.
fn items(candidates: &[Candidate]) -> Vec<Item> {
    let mut items: Vec<Item> = (0..candidates.len())
        .map(|run| Item {
            run,
            partners: (run + 1..candidates.len())
                .filter(|&j| candidates[j].base == candidates[run].base)
                .collect(),
        })
        .collect();
    items.sort_by_key(|item| std::cmp::Reverse(item.partners.len()));
    items
}
