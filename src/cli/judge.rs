//! `git loop judge`'s arguments.

use clap::Args;
use schemars::JsonSchema;

use super::Cutoff;
use crate::error::Error;

#[derive(Debug, Args, JsonSchema)]
pub struct JudgeArgs {
    /// The task: its active attempts are the runs <TASK>.1, <TASK>.2, ...
    #[arg(value_name = "TASK", value_parser = task_arg)]
    pub task: String,

    /// The command that tests an attempt, run in its worktree (sh -c; default: config judge.gate)
    // Not in the MCP tool's input: no caller names a command to run
    // (`mcp::tools`); over MCP only the configured, trusted gate runs.
    #[arg(long, value_name = "CMD", value_hint = clap::ValueHint::CommandString)]
    #[schemars(skip)]
    pub gate: Option<String>,

    /// How many gates run at a time (default: the number of cores)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,

    /// Kill a gate (and all it started) after AGE: <n> with s, m, h or d (default: 10m)
    #[arg(long, value_name = "AGE", value_parser = timeout_flag)]
    pub timeout: Option<Cutoff>,
}

/// A task is what comes before `.<n>` in its attempts' run ids: valid when
/// `<TASK>.1` is a valid run id.
fn task_arg(text: &str) -> Result<String, Error> {
    match crate::runid::problem(&crate::runid::attempt_id(text, 1)) {
        None => Ok(text.to_owned()),
        Some(reason) => Err(Error::InvalidRunId {
            id: text.to_owned(),
            reason: format!("{reason} (a task names its attempts <TASK>.1, <TASK>.2, ...)"),
        }),
    }
}

fn timeout_flag(text: &str) -> Result<Cutoff, Error> {
    crate::config::parse_cutoff(text, "--timeout").map(Cutoff)
}
