//! `git loop sync [<ID>…]`: bring each run's base into its branch (see
//! [`crate::ops::sync`] for the flow and its safety), and the report of it
//! ([`SyncReport`]): one line per run in order, synced or skipped, and a
//! summary on stderr; exit 1 when a run was skipped (`up-to-date` aside).

use std::path::Path;

use serde::Serialize;

use super::shared::land::Gate;
use crate::cli::SyncArgs;
use crate::config::SyncStrategy;
use crate::ctx::Ctx;
use crate::error::{Failure, Result};
use crate::ops::sync::{Code, Fate, Skipped, SyncOutcome, SyncRequest, Synced, Which};
use crate::output::{Out, Report};
use crate::style::escape;

/// `sync --json`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SyncReport {
    pub dry_run: bool,
    /// `rebase` or `merge`: how every run was (would be) synced.
    pub strategy: SyncStrategy,
    /// The runs synced (in a dry run: that would sync), in order.
    pub synced: Vec<SyncedRun>,
    /// The runs not synced, in order, with their code (`up-to-date`
    /// among them).
    pub skipped: Vec<SkippedRun>,
    /// Why the command exits 1: a run skipped (`up-to-date` aside), or a
    /// failure part way (what synced before it is listed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Failure>,
    /// Every run in the order taken, for the text.
    #[serde(skip)]
    order: Vec<String>,
}

/// A run synced (would sync).
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SyncedRun {
    pub id: String,
    /// Its branch's tip before.
    pub from: String,
    /// Its branch's tip after (in a dry run: the commit built in memory).
    pub to: String,
    /// Its base, as recorded (`main`, `origin/main`).
    pub base: String,
    /// The base's tip brought in.
    pub base_tip: String,
    pub strategy: SyncStrategy,
    /// The trash entry that keeps `from` (`git loop trash restore` undoes
    /// the sync); `null` in a dry run.
    pub trash_ref: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gate: Option<Gate>,
    /// What failed after the branch moved (the sync stands).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// A run not synced: nothing of it changed.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SkippedRun {
    pub id: String,
    /// A sync code (docs/cli.md): `up-to-date`, `conflict`, `dirty`, …
    pub code: Code,
    pub reason: String,
    /// The paths in question: a conflict's, or the worktree's changes or
    /// untracked files in the way.
    pub paths: Vec<String>,
    /// Its base, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gate: Option<Gate>,
}

/// Sync the runs `args` names; with none, the run whose worktree holds
/// `dir` (where the command runs from), else every run in `--status`.
pub fn exec(ctx: &Ctx, args: &SyncArgs, dir: &Path, out: &mut Out<'_>) -> Result<SyncReport> {
    let inferred;
    let which = if !args.run_ids.is_empty() {
        Which::Runs(&args.run_ids)
    } else if let (None, Ok(id)) = (&args.status, crate::ops::infer::run_at(ctx, dir, "")) {
        inferred = [id];
        Which::Runs(&inferred)
    } else {
        Which::Status(args.status.as_ref().map(|s| s.0.as_slice()))
    };
    let request = SyncRequest {
        which,
        strategy: args.strategy,
        gate: args.gate.as_deref(),
        fetch: args.fetch,
        dry_run: args.dry_run,
        keep_going: args.keep_going,
    };
    let outcome = crate::ops::sync::sync(ctx, &request, &mut out.notes())?;
    Ok(SyncReport::new(outcome))
}

