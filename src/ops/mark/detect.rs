//! Detect merged (`git loop mark --detect-merged [--dry-run]`): mark `merged` every run
//! (any status but `merged`) whose work is in its base — the step a harness
//! runs after pulling.
//!
//! - Detection is [`crate::git::merged`]'s proof (`ancestor`, `squash`,
//!   `rebase`), in memory, without any lock. A run with no commits of its
//!   own (`empty`) is left alone, as is one whose branch is gone or whose
//!   base does not resolve.
//! - A run patch ids only call probably rebase-merged (merging it would
//!   still change its base) is reported (`probable`) and left alone: `merged`
//!   is a status a harness acts on (`cleanup --status merged` removes the
//!   worktree), so it is set on proof only. Marking it by hand stays
//!   possible, and would still not delete its branch.
//! - Marking takes, as `mark` does, the run lock of each run to mark (in id
//!   order), then the manifest mutex; the manifest is re-read there. A run
//!   is marked only if it is still the same run, still not `merged`, and
//!   its branch and base are where they were when its work was found in the
//!   base (otherwise it is checked again there). One manifest write; one
//!   `mark` event per run, with the proof in its detail.
//! - `--dry-run` reports what would be marked, and takes no lock.

use crate::ctx::Ctx;
use crate::error::Result;
use crate::git::merged::{Detector, MergedBy, Verdict};
use crate::manifest::{Entry, Manifest, Status};
use crate::output::Notes;

/// A run found (and, not a dry run, marked) `merged`.
pub struct Found {
    /// Its entry when its work was found in its base.
    pub entry: Entry,
    /// Its status before.
    pub from: Status,
    pub merged_by: MergedBy,
    /// The branch tip found merged.
    pub tip: gix::ObjectId,
    /// The base's commit then.
    pub base: gix::ObjectId,
}

/// What a detection found, each list in id order.
pub struct Detection {
    pub dry_run: bool,
    pub marked: Vec<Found>,
    /// Runs with no commits of their own, left alone.
    pub empty: Vec<String>,
    /// Runs patch ids call probably rebase-merged, not proven: left alone.
    pub probable: Vec<String>,
}

/// The verdict for `entry` as the repository is now: `None` when its branch
/// or base is gone.
fn verdict(
    ctx: &Ctx,
    detector: &mut Detector<'_>,
    entry: &Entry,
) -> Result<Option<(Verdict, gix::ObjectId, gix::ObjectId)>> {
    let branch = entry.branch();
    let (Some(tip), Some(base)) = (
        ctx.repo.branch_target(&branch)?,
        ctx.repo.resolve_commit(&entry.base_branch),
    ) else {
        return Ok(None);
    };
    // The safety kernel's verdict and guards (a base read through the
    // run's own branch, or an expression, proves nothing). A run whose
    // history cannot be read is left alone, like one whose branch is gone;
    // it does not stop the others being marked.
    Ok(
        crate::safety::branch::judge(ctx.repo.gix(), detector, &branch, tip, &entry.base_branch)
            .ok()
            .map(|j| (j.verdict.unwrap_or(Verdict::NotMerged), tip, base)),
    )
}

/// Of `entries` (runs just marked `merged` by hand), those whose work
/// nothing proves in their base: commits of their own that the base does
/// not have (probably merged is not proof). A run whose branch or base is
/// gone, or with no commits of its own, is not named: nothing of it is
/// left only on its branch, or there is nothing to compare.
pub fn not_in_base<'e>(ctx: &Ctx, entries: &[&'e Entry]) -> Result<Vec<&'e Entry>> {
    let mut detector = Detector::new(ctx.repo.gix())?.sharing(ctx.repo.walks());
    let mut out = Vec::new();
    for entry in entries {
        let found = verdict(ctx, &mut detector, entry)?;
        if let Some((Verdict::NotMerged | Verdict::Probable(_), _, _)) = found {
            out.push(*entry);
        }
    }
    Ok(out)
}

