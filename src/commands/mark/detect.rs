//! `git loop mark --detect-merged [--dry-run]`: mark `merged` every run
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

use serde::Serialize;

use crate::ctx::Ctx;
use crate::error::Result;
use crate::git::merged::{Detector, MergedBy, Verdict};
use crate::lock::ManifestMutex;
use crate::manifest::{Entry, Status};
use crate::output::{Out, Report};

/// A run marked (in a dry run: that would be) `merged`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Detected {
    pub id: String,
    /// Its status before.
    pub from: Status,
    pub merged_by: MergedBy,
    /// The branch tip found merged.
    pub tip: String,
    pub base_branch: String,
    #[serde(skip)]
    tip_id: gix::ObjectId,
    #[serde(skip)]
    base_id: gix::ObjectId,
    #[serde(skip)]
    entry: Entry,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DetectReport {
    pub dry_run: bool,
    pub marked: Vec<Detected>,
    /// Runs with no commits of their own, left alone.
    pub empty: Vec<String>,
    /// Runs patch ids call probably rebase-merged, not proven merged (merging
    /// them would still change their base): left alone.
    pub probable: Vec<String>,
}

impl Report for DetectReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        for d in &self.marked {
            writeln!(
                out.stdout,
                "{}: {} -> merged ({})",
                crate::style::escape(&d.id),
                d.from,
                d.merged_by
            )?;
        }
        for id in &self.probable {
            out.note(format_args!(
                "{}: probably rebase-merged (patch ids), not proven: left alone",
                crate::style::escape(id)
            ));
        }
        let verb = if self.dry_run { "would mark" } else { "marked" };
        let probable = match self.probable.len() {
            0 => String::new(),
            n => format!(", {n} probably merged"),
        };
        out.note(format_args!(
            "{verb} {} merged ({} empty{probable} left alone)",
            self.marked.len(),
            self.empty.len()
        ));
        Ok(())
    }
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

pub fn run(ctx: &Ctx, dry_run: bool, out: &mut Out<'_>) -> Result<DetectReport> {
    let mut report = DetectReport {
        dry_run,
        marked: Vec::new(),
        empty: Vec::new(),
        probable: Vec::new(),
    };
    if !ctx.loop_dir_exists()? {
        return Ok(report);
    }
    let Some((manifest, snapshot)) = ctx.manifest.load_snapshot()? else {
        return Ok(report);
    };
    let mut detector = Detector::new(ctx.repo.gix())?;
    for entry in manifest
        .worktrees
        .iter()
        .filter(|e| e.status != Status::Merged)
    {
        match verdict(ctx, &mut detector, entry)? {
            Some((Verdict::Merged(by), tip, base)) => report.marked.push(Detected {
                id: entry.id.to_string(),
                from: entry.status,
                merged_by: by,
                tip: tip.to_string(),
                base_branch: entry.base_branch.clone(),
                tip_id: tip,
                base_id: base,
                entry: entry.clone(),
            }),
            Some((Verdict::Empty, ..)) => report.empty.push(entry.id.to_string()),
            Some((Verdict::Probable(_), ..)) => report.probable.push(entry.id.to_string()),
            Some((Verdict::NotMerged, ..)) | None => {}
        }
    }
    report.marked.sort_by(|a, b| a.id.cmp(&b.id));
    report.probable.sort();
    if dry_run || report.marked.is_empty() {
        return Ok(report);
    }
    let mut run_locks = Vec::with_capacity(report.marked.len());
    for d in &report.marked {
        run_locks.push(crate::worktree::RunLock::acquire(
            ctx.repo.common_dir(),
            &d.id,
            crate::worktree::RUN_LOCK_DEADLINE,
        )?);
    }
    let mutex = ManifestMutex::acquire(&ctx.loop_dir())?;
    let mut current = if snapshot.is_current(ctx.manifest.path()) {
        manifest
    } else {
        ctx.manifest.load()?.unwrap_or_default()
    };
    let mut kept = Vec::with_capacity(report.marked.len());
    for d in std::mem::take(&mut report.marked) {
        let Some(entry) = current.find(&d.id).filter(|e| e.same_run(&d.entry)) else {
            continue;
        };
        if entry.status == Status::Merged {
            continue;
        }
        let entry = entry.clone();
        // Anything moved since the check: check again, here.
        let proof = match verdict(ctx, &mut detector, &entry)? {
            Some((v, tip, base)) if tip == d.tip_id && base == d.base_id => v.merged_by(),
            Some((Verdict::Merged(by), tip, _)) if tip == d.tip_id => Some(by),
            _ => None,
        };
        let Some(by) = proof else { continue };
        current.find_mut(&d.id).expect("found above").status = Status::Merged;
        kept.push(Detected {
            from: entry.status,
            merged_by: by,
            ..d
        });
    }
    report.marked = kept;
    if !report.marked.is_empty() {
        ctx.manifest.write(&current, &mutex)?;
        let events: Vec<crate::events::Event> = report
            .marked
            .iter()
            .map(|d| {
                let mut e = crate::events::Event::new(crate::events::EventKind::Mark, &d.id);
                e.from = Some(d.from.into());
                e.to = Some(Status::Merged.into());
                e.detail = Some(format!(
                    "detected merged into {} ({}) at {}",
                    d.base_branch, d.merged_by, d.tip
                ));
                e
            })
            .collect();
        ctx.log_events(&events, out);
    }
    drop(mutex);
    drop(run_locks);
    Ok(report)
}