impl SyncReport {
    /// The report of `outcome`.
    pub fn new(outcome: SyncOutcome) -> SyncReport {
        let mut report = SyncReport {
            dry_run: outcome.dry_run,
            strategy: outcome.strategy,
            synced: Vec::new(),
            skipped: Vec::new(),
            error: outcome.error.as_ref().map(Failure::from),
            order: Vec::new(),
        };
        for (id, fate) in outcome.runs {
            report.order.push(id.clone());
            match fate {
                Fate::Synced(synced) => report.synced.push(synced_run(id, *synced)),
                Fate::Skipped(skipped) => report.skipped.push(skipped_run(id, skipped)),
            }
        }
        let failed: Vec<&SkippedRun> = report
            .skipped
            .iter()
            .filter(|s| s.code != Code::UpToDate)
            .collect();
        if report.error.is_none() && !failed.is_empty() {
            let runs = report.order.len();
            let which: Vec<String> = failed
                .iter()
                .map(|s| format!("{} ({})", s.id, s.code))
                .collect();
            let verb = if report.dry_run {
                "would not sync"
            } else {
                "did not sync"
            };
            report.error = Some(Failure {
                code: failed[0].code.as_str(),
                message: format!(
                    "{} of {runs} run{} {verb}: {}",
                    failed.len(),
                    plural(runs),
                    which.join(", ")
                ),
                help: None,
            });
        }
        report
    }
}

fn synced_run(id: String, s: Synced) -> SyncedRun {
    SyncedRun {
        id,
        from: s.from.to_string(),
        to: s.to.to_string(),
        base: s.base,
        base_tip: s.onto.to_string(),
        strategy: s.strategy,
        trash_ref: s.trash_ref,
        gate: s.gate.map(Gate::from),
        notes: s.problems,
    }
}

fn skipped_run(id: String, s: Skipped) -> SkippedRun {
    SkippedRun {
        id,
        code: s.code,
        reason: s.reason,
        paths: s.paths,
        base: s.base,
        gate: s.gate.map(Gate::from),
    }
}

fn short(id: &str) -> &str {
    &id[..id.len().min(7)]
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

impl Report for SyncReport {
    fn failed_part_way(&self) -> Option<&Failure> {
        self.error.as_ref()
    }

    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        for id in &self.order {
            let shown = escape(id);
            if let Some(s) = self.synced.iter().find(|s| &s.id == id) {
                // `-q` silences what went as asked (not a dry run's answer).
                if out.quiet && !self.dry_run {
                    continue;
                }
                let verb = if self.dry_run { "would sync" } else { "synced" };
                writeln!(
                    out.stdout,
                    "{shown}: {verb} with {} ({}) {}..{}",
                    escape(&s.base),
                    s.strategy,
                    short(&s.from),
                    short(&s.to)
                )?;
                for note in &s.notes {
                    out.note(format_args!("  {id}: {note}"));
                }
            } else if let Some(s) = self.skipped.iter().find(|s| &s.id == id) {
                let what = match s.code {
                    Code::UpToDate => "up to date".to_owned(),
                    Code::NotAttempted => "not attempted".to_owned(),
                    code => format!("skipped ({code})"),
                };
                writeln!(out.stdout, "{shown}: {what}: {}", escape(&s.reason))?;
            }
        }
        self.summary(out);
        Ok(())
    }
}

impl SyncReport {
    /// The summary line on stderr: how many synced, and what became of
    /// the rest.
    fn summary(&self, out: &mut Out<'_>) {
        let verb = if self.dry_run { "would sync" } else { "synced" };
        let runs = self.order.len();
        let count = |code: Option<Code>| {
            self.skipped
                .iter()
                .filter(|s| match code {
                    Some(code) => s.code == code,
                    None => !matches!(s.code, Code::UpToDate | Code::NotAttempted),
                })
                .count()
        };
        let mut rest = Vec::new();
        for (n, what) in [
            (count(Some(Code::UpToDate)), "up to date"),
            (count(None), "skipped"),
            (count(Some(Code::NotAttempted)), "not attempted"),
        ] {
            if n > 0 {
                rest.push(format!("{n} {what}"));
            }
        }
        let rest = if rest.is_empty() {
            String::new()
        } else {
            format!(" ({})", rest.join(", "))
        };
        out.note(format_args!(
            "{verb} {} of {runs} run{}{rest}",
            self.synced.len(),
            plural(runs)
        ));
    }
}
