//! What `list --task <TASK>` adds: each attempt's latest judgement
//! ([`Judged`]), and the table of the attempts, judge's own
//! ([`crate::commands::shared::attempts`]), with ACTIVITY last as `list`
//! adds it.

use serde::Serialize;

use super::{ListReport, table};
use crate::commands::shared::attempts;
use crate::output::Out;
use crate::style::Cell;

/// What `--task` adds to an attempt.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Judged {
    /// Its latest judgement (`git loop judge`, from the event log), `null`
    /// when it was never judged.
    pub judge: Option<crate::events::Judgement>,
}

impl ListReport {
    /// The `--task` table: the attempts and their judge results.
    pub(super) fn human_task(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        let rows: Vec<[Cell<'_>; 10]> = self
            .worktrees
            .iter()
            .map(|l| {
                let judged = l.task.as_ref().expect("--task fills every row");
                let notes: &[&str] = if l.present {
                    &[]
                } else {
                    &["worktree missing"]
                };
                attempts::row(&l.entry.id, l.entry.status, judged.judge.as_ref(), notes)
            })
            .collect();
        table::<10, 11>(out, attempts::HEADER, rows, &self.worktrees)?;
        self.hint_missing(out);
        Ok(())
    }
}
