//! `cleanup` and `remove`'s arguments: the two commands that remove runs'
//! worktrees under the same rules.

use clap::Args;
use schemars::JsonSchema;

use super::values::{Cutoff, RunId, StatusList, older_than_flag, status_flag};

#[derive(Debug, Args, JsonSchema)]
pub struct CleanupArgs {
    /// Statuses to clean up, comma-separated (default: rejected,escalated; never active)
    #[arg(long, value_name = "CSV", value_parser = status_flag)]
    pub status: Option<StatusList>,

    /// Only runs created longer ago than this: <n> with s, m, h or d (e.g. 24h)
    #[arg(long, value_name = "AGE", value_parser = older_than_flag)]
    pub older_than: Option<Cutoff>,

    /// Report what would be removed; change nothing
    #[arg(long)]
    #[serde(default)]
    pub dry_run: bool,

    /// Also delete each removed run's branch, only if its work is in its base (ancestor, squash or rebase)
    #[arg(long)]
    #[serde(default)]
    pub delete_merged_branches: bool,

    /// Put worktrees that would be removed back into the warm pool instead (up to pool.size)
    #[arg(long)]
    #[serde(default)]
    pub recycle: bool,
    /// Save a dirty run's changes to refs/loop/salvage/<id> first, then remove it
    #[arg(long)]
    #[serde(default)]
    pub salvage: bool,

    /// Terminate the processes left working in a worktree it removes first (SIGTERM, 2 s, then
    /// SIGKILL; never one on a terminal)
    #[arg(long)]
    #[serde(default)]
    pub reap: bool,
}

#[derive(Debug, Args, JsonSchema)]
pub struct RemoveArgs {
    /// Runs to remove (not active ones)
    #[arg(required = true, value_name = "RUN_ID", value_parser = RunId::parse)]
    pub run_ids: Vec<RunId>,

    /// Report what would be removed; change nothing
    #[arg(long)]
    #[serde(default)]
    pub dry_run: bool,

    /// Save a dirty run's changes to refs/loop/salvage/<id> first, then remove it
    #[arg(long)]
    #[serde(default)]
    pub salvage: bool,

    /// Terminate the processes left working in a worktree it removes first (SIGTERM, 2 s, then
    /// SIGKILL; never one on a terminal)
    #[arg(long)]
    #[serde(default)]
    pub reap: bool,
}
