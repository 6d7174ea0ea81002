//! `land`'s report (and, for its winner, part of `pick --land`'s): `--json` is
//! `{"dryRun","into","strategy","landed":[…],"skipped":[…],"notAttempted":[ids]}`
//! (docs/cli.md), built from the operation's outcome; the text is one line
//! per run, in the order they were taken, then a summary on stderr.

use serde::Serialize;

use crate::config::LandStrategy;
use crate::error::Failure;
use crate::ops::land::gate::GateRun;
use crate::ops::land::{BranchFate, Fate, LandOutcome, Landed, Skipped, WorktreeFate};
use crate::output::{Out, Report};
use crate::style::escape;

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LandReport {
    pub dry_run: bool,
    /// The branch the runs landed in, when they all land in one (`null`:
    /// each in its own base, named per run).
    pub into: Option<String>,
    pub strategy: LandStrategy,
    /// In the order they landed (in a dry run: would land).
    pub landed: Vec<LandedRun>,
    /// The runs that did not land, in order, with their code.
    pub skipped: Vec<SkippedRun>,
    /// The runs not tried after a skip (without `--keep-going`) or a
    /// failure, in order.
    pub not_attempted: Vec<String>,
    /// Why the command exits 1: a run did not land, or a failure part way
    /// (what landed before it is listed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Failure>,
    /// Every run in the order taken, for the text.
    #[serde(skip)]
    order: Vec<String>,
}

/// A run that landed (would land).
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LandedRun {
    pub id: String,
    /// The branch it landed in.
    pub into: String,
    /// The target's tip the landing was built on.
    pub from: String,
    /// The target's tip after it (in a dry run: the commit built in memory).
    pub to: String,
    /// How many commits it added to the target.
    pub commits: usize,
    /// Whether the target was pushed to its upstream (`false` without
    /// `--push`; with it and `false`, a note says why: `not-pushed: …`).
    pub pushed: bool,
    /// Where it was pushed, when it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pushed_to: Option<PushedTo>,
    /// Its worktree: `removed`, `kept` (`--keep`), `none` (it had none),
    /// `dry-run`, or the skip code removal's rules kept it with.
    pub worktree: String,
    /// Its branch: `deleted` (its tip in the trash: `trashRef`), `kept`, `dry-run`.
    pub branch: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trash_ref: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gate: Option<Gate>,
    /// Why the worktree or the branch was kept, and what failed after the
    /// target moved (the landing stands).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// Where a landing was pushed (`--push`).
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PushedTo {
    /// The remote, as its upstream names it (`origin`).
    pub remote: String,
    /// The branch there (`main`).
    pub branch: String,
    /// git's word for the remote branch's update: `<old>..<new>`
    /// (abbreviated ids), `[new branch]`.
    pub update: String,
    /// How many times the landing was built again on the remote's tip
    /// because the remote had moved (0: pushed as first built).
    pub rebuilds: usize,
}

/// A run that did not land.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SkippedRun {
    pub id: String,
    /// `no-target`, `no-branch`, `dirty`, `operation-in-progress`, `empty`,
    /// `conflict`, `not-fast-forward`, `has-merges`, `gate-failed`,
    /// `target-moved`, `target-dirty`, `target-ignored`, `target-busy`.
    pub code: &'static str,
    pub message: String,
    /// The paths in question: a conflict's, or the target checkout's local
    /// changes or ignored files in the way.
    pub paths: Vec<String>,
    /// The branch it was to land in, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub into: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gate: Option<Gate>,
}

/// How the gate ended.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Gate {
    pub command: String,
    pub passed: bool,
    /// `null` when it died of a signal or was killed at the timeout.
    pub exit_code: Option<i32>,
    pub timed_out: bool,
    pub seconds: f64,
    /// The last lines of its output.
    pub tail: String,
}

impl From<GateRun> for Gate {
    fn from(g: GateRun) -> Gate {
        Gate {
            command: g.command,
            passed: g.passed,
            exit_code: g.exit_code,
            timed_out: g.timed_out,
            seconds: g.seconds,
            tail: g.tail,
        }
    }
}

