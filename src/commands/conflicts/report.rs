//! What `conflicts` returns, and how it is said.
//!
//! JSON: `{"runs":[{"id","base","baseConflicts":[files],"conflictsWith":[ids]}],
//! "pairs":[{"runs":[a,b],"base","files":[files]}], "pairsChecked":n,
//! "landingOrder":[ids], "skipped":[{"id","reason"}]}` — `pairs` holds the
//! conflicting pairs only (`pairsChecked` counts all), runs and pairs by id.
//!
//! Text: one line per run that conflicts with its base, one per conflicting
//! pair, the landing order, and a summary line naming the statuses looked
//! at; ids and paths escaped. When no run had those statuses, a line says
//! how many runs of each other status there are and how to choose them.

use serde::Serialize;

use crate::ops::conflicts::ConflictsOutcome;
use crate::output::{Out, Report};
use crate::style::escape;

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConflictsReport {
    pub runs: Vec<RunConflicts>,
    pub pairs: Vec<PairConflict>,
    pub pairs_checked: usize,
    pub landing_order: Vec<String>,
    pub skipped: Vec<Skipped>,
    /// The statuses of the runs looked at (`--status`; default `active`).
    pub statuses: Vec<String>,
    /// How many runs of each other status were not looked at.
    #[serde(skip)]
    pub not_looked_at: Vec<(String, usize)>,
}

/// One run checked.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunConflicts {
    pub id: String,
    /// The branch it lands in.
    pub base: String,
    /// Files that conflict when it is merged into its base as it is now.
    pub base_conflicts: Vec<String>,
    /// The runs it conflicts with, by id.
    pub conflicts_with: Vec<String>,
}

/// Two runs that would conflict when both land, and where.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PairConflict {
    /// The two ids; the first lands first.
    pub runs: [String; 2],
    pub base: String,
    pub files: Vec<String>,
}

/// A run of the statuses asked for that was not checked, and why.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Skipped {
    pub id: String,
    pub reason: String,
}

impl From<ConflictsOutcome> for ConflictsReport {
    fn from(o: ConflictsOutcome) -> ConflictsReport {
        ConflictsReport {
            runs: o
                .runs
                .into_iter()
                .map(|r| RunConflicts {
                    id: r.id,
                    base: r.base,
                    base_conflicts: r.base_conflicts,
                    conflicts_with: r.conflicts_with,
                })
                .collect(),
            pairs: o
                .pairs
                .into_iter()
                .map(|p| PairConflict {
                    runs: p.runs,
                    base: p.base,
                    files: p.files,
                })
                .collect(),
            pairs_checked: o.pairs_checked,
            landing_order: o.landing_order,
            skipped: o
                .skipped
                .into_iter()
                .map(|s| Skipped {
                    id: s.id,
                    reason: s.reason,
                })
                .collect(),
            statuses: o.statuses.iter().map(|s| s.as_str().to_owned()).collect(),
            not_looked_at: o
                .not_looked_at
                .iter()
                .map(|(s, n)| (s.as_str().to_owned(), *n))
                .collect(),
        }
    }
}

impl Report for ConflictsReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        let list = |items: &[String]| {
            items
                .iter()
                .map(|s| escape(s).into_owned())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let with_base: Vec<&RunConflicts> = self
            .runs
            .iter()
            .filter(|r| !r.base_conflicts.is_empty())
            .collect();
        if !with_base.is_empty() {
            writeln!(out.stdout, "conflicts with the base:")?;
            for r in &with_base {
                writeln!(
                    out.stdout,
                    "  {} (into {}): {}",
                    escape(&r.id),
                    escape(&r.base),
                    list(&r.base_conflicts)
                )?;
            }
        }
        if !self.pairs.is_empty() {
            writeln!(out.stdout, "conflicting pairs:")?;
            for p in &self.pairs {
                writeln!(
                    out.stdout,
                    "  {} + {} (into {}): {}",
                    escape(&p.runs[0]),
                    escape(&p.runs[1]),
                    escape(&p.base),
                    list(&p.files)
                )?;
            }
        }
        if self.landing_order.len() > 1 {
            writeln!(
                out.stdout,
                "landing order (fewest conflicts first): {}",
                list(&self.landing_order)
            )?;
        }
        for s in &self.skipped {
            writeln!(
                out.stdout,
                "skipped {}: {}",
                escape(&s.id),
                escape(&s.reason)
            )?;
        }
        writeln!(out.stdout, "{}", self.summary(with_base.len()))?;
        if self.runs.is_empty() && self.skipped.is_empty() && !self.not_looked_at.is_empty() {
            let others: Vec<String> = self
                .not_looked_at
                .iter()
                .map(|(status, n)| format!("{n} {status}"))
                .collect();
            let first = &self.not_looked_at[0].0;
            writeln!(
                out.stdout,
                "not looked at: {} (`--status {first}` checks those)",
                others.join(", ")
            )?;
        }
        Ok(())
    }
}

impl ConflictsReport {
    /// The last line: how many runs and pairs, how many conflict.
    fn summary(&self, with_base: usize) -> String {
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let which = self.statuses.join(" or ");
        format!(
            "{}, {}: {} conflicting with the base, {}",
            plural(
                self.runs.len(),
                &format!("{which} run"),
                &format!("{which} runs")
            ),
            plural(self.pairs_checked, "pair", "pairs"),
            plural(with_base, "run", "runs"),
            plural(self.pairs.len(), "conflicting pair", "conflicting pairs"),
        )
    }
}
