//! What `list --task <TASK>` adds: each attempt's latest judgement
//! ([`Judged`]) and the table of the attempts with their judge results.

use serde::Serialize;

use super::{ListReport, status_sgr, table};
use crate::output::Out;
use crate::style::{Cell, escape};

/// What `--task` adds to an attempt.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Judged {
    /// Its latest judgement (`git loop judge`, from the event log), `null`
    /// when it was never judged.
    pub judge: Option<crate::events::Judgement>,
}

impl Judged {
    /// The RANK, PASSED, CONFLICTS, AGREEMENT, LINES and SECONDS cells, `-`
    /// each when the attempt was never judged.
    fn cells(&self) -> [Cell<'static>; 6] {
        let Some(j) = &self.judge else {
            return std::array::from_fn(|_| ("-".into(), ""));
        };
        let yes_no = |b: bool, good: bool| -> Cell<'static> {
            let sgr = if b == good { "32" } else { "31" };
            ((if b { "yes" } else { "no" }).into(), sgr)
        };
        [
            (
                j.rank.to_string().into(),
                if j.rank == 1 { "1" } else { "" },
            ),
            yes_no(j.passed, true),
            yes_no(j.conflicts_with_base, false),
            (format!("{:.2}", j.agreement).into(), ""),
            (j.lines_changed.to_string().into(), ""),
            (format!("{:.1}", j.seconds).into(), ""),
        ]
    }
}

impl ListReport {
    /// The `--task` table: the attempts and their judge results.
    pub(super) fn human_task(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        let now = crate::time::now();
        let header = [
            "ID",
            "STATUS",
            "AGE",
            "PRESENT",
            "RANK",
            "PASSED",
            "CONFLICTS",
            "AGREEMENT",
            "LINES",
            "SECONDS",
        ];
        let rows: Vec<[Cell<'_>; 10]> = self
            .worktrees
            .iter()
            .map(|l| {
                let judged = l.task.as_ref().expect("--task fills every row").cells();
                let present: Cell<'_> = if l.present {
                    ("yes".into(), "")
                } else {
                    ("missing".into(), "1;31")
                };
                let [rank, passed, conflicts, agreement, lines, seconds] = judged;
                [
                    (escape(&l.entry.id), ""),
                    (l.entry.status.as_str().into(), status_sgr(l.entry.status)),
                    (crate::time::age(now, l.entry.created_at.0).into(), "2"),
                    present,
                    rank,
                    passed,
                    conflicts,
                    agreement,
                    lines,
                    seconds,
                ]
            })
            .collect();
        table::<10, 11>(out, header, rows, &self.worktrees)?;
        self.hint_missing(out);
        Ok(())
    }
}
