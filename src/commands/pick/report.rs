//! `pick`'s report: `--json` is
//! `{"dryRun","task","winner":{…},"land"?:{…},"siblings":[…],"error"?}`
//! (docs/cli.md), built last from [`crate::ops::pick`]'s outcome; `land` is
//! land's own document for the winner. The text: land's lines (with
//! `--land`), the winner's line with what `judge` found, one line per
//! sibling, and a summary on stderr.

use serde::Serialize;

use crate::commands::shared::land::LandReport;
use crate::error::Failure;
use crate::events::Judgement;
use crate::manifest::Status;
use crate::ops::pick::PickOutcome;
use crate::output::{Out, Report};
use crate::style::escape;
use crate::worktree::salvage::Salvaged;

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PickReport {
    pub dry_run: bool,
    /// The task the winner is an attempt of.
    pub task: String,
    pub winner: PickedWinner,
    /// With `--land`: land's document for the winner. A landing that did
    /// not happen ends the pick there: the siblings are left as they were.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub land: Option<LandReport>,
    /// The other active attempts of the task, in attempt order.
    pub siblings: Vec<PickedSibling>,
    /// Why the command exits 1: the landing did not happen (land's code),
    /// or a failure part way (what was done before it is listed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Failure>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PickedWinner {
    pub id: String,
    /// Its status before the pick (`active`).
    pub from: Status,
    /// Its status after: `escalated`, `merged` (landed), or unchanged when
    /// the landing did not happen.
    pub to: Status,
    /// Whether it passed its gate when last judged (`null`: not judged).
    /// A winner that failed it is picked all the same.
    pub gate_passed: Option<bool>,
    /// Its latest `judge` result, as the event log holds it (`null`: not
    /// judged).
    pub judgement: Option<Judgement>,
    /// Its branch's tip, when it moved since it was judged (the judgement
    /// is of an older commit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moved_since_judged: Option<String>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PickedSibling {
    pub id: String,
    /// Its status before the pick (`active`).
    pub from: Status,
    /// Its status after: `rejected`, or unchanged when the pick stopped
    /// before it.
    pub to: Status,
    /// Its worktree: `kept` (no `--salvage`), `removed` (its entry dropped,
    /// its branch kept), or `skipped` (removal's rules kept it: `skipped`
    /// says why).
    pub worktree: &'static str,
    /// With `--salvage`: where its uncommitted work was saved before the
    /// removal (`git loop restore <id>` brings it back).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub salvage: Option<Salvaged>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<SiblingSkip>,
}

/// Why a sibling's worktree was kept: removal's skip code and git's reason.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct SiblingSkip {
    pub code: String,
    pub reason: String,
}

impl PickReport {
    /// The report of `outcome`.
    pub fn new(outcome: PickOutcome) -> PickReport {
        let PickOutcome {
            dry_run,
            task,
            winner,
            landing,
            siblings,
            reclaimed,
            error,
        } = outcome;
        let land = landing.map(LandReport::new);
        let mut error = error.as_ref().map(Failure::from);
        if let Some(Failure {
            code,
            message,
            help,
        }) = land.as_ref().and_then(|l| l.error.as_ref())
        {
            error.get_or_insert(Failure {
                code,
                message: message.clone(),
                help: help.clone(),
            });
        }
        let mut removed = Vec::new();
        let mut skipped = Vec::new();
        if let Some(r) = reclaimed {
            if let Some(e) = &r.error {
                error.get_or_insert(Failure::from(e));
            }
            removed = r.removed;
            skipped = r.skipped;
        }
        let siblings = siblings
            .into_iter()
            .map(|s| {
                let mut sibling = PickedSibling {
                    id: s.id,
                    from: s.previous,
                    to: s.status,
                    worktree: "kept",
                    salvage: None,
                    skipped: None,
                };
                if let Some(i) = removed.iter().position(|r| r.entry.id == sibling.id) {
                    sibling.worktree = "removed";
                    sibling.salvage = removed.swap_remove(i).salvaged;
                } else if let Some(k) = skipped.iter().find(|k| k.id == sibling.id) {
                    sibling.worktree = "skipped";
                    sibling.skipped = Some(SiblingSkip {
                        code: k.code.as_str().to_owned(),
                        reason: k.reason.clone(),
                    });
                }
                sibling
            })
            .collect();
        PickReport {
            dry_run,
            task,
            winner: PickedWinner {
                id: winner.id,
                from: winner.previous,
                to: winner.status,
                gate_passed: winner.judgement.as_ref().map(|j| j.passed),
                judgement: winner.judgement,
                moved_since_judged: winner.moved_since_judged,
            },
            land,
            siblings,
            error,
        }
    }

    /// Whether the winner was picked (its landing, with `--land`, happened).
    fn picked(&self) -> bool {
        self.winner.to != self.winner.from
    }
}

/// What `judge` found, as the winner's line says it.
fn judged(w: &PickedWinner) -> String {
    let Some(j) = &w.judgement else {
        return "not judged".to_owned();
    };
    if j.passed {
        return format!("gate passed when judged, rank {}", j.rank);
    }
    let how = match (j.timed_out, j.exit_code) {
        (true, _) => "timed out".to_owned(),
        (false, Some(code)) => format!("exit {code}"),
        (false, None) => "killed".to_owned(),
    };
    format!(
        "gate FAILED when judged ({how}), rank {}; picked anyway",
        j.rank
    )
}

impl Report for PickReport {
    fn failed_part_way(&self) -> Option<&Failure> {
        self.error.as_ref()
    }

    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        if let Some(land) = &self.land {
            land.human(out)?;
        }
        let would = if self.dry_run { "would be " } else { "" };
        let w = &self.winner;
        if !self.picked() {
            out.note(format_args!(
                "{}: not picked ({}); nothing else {}changed",
                escape(&w.id),
                judged(w),
                if self.dry_run { "would be " } else { "" }
            ));
            return out.stdout.flush();
        }
        writeln!(
            out.stdout,
            "{}: {would}picked, {} ({})",
            escape(&w.id),
            w.to,
            judged(w)
        )?;
        if let Some(tip) = &w.moved_since_judged {
            let judged_at = w.judgement.as_ref().map_or("", |j| &j.head);
            out.note(format_args!(
                "  note: {} was judged at {}; its branch is now at {}",
                escape(&w.id),
                &judged_at[..judged_at.len().min(7)],
                &tip[..tip.len().min(7)]
            ));
        }
        for s in &self.siblings {
            let mut line = format!("{}: {would}{}", escape(&s.id), s.to);
            match (s.worktree, &s.salvage, &s.skipped) {
                ("removed", Some(salvage), _) => line.push_str(&format!(
                    "; worktree {would}removed, its changes salvaged to {}{}",
                    salvage.refname,
                    salvage
                        .commit
                        .as_ref()
                        .map_or(String::new(), |c| format!(" ({})", &c[..c.len().min(7)]))
                )),
                ("removed", None, _) => line.push_str(&format!("; worktree {would}removed")),
                (_, _, Some(skip)) => line.push_str(&format!(
                    "; worktree kept ({}): {}",
                    skip.code,
                    escape(&skip.reason)
                )),
                _ => {}
            }
            writeln!(out.stdout, "{line}")?;
        }
        let n = self.siblings.len();
        out.note(format_args!(
            "{} {} of task {}; {n} sibling{} {}rejected",
            if self.dry_run { "would pick" } else { "picked" },
            escape(&w.id),
            escape(&self.task),
            if n == 1 { "" } else { "s" },
            would
        ));
        out.stdout.flush()
    }
}
