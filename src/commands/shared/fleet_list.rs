//! `git loop list --fleet` (and `watch --fleet`): every machine's published runs
//! ([`crate::ops::fleet::see`]): MACHINE, ID, STATUS, ACTIVITY and its age,
//! AHEAD/BEHIND its base (as its machine saw it), PUBLISHED (age); this
//! machine's runs marked `*`. Every value from the remote is escaped. A
//! skipped record is a `warning:` line on stderr (with `--json`, in
//! `skipped`).

use serde::Serialize;

use crate::ctx::Ctx;
use crate::error::Result;
use crate::ops::fleet::see::FleetOutcome;
use crate::output::{Out, Report};
use crate::style::{Cell, escape, write_table};

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct FleetList(pub FleetOutcome);

fn age(now: jiff::Timestamp, at: &str) -> String {
    at.parse::<jiff::Timestamp>()
        .map_or_else(|_| "-".to_owned(), |t| crate::time::age(now, t))
}

impl Report for FleetList {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        for s in &self.0.skipped {
            let line = format!("warning: skipped {} ({}): {}", s.name, s.code, s.reason);
            writeln!(out.stderr, "{}", escape(&line))?;
        }
        if self.0.runs.is_empty() {
            out.note(format_args!("no runs published on {}", self.0.remote));
            return Ok(());
        }
        self.write_runs(out.stdout, out.color)
    }
}

impl FleetList {
    /// The table of the runs (`list --fleet`'s, `watch --fleet`'s view).
    pub fn write_runs(
        &self,
        w: &mut dyn std::io::Write,
        color: crate::style::Color<'_>,
    ) -> std::io::Result<()> {
        let now = crate::time::now();
        let rows: Vec<[Cell<'_>; 7]> = self
            .0
            .runs
            .iter()
            .map(|r| {
                let rec = &r.record;
                let mark = if r.mine { "*" } else { " " };
                let activity = rec.activity.as_ref().map_or_else(
                    || "-".to_owned(),
                    |a| format!("{} {}", a.activity.as_str(), age(now, &a.at)),
                );
                let counts = match (rec.ahead, rec.behind) {
                    (Some(a), Some(b)) => format!("+{a}/-{b}"),
                    _ => "-".to_owned(),
                };
                [
                    (format!("{mark} {}", escape(&rec.machine)).into(), ""),
                    (escape(&rec.id).into_owned().into(), ""),
                    (rec.status.as_str().into(), ""),
                    (activity.into(), ""),
                    (counts.into(), ""),
                    (age(now, &rec.published_at).into(), ""),
                    (escape(&rec.base_branch).into_owned().into(), ""),
                ]
            })
            .collect();
        let header = [
            "  MACHINE",
            "ID",
            "STATUS",
            "ACTIVITY",
            "AHEAD/BEHIND",
            "PUBLISHED",
            "BASE",
        ];
        write_table(w, header, &rows, color)
    }
}

pub fn exec(ctx: &Ctx) -> Result<FleetList> {
    Ok(FleetList(crate::ops::fleet::see::survey(ctx)?))
}