impl LandReport {
    /// The report of `outcome`.
    pub fn new(outcome: LandOutcome) -> LandReport {
        let mut report = LandReport {
            dry_run: outcome.dry_run,
            into: outcome.into,
            strategy: outcome.strategy,
            landed: Vec::new(),
            skipped: Vec::new(),
            not_attempted: Vec::new(),
            error: outcome.error.as_ref().map(Failure::from),
            order: Vec::new(),
        };
        let not_pushed = not_pushed(&outcome.runs);
        for (id, fate) in outcome.runs {
            report.order.push(id.clone());
            match fate {
                Fate::Landed(landed) => report.landed.push(landed_run(id, *landed)),
                Fate::Skipped(skipped) => report.skipped.push(skipped_run(id, skipped)),
                Fate::NotAttempted => report.not_attempted.push(id),
            }
        }
        if report.error.is_none() && !report.skipped.is_empty() {
            let runs = report.order.len();
            let which: Vec<String> = report
                .skipped
                .iter()
                .map(|s| format!("{} ({})", s.id, s.code))
                .collect();
            let verb = if report.dry_run {
                "would not land"
            } else {
                "did not land"
            };
            report.error = Some(Failure {
                code: report.skipped[0].code,
                message: format!(
                    "{} of {runs} run{} {verb}: {}",
                    report.skipped.len() + report.not_attempted.len(),
                    if runs == 1 { "" } else { "s" },
                    which.join(", ")
                ),
                help: None,
            });
        }
        report.error = report.error.or(not_pushed);
        report
    }
}

/// `--push` and a landing was not pushed (landed locally only): the
/// `not-pushed` failure naming each with its reason.
fn not_pushed(runs: &[(String, Fate)]) -> Option<Failure> {
    let which: Vec<String> = runs
        .iter()
        .filter_map(|(id, fate)| match fate {
            Fate::Landed(l) => l.not_pushed.as_ref().map(|r| format!("{id} ({r})")),
            _ => None,
        })
        .collect();
    (!which.is_empty()).then(|| Failure {
        code: "not-pushed",
        message: format!("landed locally but not pushed: {}", which.join("; ")),
        help: None,
    })
}

fn landed_run(id: String, l: Landed) -> LandedRun {
    let mut notes = Vec::new();
    let worktree = match l.worktree {
        WorktreeFate::Removed => "removed".to_owned(),
        WorktreeFate::Kept => "kept".to_owned(),
        WorktreeFate::None => "none".to_owned(),
        WorktreeFate::DryRun => "dry-run".to_owned(),
        WorktreeFate::Skipped { code, reason } => {
            notes.push(format!("worktree kept: {reason}"));
            code
        }
    };
    let (branch, trash_ref) = match l.branch {
        BranchFate::Deleted { trash_ref, .. } => ("deleted", Some(trash_ref)),
        BranchFate::Kept { reason } => {
            notes.push(format!("branch kept: {reason}"));
            ("kept", None)
        }
        BranchFate::DryRun => ("dry-run", None),
    };
    if let Some(reason) = &l.not_pushed {
        notes.push(format!("not-pushed: {reason}"));
    }
    notes.extend(l.problems);
    let pushed_to = l.pushed_to.map(|p| PushedTo {
        branch: p
            .remote_ref
            .strip_prefix("refs/heads/")
            .unwrap_or(&p.remote_ref)
            .to_owned(),
        remote: p.remote,
        update: p.summary,
        rebuilds: p.rebuilds,
    });
    if let Some(next) = l.next {
        notes.push(format!("to finish: {next}"));
    }
    LandedRun {
        id,
        into: l.into,
        from: l.from.to_string(),
        to: l.to.to_string(),
        commits: l.commits,
        pushed: l.pushed,
        pushed_to,
        worktree,
        branch: branch.to_owned(),
        trash_ref,
        gate: l.gate.map(Gate::from),
        notes,
    }
}

