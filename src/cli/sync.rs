//! `git loop sync`'s arguments.

use clap::Args;
use schemars::JsonSchema;

use super::values::{RunId, StatusList, status_flag};
use crate::config::SyncStrategy;

#[derive(Debug, Args, JsonSchema)]
pub struct SyncArgs {
    /// Runs to sync (none: inside a run's worktree, that run; else every run in --status)
    #[arg(value_name = "RUN_ID", value_parser = RunId::parse)]
    #[serde(default)]
    pub run_ids: Vec<RunId>,

    /// Without run ids: the statuses of the runs to sync, comma-separated (default: active)
    #[arg(long, value_name = "CSV", value_parser = status_flag)]
    pub status: Option<StatusList>,

    /// How the base comes in (default: config sync.strategy, else rebase)
    #[arg(long, value_enum, value_name = "STRATEGY")]
    pub strategy: Option<SyncStrategy>,

    /// A command that must pass in a scratch checkout of the synced commit first (sh -c)
    // Not in an MCP tool's input: no caller names a command to run over MCP.
    #[arg(long, value_name = "CMD", value_hint = clap::ValueHint::CommandString)]
    #[schemars(skip)]
    pub gate: Option<String>,

    /// Fetch each base's upstream first
    #[arg(long)]
    #[serde(default)]
    pub fetch: bool,

    /// Build every sync in memory and report what would happen; change nothing (no gate runs)
    #[arg(long)]
    #[serde(default)]
    pub dry_run: bool,

    /// Go on with the other runs when one is skipped (default: stop; the rest are not attempted)
    #[arg(long)]
    #[serde(default)]
    pub keep_going: bool,
}
