//! `git loop log [<RUN_ID>]` — the event log, oldest first. Read-only, no
//! mutex. Malformed lines are reported on stderr and skipped.
//!
//! Times are printed at one width, to the second (`2026-11-30T19:30:50Z`),
//! so the columns line up; `--json` keeps each time as it was stored.
//!
//! `log <RUN_ID>` with no event naming that id says so on stderr and exits
//! 0: an empty history is an answer, not a failure (the id may be valid and
//! simply not yet logged, or the log may predate it); stdout stays empty and
//! `--json` prints `"events":[]` as for any other id.

use serde::Serialize;

use crate::ctx::Ctx;
use crate::error::Result;
use crate::events::{self, Event};
use crate::output::{Out, Report};

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct LogReport {
    pub events: Vec<Event>,
    #[serde(rename = "malformedLines")]
    pub malformed_lines: Vec<usize>,
}

impl Report for LogReport {
    /// One line per event. Every field is text from the log file, which
    /// anyone can write: the line is escaped whole ([`crate::style::escape`]),
    /// so no field can drive the terminal or split the line.
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        for e in &self.events {
            let mut line = format!(
                "{} {:<13} {}",
                crate::time::fixed_width(&e.at),
                e.event,
                e.id
            );
            if let (Some(from), Some(to)) = (&e.from, &e.to) {
                line.push_str(&format!(": {from} -> {to}"));
            }
            if let Some(code) = &e.code {
                line.push_str(&format!(" ({code})"));
            }
            if let Some(detail) = &e.detail {
                line.push_str(&format!(": {detail}"));
            }
            writeln!(out.stdout, "{}", crate::style::escape(&line))?;
        }
        Ok(())
    }
}

pub fn run(ctx: &Ctx, id: Option<&str>, out: &mut Out<'_>) -> Result<LogReport> {
    let dir = ctx.loop_dir();
    let (mut events, bad) = if ctx.loop_dir_exists()? {
        events::read(&dir)?
    } else {
        (Vec::new(), Vec::new())
    };
    for line in &bad {
        out.note(format_args!(
            "warning: {}: line {line} is not a valid event; skipped",
            events::path(&dir).display()
        ));
    }
    if let Some(id) = id {
        let logged: Vec<String> = events.iter().map(|e| e.id.to_string()).collect();
        events.retain(|e| e.id == id);
        if events.is_empty() {
            out.note(format_args!(
                "no event in the log ({}) names run {id:?}{}",
                events::path(&dir).display(),
                crate::error::suggest::did_you_mean(id, logged.iter().map(String::as_str))
            ));
        }
    }
    Ok(LogReport {
        events,
        malformed_lines: bad,
    })
}
