//! One frame of `git loop watch`: a title line and the table of runs, laid
//! out once as text spans (each with its SGR parameters) so that the
//! screen ([`super::screen`]) and `watch --once` show the same columns,
//! the same widths and the same words. The cells are `list --long`'s
//! (STATE as `list --long` spells it, MERGED the same verdicts) plus the
//! activity and its age; DISK is the worktree's size on disk (`list --disk`'s
//! DISK), measured when the run first shows, `-` for a run without a worktree.

use std::borrow::Cow;

use crate::events::Activity;
use crate::git::merged::Verdict;
use crate::manifest::Status;
use crate::ops::list::{Run, State};
use crate::style::escape;

/// A piece of a line: its text and its SGR parameters (`""`: none).
pub type Span = (String, &'static str);

/// A frame: the title, the header and one line per run, each already
/// padded into columns.
pub struct Frame {
    pub title: String,
    pub header: Vec<Span>,
    pub rows: Vec<Vec<Span>>,
}

const HEADER: [&str; 9] = [
    "ID", "STATUS", "ACTIVITY", "STATE", "AHEAD", "BEHIND", "MERGED", "AGE", "DISK",
];

/// Lay out `runs` as the view shows them at `now`.
pub fn build(runs: &[Run], now: jiff::Timestamp) -> Frame {
    let cells: Vec<[(Cow<'_, str>, &'static str); 9]> = runs.iter().map(|r| row(r, now)).collect();
    let mut widths = HEADER.map(|h| h.chars().count());
    for row in &cells {
        for (w, (text, _)) in widths.iter_mut().zip(row) {
            *w = (*w).max(text.chars().count());
        }
    }
    let pad = |i: usize, text: &str| -> String {
        if i + 1 == HEADER.len() {
            return text.to_owned();
        }
        format!("{text:<w$}", w = widths[i] + 2)
    };
    let header = HEADER
        .iter()
        .enumerate()
        .map(|(i, h)| (pad(i, h), "1"))
        .collect();
    let rows = cells
        .iter()
        .map(|row| {
            row.iter()
                .enumerate()
                .map(|(i, (text, sgr))| (pad(i, text), *sgr))
                .collect()
        })
        .collect();
    Frame {
        title: title(runs),
        header,
        rows,
    }
}

/// `git loop watch: 10 runs (3 working, 1 waiting, 2 done)`.
fn title(runs: &[Run]) -> String {
    let count = |a: Activity| {
        runs.iter()
            .filter(|r| r.activity.as_ref().is_some_and(|l| l.activity == a))
            .count()
    };
    let noun = if runs.len() == 1 { "run" } else { "runs" };
    let parts: Vec<String> = Activity::ALL
        .into_iter()
        .map(|a| (count(a), a))
        .filter(|(n, _)| *n > 0)
        .map(|(n, a)| format!("{n} {a}"))
        .collect();
    if parts.is_empty() {
        format!("git loop watch: {} {noun}", runs.len())
    } else {
        format!(
            "git loop watch: {} {noun} ({})",
            runs.len(),
            parts.join(", ")
        )
    }
}

fn row(r: &Run, now: jiff::Timestamp) -> [(Cow<'_, str>, &'static str); 9] {
    let activity = match &r.activity {
        None => ("-".into(), ""),
        Some(latest) => {
            let age = match latest.at.parse::<jiff::Timestamp>() {
                Ok(then) => crate::time::age(now, then),
                Err(_) => "?".to_owned(),
            };
            let age = age.strip_suffix(" ago").unwrap_or(&age);
            let sgr = match latest.activity {
                Activity::Working => "32",
                Activity::Waiting => "1;33",
                Activity::Done => "36",
            };
            (format!("{} {age}", latest.activity).into(), sgr)
        }
    };
    let empty = State::default();
    let state = r.state.as_deref().unwrap_or(&empty);
    let words = if r.present {
        state.words()
    } else {
        "missing".to_owned()
    };
    let state_sgr = match words.as_str() {
        "clean" | "-" => "",
        "missing" => "1;31",
        _ => "33",
    };
    let merged: (Cow<'_, str>, &'static str) = match state.verdict {
        Some(Verdict::Empty) => ("empty".into(), "2"),
        Some(v) => match (v.merged_by(), v.probably_merged_by()) {
            (Some(by), _) => (by.as_str().into(), "32"),
            (None, Some(by)) => (format!("{by}?").into(), "33"),
            (None, None) => ("no".into(), ""),
        },
        None => ("-".into(), ""),
    };
    let opt = |v: Option<usize>| v.map_or_else(|| "-".to_owned(), |v| v.to_string());
    [
        (escape(&r.entry.id), ""),
        (r.entry.status.as_str().into(), status_sgr(r.entry.status)),
        activity,
        (words.into(), state_sgr),
        (opt(state.ahead).into(), ""),
        (opt(state.behind).into(), ""),
        merged,
        (crate::time::age(now, r.entry.created_at.0).into(), "2"),
        match r.disk {
            Some(Some(u)) => (crate::style::human_bytes(u.disk).into(), ""),
            _ => ("-".into(), "2"),
        },
    ]
}

fn status_sgr(status: Status) -> &'static str {
    match status {
        Status::Active => "32",
        Status::Rejected => "31",
        Status::Escalated => "33",
        Status::Merged => "36",
        Status::Stale => "2",
    }
}

