//! `git loop branches [--delete-merged] [--dry-run]`: the `loop/*` branches
//! no run records any more.
//!
//! Cleanup removes worktrees and keeps their branches (an unmerged branch is
//! the only copy of a run's work), and drops the run's entry, so branches
//! pile up. This command lists every `refs/heads/loop/*` that no manifest
//! entry names, with its tip, the age of the tip commit (committer time),
//! how many commits it is ahead of and behind the base, and whether it is
//! merged.
//!
//! - **The base.** A leftover branch has no entry, so the base it was made
//!   from is not known: every branch is compared with the configured base
//!   (`loop.base`, see `git loop config`; default `main`). When that does not
//!   resolve, ahead, behind and merged are unknown (`null`, `-`) and nothing
//!   is deleted.
//! - **Merged** is [`crate::git::merged`]'s answer: the branch's work is in
//!   the base as an ancestor, squash-merged or rebase-merged (`mergedBy`).
//!   Patch ids alone only make it `probablyMerged` (`rebase`): shown, never
//!   deleted. A branch with no commits of its own since it was created is `empty`,
//!   not merged; it is deletable all the same when the base contains its tip
//!   (it holds nothing the base lacks).
//! - **Deletion** (`--delete-merged`) happens under the worktree-operation
//!   lock (so no git-loop create is between making `loop/<id>` and recording
//!   it) and the manifest mutex (so the entries read are current), in that
//!   order. Each branch is checked again there: no entry names it, no
//!   worktree has it checked out (HEAD of the main or any linked worktree,
//!   or a rebase or bisect in progress on it, as `git branch -d` judges), and
//!   its work is still in the base (checked again: the base may have been
//!   rewound). Then the ref is deleted by a
//!   compare-and-swap on the exact tip that was checked: a branch moved
//!   meanwhile is kept (`moved`). Each deletion is logged (`branch-delete`,
//!   with the tip, so `git branch <branch> <tip>` brings it back).
//! - `--dry-run` reports what `--delete-merged` would delete (`deleted` then
//!   means "would be deleted", as `removed` does in cleanup's dry run) and
//!   changes nothing; it takes no lock.

use serde::Serialize;

use crate::cli::BranchesArgs;
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::lock::{ManifestMutex, OpsLock};
use crate::output::{Out, Report};
use crate::style::{Cell, escape, write_table};

/// Why a merged-or-not branch was not deleted when deletion was asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum KeptCode {
    /// Its work is not in the base, or the base does not resolve.
    NotMerged,
    /// Checked out (or being rebased or bisected) in some worktree.
    CheckedOut,
    /// A manifest entry names it now (a run was created meanwhile).
    Recorded,
    /// Its tip changed after it was checked: the compare-and-swap refused.
    Moved,
    /// The deletion failed otherwise (the error is reported).
    Error,
}

impl KeptCode {
    pub fn as_str(self) -> &'static str {
        match self {
            KeptCode::NotMerged => "not-merged",
            KeptCode::CheckedOut => "checked-out",
            KeptCode::Recorded => "recorded",
            KeptCode::Moved => "moved",
            KeptCode::Error => "error",
        }
    }
}

/// One leftover branch.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Leftover {
    /// Short name, `loop/<x>`.
    pub branch: String,
    /// The full id of its tip.
    pub tip: String,
    #[serde(skip)]
    pub tip_id: gix::ObjectId,
    #[serde(skip)]
    pub tip_short: String,
    /// The tip's committer time, ISO-8601 UTC (`null`: not a readable commit).
    pub committed_at: Option<String>,
    /// Seconds from that time to now.
    pub age_seconds: Option<i64>,
    pub ahead: Option<usize>,
    pub behind: Option<usize>,
    /// `true` only when the branch has commits of its own and they are in
    /// the base.
    pub merged: Option<bool>,
    /// `ancestor`, `squash` or `rebase` when merged.
    pub merged_by: Option<crate::git::merged::MergedBy>,
    /// `rebase` when patch ids say the branch was probably rebase-merged
    /// but merging it would still change the base: not merged, never
    /// deleted.
    pub probably_merged: Option<crate::git::merged::MergedBy>,
    /// No commits of its own since it was created.
    pub empty: Option<bool>,
    /// Merged, or empty with its tip in the base: `--delete-merged` may
    /// delete it.
    #[serde(skip)]
    pub deletable: bool,
    pub checked_out: bool,
    /// Deleted (in a dry run: would be).
    pub deleted: bool,
    /// With `--delete-merged` or `--dry-run`: why it is (would be) kept.
    pub kept: Option<KeptCode>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BranchesReport {
    pub dry_run: bool,
    /// The base every branch is compared with.
    pub base: String,
    pub branches: Vec<Leftover>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<crate::error::Failure>,
    /// Whether a deletion pass ran (or was simulated): the table shows it.
    #[serde(skip)]
    pub deleting: bool,
}