/// Find the runs whose work is in their base, and (not a dry run) mark them
/// `merged`; see the module doc.
pub fn detect_merged(ctx: &Ctx, dry_run: bool, out: &mut Notes<'_>) -> Result<Detection> {
    let mut detection = Detection {
        dry_run,
        marked: Vec::new(),
        empty: Vec::new(),
        probable: Vec::new(),
    };
    if !ctx.loop_dir_exists()? {
        return Ok(detection);
    }
    let Some((manifest, snapshot)) = ctx.manifest.load_snapshot()? else {
        return Ok(detection);
    };
    let mut detector = Detector::new(ctx.repo.gix())?.sharing(ctx.repo.walks());
    find(ctx, &mut detector, &manifest, &mut detection)?;
    if dry_run || detection.marked.is_empty() {
        return Ok(detection);
    }
    let mut run_locks = Vec::with_capacity(detection.marked.len());
    for found in &detection.marked {
        run_locks.push(crate::lock::RunLock::acquire(
            ctx.repo.common_dir(),
            &found.entry.id,
            crate::lock::RUN_LOCK_DEADLINE,
        )?);
    }
    // Dropped without a commit when nothing is marked after all: nothing
    // is written.
    let mut tx = ctx.start_transaction_from(Some((manifest, snapshot)))?;
    let found = std::mem::take(&mut detection.marked);
    detection.marked = mark_still_merged(ctx, &mut detector, tx.manifest_mut()?, found)?;
    if !detection.marked.is_empty() {
        tx.log_all(events(&detection.marked));
        tx.commit(out)?;
    }
    drop(run_locks);
    Ok(detection)
}

/// Every run of `manifest` but the `merged` ones, judged in memory, sorted
/// into `detection`.
fn find(
    ctx: &Ctx,
    detector: &mut Detector<'_>,
    manifest: &Manifest,
    detection: &mut Detection,
) -> Result<()> {
    for entry in manifest
        .worktrees
        .iter()
        .filter(|e| e.status != Status::Merged)
    {
        match verdict(ctx, detector, entry)? {
            Some((Verdict::Merged(by), tip, base)) => detection.marked.push(Found {
                entry: entry.clone(),
                from: entry.status,
                merged_by: by,
                tip,
                base,
            }),
            Some((Verdict::Empty, ..)) => detection.empty.push(entry.id.to_string()),
            Some((Verdict::Probable(_), ..)) => detection.probable.push(entry.id.to_string()),
            Some((Verdict::NotMerged, ..)) | None => {}
        }
    }
    detection.marked.sort_by(|a, b| a.entry.id.cmp(&b.entry.id));
    detection.probable.sort();
    Ok(())
}

/// Under the run locks and the mutex: set `merged` in `current` for each run
/// found that is still the same run, still not `merged`, and still proven
/// merged (checked again when its branch or base moved). The ones marked.
fn mark_still_merged(
    ctx: &Ctx,
    detector: &mut Detector<'_>,
    current: &mut Manifest,
    found: Vec<Found>,
) -> Result<Vec<Found>> {
    let mut marked = Vec::with_capacity(found.len());
    for f in found {
        let Some(entry) = current.find(&f.entry.id).filter(|e| e.same_run(&f.entry)) else {
            continue;
        };
        if entry.status == Status::Merged {
            continue;
        }
        let entry = entry.clone();
        // Anything moved since the check: check again, here.
        let proof = match verdict(ctx, detector, &entry)? {
            Some((v, tip, base)) if tip == f.tip && base == f.base => v.merged_by(),
            Some((Verdict::Merged(by), tip, _)) if tip == f.tip => Some(by),
            _ => None,
        };
        let Some(by) = proof else { continue };
        current.find_mut(&entry.id).expect("found above").status = Status::Merged;
        marked.push(Found {
            from: entry.status,
            merged_by: by,
            ..f
        });
    }
    Ok(marked)
}

/// One `mark` event per run marked, with the proof in its detail.
fn events(marked: &[Found]) -> Vec<crate::events::Event> {
    marked
        .iter()
        .map(|f| {
            let mut e = crate::events::Event::new(crate::events::EventKind::Mark, &f.entry.id);
            e.from = Some(f.from.into());
            e.to = Some(Status::Merged.into());
            e.detail = Some(format!(
                "detected merged into {} ({}) at {}",
                f.entry.base_branch, f.merged_by, f.tip
            ));
            e
        })
        .collect()
}