/// `spans` cut to `width` visible characters.
pub fn clip(spans: &[Span], width: usize) -> Vec<(&str, &'static str)> {
    let mut left = width;
    let mut out = Vec::new();
    for (text, sgr) in spans {
        if left == 0 {
            break;
        }
        let cut = text.char_indices().nth(left).map_or(text.len(), |(i, _)| i);
        let piece = &text[..cut];
        left -= piece.chars().count();
        out.push((piece, *sgr));
    }
    out
}

/// The frame as `watch --once` prints it: the title, the header, a line
/// per run, each cut to `width` and without trailing blanks; coloured when
/// `color`.
pub fn plain(frame: &Frame, width: usize, color: bool) -> String {
    let mut text = String::new();
    let mut line = |spans: &[Span]| {
        let mut l = String::new();
        for (piece, sgr) in clip(spans, width) {
            if color && !sgr.is_empty() && !piece.trim().is_empty() {
                let trimmed = piece.trim_end();
                l.push_str(&format!("\x1b[{sgr}m{trimmed}\x1b[0m"));
                l.push_str(&piece[trimmed.len()..]);
            } else {
                l.push_str(piece);
            }
        }
        text.push_str(l.trim_end());
        text.push('\n');
    };
    line(&[(frame.title.clone(), "1")]);
    line(&frame.header);
    for row in &frame.rows {
        line(row);
    }
    text
}

/// The `d` panel's lines: one per file (` path | +3 -1`), then the totals.
pub fn diff_lines(ctx: &crate::ctx::Ctx, run: &Run) -> Vec<String> {
    let stats = match crate::ops::watch::diffstat::read(ctx, &run.entry) {
        Ok(Some(stats)) => stats,
        Ok(None) => {
            return vec![format!(
                "{} or its base {} does not resolve (or they share no history)",
                crate::style::escape(&run.entry.branch()),
                crate::style::escape(&run.entry.base_branch)
            )];
        }
        Err(e) => return vec![format!("could not read the diffstat: {e}")],
    };
    if stats.is_empty() {
        return vec![format!(
            "no changes: {} has no commits of its own since it left {}",
            crate::style::escape(&run.entry.branch()),
            crate::style::escape(&run.entry.base_branch)
        )];
    }
    let width = stats
        .iter()
        .map(|s| s.path.chars().count())
        .max()
        .unwrap_or(0);
    let mut lines: Vec<String> = stats
        .iter()
        .map(|s| {
            let path = crate::style::escape(&s.path);
            if s.binary {
                format!(" {path:<width$} | Bin")
            } else {
                format!(" {path:<width$} | +{} -{}", s.added, s.removed)
            }
        })
        .collect();
    let (added, removed) = stats.iter().fold((0u64, 0u64), |(a, r), s| {
        (a + u64::from(s.added), r + u64::from(s.removed))
    });
    let files = if stats.len() == 1 { "file" } else { "files" };
    lines.push(format!(
        " {} {files} changed, +{added} -{removed}",
        stats.len()
    ));
    lines
}