impl Report for BranchesReport {
    fn failed_part_way(&self) -> Option<&crate::error::Failure> {
        self.error.as_ref()
    }

    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        if self.branches.is_empty() {
            out.note(format_args!("no leftover loop/* branches"));
            return Ok(());
        }
        let now = crate::time::now();
        let opt = |v: Option<usize>| v.map_or_else(|| "-".to_owned(), |v| v.to_string());
        let rows: Vec<[Cell<'_>; 7]> = self
            .branches
            .iter()
            .map(|l| {
                let merged: Cell<'_> = match (l.merged_by, l.probably_merged, l.empty) {
                    (Some(by), ..) => (by.as_str().into(), "32"),
                    // Evidence, not proof: never deleted.
                    (None, Some(by), _) => (format!("{by}?").into(), "33"),
                    (None, None, Some(true)) => ("empty".into(), "2"),
                    _ if l.merged == Some(false) => ("no".into(), ""),
                    _ => ("-".into(), ""),
                };
                let age = l.committed_at.as_deref().and_then(|t| t.parse().ok());
                let action = match (l.deleted, l.kept, self.dry_run) {
                    (true, _, true) => ("would delete".to_owned(), "33"),
                    (true, _, false) => ("deleted".to_owned(), "31"),
                    (false, Some(code), _) => (format!("kept ({})", code.as_str()), ""),
                    (false, None, _) if l.checked_out => ("checked out".to_owned(), ""),
                    _ => ("-".to_owned(), ""),
                };
                [
                    (escape(&l.branch), ""),
                    (l.tip_short.as_str().into(), ""),
                    (
                        age.map_or_else(|| "-".to_owned(), |t| crate::time::age(now, t))
                            .into(),
                        "2",
                    ),
                    (opt(l.ahead).into(), ""),
                    (opt(l.behind).into(), ""),
                    merged,
                    (action.0.into(), action.1),
                ]
            })
            .collect();
        let header = ["BRANCH", "TIP", "AGE", "AHEAD", "BEHIND", "MERGED", "STATE"];
        write_table(out.stdout, header, &rows, out.color)?;
        if self.deleting {
            let deleted = self.branches.iter().filter(|l| l.deleted).count();
            let kept: Vec<&str> = self
                .branches
                .iter()
                .filter_map(|l| l.kept.map(KeptCode::as_str))
                .collect();
            let verb = if self.dry_run {
                "would delete"
            } else {
                "deleted"
            };
            out.note(format_args!(
                "{} (compared with {})",
                crate::style::summary(verb, deleted, &kept),
                self.base
            ));
        }
        Ok(())
    }
}

/// The branches the manifest names (none without `.loop-worktrees/`).
fn recorded_branches(ctx: &Ctx) -> Result<std::collections::HashSet<String>> {
    if !ctx.loop_dir_exists()? {
        return Ok(Default::default());
    }
    let manifest = ctx.manifest.load_or_default()?;
    Ok(manifest.worktrees.iter().map(|e| e.branch()).collect())
}

pub fn run(ctx: &Ctx, args: &BranchesArgs, out: &mut Out<'_>) -> Result<BranchesReport> {
    let base_name = ctx.settings()?.base.value.clone();
    let base = ctx.repo.resolve_commit(&base_name);
    let recorded = recorded_branches(ctx)?;
    let (found, left_out) = ctx.repo.loop_branches()?;
    for name in left_out {
        out.note(format_args!(
            "warning: {name} is left out: its name is not UTF-8, or it is a symbolic ref"
        ));
    }
    let checked_out = ctx.repo.checked_out_branches()?;
    let now = crate::time::now();
    let mut leftovers = Vec::new();
    let mut detector = crate::git::merged::Detector::new(ctx.repo.gix())?;
    for (branch, tip) in found {
        if recorded.contains(&branch) {
            continue;
        }
        let time = ctx.repo.commit_time(tip);
        // The safety kernel's verdict, with its guards (the branch the base
        // names is never merged into itself). Unreadable history: merged
        // unknown (`null`), never deleted.
        let (ahead, behind, judged) = match (time, base) {
            (Some(_), Some(base)) => {
                let (a, b) = ctx.repo.ahead_behind(tip, base)?;
                let judged = crate::safety::branch::judge(
                    ctx.repo.gix(),
                    &mut detector,
                    &branch,
                    tip,
                    &base_name,
                )
                .ok();
                (Some(a), Some(b), judged)
            }
            _ => (None, None, None),
        };
        let verdict = judged
            .as_ref()
            .map(|j| j.verdict.unwrap_or(crate::git::merged::Verdict::NotMerged));
        use crate::git::merged::Verdict;
        leftovers.push(Leftover {
            checked_out: checked_out.contains(&branch),
            branch,
            tip: tip.to_string(),
            tip_id: tip,
            tip_short: ctx.repo.short_id(tip),
            committed_at: time.map(|t| t.to_string()),
            age_seconds: time.map(|t| now.as_second().saturating_sub(t.as_second())),
            ahead,
            behind,
            merged: verdict.map(|v| matches!(v, Verdict::Merged(_))),
            merged_by: verdict.and_then(Verdict::merged_by),
            probably_merged: verdict.and_then(Verdict::probably_merged_by),
            empty: verdict.map(|v| v == Verdict::Empty),
            deletable: judged.as_ref().is_some_and(|j| j.deletable),
            deleted: false,
            kept: None,
        });
    }
    if base.is_none() && !leftovers.is_empty() {
        out.note(format_args!(
            "warning: the base {base_name:?} does not resolve: merged is unknown, nothing is deleted"
        ));
    }
    let deleting = args.delete_merged || args.dry_run;
    let mut report = BranchesReport {
        dry_run: args.dry_run,
        base: base_name,
        branches: leftovers,
        error: None,
        deleting,
    };
    if args.dry_run {
        for l in &mut report.branches {
            l.kept = first_reason(l, false, l.checked_out);
            l.deleted = l.kept.is_none();
        }
    } else if args.delete_merged
        && let Some(e) = delete_merged(ctx, &mut report, out)?
    {
        report.error = Some(super::Failure::from(&e));
    }
    Ok(report)
}

