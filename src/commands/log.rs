//! `git loop log [<RUN_ID>]` — the event log, oldest first (on a terminal
//! newest first, ids cut to 12 digits, as `git log` reads there). Read-only,
//! no mutex. Malformed lines are reported on stderr and skipped.
//!
//! Times are printed at one width, to the second (`2026-11-30T19:30:50Z`),
//! so the columns line up; `--json` keeps each time as it was stored.
//!
//! `log <RUN_ID>` with no event naming that id says so on stderr and exits
//! 0: an empty history is an answer, not a failure (the id may be valid and
//! simply not yet logged, or the log may predate it); stdout stays empty and
//! `--json` prints `"events":[]` as for any other id.
//!
//! `--since <AGE>` keeps the events logged in the last AGE (`2h`, `7d`: the
//! ages `cleanup --older-than` takes; an event whose time cannot be read is
//! not known to be that recent, and is left out); `-n <N>` then keeps the
//! newest N, printed oldest first into a pipe (as `tail -n` would), newest
//! first on a terminal. Both filter the JSON document too; its shape does
//! not change.
//!
//! On a terminal the text goes through a pager, as `git log`'s does
//! ([`pager`]; the rules are in [`crate::output::pager`]): `GIT_PAGER`,
//! `core.pager`, `PAGER`, then `less`; never with `--json` or into a pipe,
//! and not for a log with no event to print (a pager on an empty screen
//! would say nothing the note on stderr does not).

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
        // On a terminal, as `git log` reads there: the newest first, ids
        // short. Into a pipe or a file the order and the ids a script reads
        // stay whole, oldest first.
        let terminal = out.stdout_is_terminal;
        let events: Box<dyn Iterator<Item = &Event>> = match terminal {
            true => Box::new(self.events.iter().rev()),
            false => Box::new(self.events.iter()),
        };
        for e in events {
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
            if terminal {
                line = short_ids(&line);
            }
            writeln!(out.stdout, "{}", crate::style::escape(&line))?;
        }
        Ok(())
    }
}

/// `text` with every full object id (a run of 40 or 64 hex digits, a word
/// of its own) cut to its first 12 digits, as the other tables show ids.
fn short_ids(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let full = matches!(word.len(), 40 | 64) && word.bytes().all(|b| b.is_ascii_hexdigit());
        out.push_str(if full { &word[..12] } else { word });
        word.clear();
    };
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The pager the report's text goes through, if any.
pub fn pager(ctx: &Ctx, report: &LogReport, out: &Out<'_>) -> Option<String> {
    if out.json || report.events.is_empty() {
        return None;
    }
    crate::output::pager::choose(out.stdout_is_terminal, || core_pager(ctx))
}

/// `core.pager` as git reads it: `git -c` (`GIT_CONFIG_PARAMETERS`, its
/// last value), else git's configuration files as the repository sees them.
fn core_pager(ctx: &Ctx) -> Option<String> {
    const KEY: &str = "core.pager";
    let params = std::env::var("GIT_CONFIG_PARAMETERS")
        .map(|p| crate::config::git::parse_config_parameters(&p))
        .unwrap_or_default();
    params
        .into_iter()
        .rev()
        .find(|(k, _)| k.eq_ignore_ascii_case(KEY))
        .map(|(_, v)| v)
        .or_else(|| Some(ctx.repo.config().string(KEY)?.to_string()))
}

pub fn exec(ctx: &Ctx, args: &crate::cli::LogArgs, out: &mut Out<'_>) -> Result<LogReport> {
    let id = args.run_id.as_deref();
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
    if let Some(crate::cli::Cutoff(age)) = args.since {
        let since = crate::time::cutoff_instant(crate::time::now(), age);
        events.retain(|e| e.at.parse::<jiff::Timestamp>().is_ok_and(|at| at >= since));
    }
    if let Some(n) = args.max_count {
        events.drain(..events.len().saturating_sub(n));
    }
    Ok(LogReport {
        events,
        malformed_lines: bad,
    })
}
