//! The one table of a task's attempts: `judge` prints it (the attempts it
//! judged, in rank order) and so does `list --task` (every attempt, in
//! number order, with its latest judgement, `-` where there is none), with
//! the same columns, so that one reads as the other.

use std::borrow::Cow;

use crate::events::Judgement;
use crate::manifest::Status;
use crate::style::{Cell, escape};

/// The columns, in order.
pub const HEADER: [&str; 10] = [
    "RANK",
    "ATTEMPT",
    "STATUS",
    "GATE",
    "BASE",
    "AGREEMENT",
    "LINES",
    "FILES",
    "SECONDS",
    "NOTES",
];

/// One attempt's row: its id, status, latest judgement (`None`: never
/// judged) and notes of the caller's own (`list --task`: a missing
/// worktree) before the judgement's.
pub fn row<'a>(
    id: &'a str,
    status: Status,
    judgement: Option<&'a Judgement>,
    notes: &[&str],
) -> [Cell<'a>; 10] {
    let mut said: Vec<&str> = notes.to_vec();
    let status: Cell<'a> = (status.as_str().into(), status_sgr(status));
    let Some(j) = judgement else {
        let none = || -> Cell<'a> { ("-".into(), "") };
        return [
            none(),
            (escape(id), ""),
            status,
            none(),
            none(),
            none(),
            none(),
            none(),
            none(),
            (Cow::Owned(said.join(", ")), ""),
        ];
    };
    if j.dirty {
        said.push("dirty");
    }
    if j.wrote_to_worktree {
        said.push("wrote to worktree");
    }
    if j.changes_nothing() {
        said.push("changes nothing: ranked last");
    }
    let rank = if j.rank == 1 {
        format!("{} leader", j.rank)
    } else {
        j.rank.to_string()
    };
    let base: Cell<'a> = if j.conflicts_with_base {
        ("conflicts".into(), "33")
    } else {
        ("clean".into(), "")
    };
    [
        (rank.into(), if j.rank == 1 { "1" } else { "" }),
        (escape(id), ""),
        status,
        gate_cell(j),
        base,
        (format!("{:.2}", j.agreement).into(), ""),
        (j.lines_changed.to_string().into(), ""),
        (j.files_changed.to_string().into(), ""),
        (format!("{:.2}", j.seconds).into(), ""),
        (Cow::Owned(said.join(", ")), ""),
    ]
}

/// "passed", "exit 3", "timeout", "killed".
fn gate_cell(j: &Judgement) -> Cell<'static> {
    match (j.passed, j.timed_out, j.exit_code) {
        (true, _, _) => ("passed".into(), "32"),
        (false, true, _) => ("timeout".into(), "31"),
        (false, false, Some(code)) => (format!("exit {code}").into(), "31"),
        (false, false, None) => ("killed".into(), "31"),
    }
}

/// A status's colour, as `list` shows it.
pub fn status_sgr(status: Status) -> &'static str {
    match status {
        Status::Active => "32",
        Status::Rejected => "31",
        Status::Escalated => "33",
        Status::Merged => "36",
        Status::Stale => "2",
    }
}