/// Why `l` must be kept, if it must.
fn first_reason(l: &Leftover, recorded: bool, checked_out: bool) -> Option<KeptCode> {
    if !l.deletable {
        Some(KeptCode::NotMerged)
    } else if recorded {
        Some(KeptCode::Recorded)
    } else if checked_out {
        Some(KeptCode::CheckedOut)
    } else {
        None
    }
}

/// Delete the merged leftovers, each checked again under the locks and
/// deleted only at the tip checked. Returns the first error that kept a
/// branch (the others are still tried and reported).
fn delete_merged(
    ctx: &Ctx,
    report: &mut BranchesReport,
    out: &mut Out<'_>,
) -> Result<Option<Error>> {
    if !report.branches.iter().any(|l| l.deletable) {
        for l in &mut report.branches {
            l.kept = Some(KeptCode::NotMerged);
        }
        return Ok(None);
    }
    ctx.ensure_loop_dir()?;
    let _ops = OpsLock::acquire(&ctx.loop_dir(), |waiting| {
        out.note(format_args!("{waiting}"))
    })?;
    let mutex = ManifestMutex::acquire(&ctx.loop_dir())?;
    let recorded = recorded_branches(ctx)?;
    let checked_out = ctx.repo.checked_out_branches()?;
    let mut detector = crate::git::merged::Detector::new(ctx.repo.gix())?;
    let mut events = Vec::new();
    let mut first_error = None;
    for l in &mut report.branches {
        l.checked_out = checked_out.contains(&l.branch);
        l.kept = first_reason(l, recorded.contains(&l.branch), l.checked_out);
        if l.kept.is_some() {
            continue;
        }
        // Judged again here: the base may have been rewound since the
        // listing. The kernel keeps the tip in the trash, then deletes.
        let judged = crate::safety::branch::judge(
            ctx.repo.gix(),
            &mut detector,
            &l.branch,
            l.tip_id,
            &report.base,
        )?;
        use crate::safety::branch::{Deletion, KeepCode};
        match crate::safety::branch::delete(&ctx.repo, &l.branch, l.tip_id, &judged, &checked_out) {
            Ok(Deletion::Deleted { trash_ref, .. }) => {
                l.deleted = true;
                let id = crate::runid::of_branch(&l.branch).unwrap_or(&l.branch);
                let mut e = crate::events::Event::new(crate::events::EventKind::BranchDelete, id);
                e.detail = Some(match l.merged_by {
                    Some(by) => format!(
                        "leftover branch {} deleted at {} (merged into {}: {by}); kept as {trash_ref}",
                        l.branch, l.tip, report.base
                    ),
                    None => format!(
                        "leftover branch {} deleted at {} (no commits of its own; in {}); kept as {trash_ref}",
                        l.branch, l.tip, report.base
                    ),
                });
                events.push(e);
            }
            Ok(Deletion::Kept(KeepCode::NotMerged, _)) => {
                l.merged = Some(false);
                l.merged_by = None;
                l.deletable = false;
                l.kept = Some(KeptCode::NotMerged);
            }
            Ok(Deletion::Kept(KeepCode::CheckedOut, _)) => {
                l.kept = Some(KeptCode::CheckedOut);
            }
            Ok(Deletion::Kept(KeepCode::Moved, _)) => {
                l.kept = Some(KeptCode::Moved);
                out.note(format_args!(
                    "{} moved after it was checked; it is kept",
                    l.branch
                ));
            }
            Err(e) => {
                l.kept = Some(KeptCode::Error);
                first_error.get_or_insert(e);
            }
        }
    }
    ctx.log_events(&events, out);
    drop(mutex);
    Ok(first_error)
}