fn skipped_run(id: String, s: Skipped) -> SkippedRun {
    SkippedRun {
        id,
        code: s.code.as_str(),
        message: s.message,
        paths: s.paths,
        into: s.into,
        gate: s.gate.map(Gate::from),
    }
}

fn short(id: &str) -> &str {
    &id[..id.len().min(7)]
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

impl LandReport {
    /// The line of the landed run `l` (`shown`: its id, escaped): where it
    /// landed and how, where it was pushed, what became of its worktree and
    /// branch.
    fn landed_line(&self, shown: &str, l: &LandedRun) -> String {
        let verb = if self.dry_run { "would land" } else { "landed" };
        let mut line = format!(
            "{shown}: {verb} in {} ({}, {} commit{}) {}..{}",
            escape(&l.into),
            self.strategy,
            l.commits,
            plural(l.commits),
            short(&l.from),
            short(&l.to)
        );
        if let Some(p) = &l.pushed_to {
            let rebuilt = match p.rebuilds {
                0 => String::new(),
                n => format!(
                    "rebuilt on {}'s moved {} ({n} time{}) and ",
                    escape(&p.remote),
                    escape(&p.branch),
                    plural(n)
                ),
            };
            line.push_str(&format!(
                "; {rebuilt}pushed to {} {} {}",
                escape(&p.remote),
                escape(&p.branch),
                escape(&p.update)
            ));
        }
        if !self.dry_run {
            line.push_str(&match l.worktree.as_str() {
                "removed" => "; worktree removed".to_owned(),
                "none" => String::new(),
                "kept" => "; worktree kept".to_owned(),
                code => format!("; worktree kept ({code})"),
            });
            line.push_str(match (l.branch.as_str(), l.worktree.as_str()) {
                ("deleted", _) => ", branch deleted (in the trash)",
                (_, "kept") => "",
                _ => ", branch kept",
            });
        }
        line
    }
}

impl Report for LandReport {
    fn failed_part_way(&self) -> Option<&Failure> {
        self.error.as_ref()
    }

    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        for id in &self.order {
            let shown = escape(id);
            if let Some(l) = self.landed.iter().find(|l| &l.id == id) {
                // `-q` silences what went as asked (not a dry run's answer).
                if out.quiet && !self.dry_run {
                    continue;
                }
                let line = self.landed_line(&shown, l);
                writeln!(out.stdout, "{line}")?;
                for note in &l.notes {
                    out.note(format_args!("  {id}: {note}"));
                }
            } else if let Some(s) = self.skipped.iter().find(|s| &s.id == id) {
                writeln!(
                    out.stdout,
                    "{shown}: skipped ({}): {}",
                    s.code,
                    escape(&s.message)
                )?;
            } else {
                writeln!(out.stdout, "{shown}: not attempted")?;
            }
        }
        let verb = if self.dry_run { "would land" } else { "landed" };
        let runs = self.order.len();
        let mut rest = Vec::new();
        if !self.skipped.is_empty() {
            rest.push(format!("{} skipped", self.skipped.len()));
        }
        if !self.not_attempted.is_empty() {
            rest.push(format!("{} not attempted", self.not_attempted.len()));
        }
        let rest = if rest.is_empty() {
            String::new()
        } else {
            format!(" ({})", rest.join(", "))
        };
        let into = match &self.into {
            Some(into) => format!(" in {into}"),
            None => String::new(),
        };
        out.note(format_args!(
            "{verb} {} of {runs} run{}{into}{rest}",
            self.landed.len(),
            plural(runs)
        ));
        Ok(())
    }
}

impl<'a> From<&'a crate::cli::LandOptions> for crate::ops::land::Landing<'a> {
    /// `land`'s and `pick --land`'s options, as the landing takes them.
    fn from(o: &'a crate::cli::LandOptions) -> Self {
        crate::ops::land::Landing {
            into: o.into.as_deref(),
            strategy: o.strategy,
            gate: o.gate.as_deref(),
            message: o.message.as_deref(),
            keep: o.keep,
            push: o.push,
        }
    }
}
