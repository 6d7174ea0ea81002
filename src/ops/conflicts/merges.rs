//! The merges `conflicts` computes, in memory, spread over the
//! [`crate::fanout`] workers, each with its own [`Merger`].

use std::collections::HashMap;
use std::rc::Rc;

use gix::ObjectId;

use super::{Candidate, Found, Item};
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::git::merge::{Changes, Merger};
use crate::output::Notes;

/// Every item's merges, by run (`found[i]` is what the item of run `i`
/// found). The first failure fails the whole check.
pub(super) fn merge_all(
    ctx: &Ctx,
    candidates: &[Candidate],
    items: &[Item],
    out: &mut Notes<'_>,
) -> Result<Vec<Found>> {
    let total = items.iter().map(|i| i.partners.len()).sum::<usize>() + candidates.len();
    // gix repositories stay on the thread that opened them (this build of
    // gix shares nothing between threads): each worker opens its own.
    let git_dir = ctx.repo.gix().git_dir().to_path_buf();
    let mut found: Vec<Option<Found>> = (0..candidates.len()).map(|_| None).collect();
    let mut failure = None;
    let mut done = 0;
    crate::fanout::for_each_with(
        items,
        || {
            gix::open(&git_dir)
                .map_err(|e| Error::Repository(e.to_string()))
                .and_then(|repo| Merger::new(&repo))
                .map(|merger| Worker {
                    merger,
                    changes: HashMap::new(),
                })
        },
        |worker, item| match worker {
            Ok(worker) => check(worker, candidates, item),
            Err(e) => Err(Error::Repository(format!(
                "could not open the repository: {e}"
            ))),
        },
        |i, result| {
            done += items[i].partners.len() + 1;
            out.progress(Some(format_args!(
                "merging: {done}/{total} (runs and pairs)"
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
    Ok(found
        .into_iter()
        .map(|f| f.expect("every item reported"))
        .collect())
}

/// One worker's merger, and the changes it has read, by (ancestor, side).
struct Worker {
    merger: Merger,
    changes: HashMap<(ObjectId, ObjectId), Rc<Changes>>,
}

/// The changes from `ancestor` to `side`, read once per worker.
fn changes(
    cache: &mut HashMap<(ObjectId, ObjectId), Rc<Changes>>,
    merger: &Merger,
    ancestor: ObjectId,
    side: ObjectId,
) -> Result<Rc<Changes>> {
    if let Some(c) = cache.get(&(ancestor, side)) {
        return Ok(c.clone());
    }
    let c = Rc::new(merger.changes(ancestor, side)?);
    cache.insert((ancestor, side), c.clone());
    Ok(c)
}

/// The merges of one item: its run into the base — kept as an in-memory
/// merge commit `M` (parents: the base, the run), as a landing by merge
/// makes it — then each partner into `M` over their merge base(s), as `git
/// merge-tree --write-tree M <partner>` merges: over the one best common
/// ancestor, or, when there are several (a criss-cross history), over the
/// virtual base git builds by merging them. Over one ancestor, a pair whose
/// two sides' changed paths cannot meet is clean without its merge
/// ([`Changes::can_meet`]: the merge would take each side as it is).
fn check(worker: &mut Worker, candidates: &[Candidate], item: &Item) -> Result<Found> {
    let a = &candidates[item.run];
    // One commit graph for every merge-base walk of the item: each commit
    // is parsed once, not once per pair.
    let merger = &worker.merger;
    let mut walk = merger.walk()?;
    let landed = merger.merge_commits_in(&mut walk, a.base_commit, a.tip)?;
    let landed_commit = merger.commit_in_memory(landed.tree, &[a.base_commit, a.tip])?;
    let mut pairs = Vec::with_capacity(item.partners.len());
    for &j in &item.partners {
        let b = &candidates[j];
        let bases = merger.merge_bases_in(&mut walk, landed_commit, b.tip)?;
        let conflicts = match bases.as_slice() {
            [] => {
                return Err(Error::Repository(format!(
                    "{} shares no history with its base",
                    b.id
                )));
            }
            [ancestor] => {
                let ours = changes(&mut worker.changes, merger, *ancestor, landed.tree)?;
                let theirs = changes(&mut worker.changes, merger, *ancestor, b.tip)?;
                if !ours.can_meet(&theirs) {
                    pairs.push((j, Vec::new()));
                    continue;
                }
                merger.merge_trees(*ancestor, landed.tree, b.tip)?.conflicts
            }
            _ => {
                merger
                    .merge_commits_in(&mut walk, landed_commit, b.tip)?
                    .conflicts
            }
        };
        pairs.push((j, conflicts));
    }
    Ok(Found {
        base_conflicts: landed.conflicts,
        pairs,
    })
}
