//! `judge`'s report: `--json` is `{"task","gate","attempts":[…]}`, the
//! attempts in rank order, each the [`Judgement`] its `judge` event
//! records (docs/cli.md); the text is the attempts' table, `list --task`'s
//! too ([`crate::commands::shared::attempts`]), one row per attempt in rank
//! order, the leader marked, every figure shown.

use serde::Serialize;

use crate::commands::shared::attempts;
use crate::events::Judgement;
use crate::manifest::Status;
use crate::ops::judge::JudgeOutcome;
use crate::output::{Out, Report};
use crate::style::{Cell, escape, write_table};

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct JudgeReport {
    pub task: String,
    /// The gate command, as configured or passed.
    pub gate: String,
    /// Every active attempt, in rank order (the leader first).
    pub attempts: Vec<Judgement>,
    /// Where the gates' logs are, said in the text as a path to paste.
    #[serde(skip)]
    pub logs: std::path::PathBuf,
}

impl JudgeReport {
    /// The report of `outcome`, its logs in the git common dir `common_dir`.
    pub fn new(outcome: JudgeOutcome, common_dir: &std::path::Path) -> JudgeReport {
        let log = crate::ops::judge::log_path(common_dir, &outcome.task, "x");
        let logs = log
            .parent()
            .map(std::path::Path::to_path_buf)
            .unwrap_or_default();
        JudgeReport {
            task: outcome.task,
            gate: outcome.gate,
            attempts: outcome.attempts,
            logs: crate::fsx::canonical_best_effort(&logs),
        }
    }

    /// At least one gate passed (the command exits 0).
    pub fn any_passed(&self) -> bool {
        self.attempts.iter().any(|j| j.passed)
    }
}

impl Report for JudgeReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        let rows: Vec<[Cell<'_>; 10]> = self
            .attempts
            .iter()
            .map(|j| attempts::row(&j.id, Status::Active, Some(j), &[]))
            .collect();
        write_table(out.stdout, attempts::HEADER, &rows, out.color)?;
        for j in self.attempts.iter().filter(|j| j.changes_nothing()) {
            out.note(format_args!(
                "note: {} changes no file against its base (no commits of its own): ranked last, whatever its gate",
                escape(&j.id)
            ));
        }
        let passed = self.attempts.iter().filter(|j| j.passed).count();
        out.note(format_args!(
            "judged {} attempts of {}: {passed} passed (gate: {}); logs in {}/",
            self.attempts.len(),
            escape(&self.task),
            escape(&self.gate),
            escape(&self.logs.to_string_lossy()),
        ));
        Ok(())
    }
}
