//! `git loop land`'s arguments, and [`LandOptions`], how a landing is made
//! (`pick --land` flattens them too).

use clap::Args;
use schemars::JsonSchema;

use super::values::{RunId, StatusList, status_flag};
use crate::config::LandStrategy;

#[derive(Debug, Args, JsonSchema)]
pub struct LandArgs {
    /// Runs to land, in this order (or --queue; none: the run whose worktree you are in)
    #[arg(value_name = "RUN_ID", value_parser = RunId::parse, conflicts_with = "queue")]
    #[serde(default)]
    pub run_ids: Vec<RunId>,

    /// Land every run in the status set (--status), in `git loop conflicts`' landing order
    #[arg(long)]
    #[serde(default)]
    pub queue: bool,

    /// With --queue: the statuses to land, comma-separated (default: config land.queue-status, else escalated)
    #[arg(long, value_name = "CSV", value_parser = status_flag, requires = "queue")]
    pub status: Option<StatusList>,

    /// Go on with the next run when one is skipped (default: stop; the rest are not attempted)
    #[arg(long)]
    #[serde(default)]
    pub keep_going: bool,

    /// With --queue and --push: every machine's published runs in the status set too, landed from their records
    // Not in the MCP tools' input: a landing of other machines' work is
    // asked for on the command line.
    #[arg(long, requires_all = ["queue", "push"])]
    #[serde(default)]
    #[schemars(skip)]
    pub fleet: bool,

    #[command(flatten)]
    #[serde(flatten)]
    pub options: LandOptions,

    /// Build every landing in memory and report what would land; change nothing (no gate runs)
    // Shown between --keep and --push, where it was before the options
    // were flattened (the order --keep has: a tie keeps the order added).
    #[arg(long, display_order = 7)]
    #[serde(default)]
    pub dry_run: bool,
}

/// How a landing is made: `land`'s options, which `pick --land` takes too.
#[derive(Debug, Args, JsonSchema)]
pub struct LandOptions {
    /// The local branch to land in (default: config land.into, else each run's base when it is a local branch)
    #[arg(long, value_name = "BRANCH")]
    pub into: Option<String>,

    /// How the landed commits are built (default: config land.strategy, else rebase)
    #[arg(long, value_enum, value_name = "STRATEGY")]
    pub strategy: Option<LandStrategy>,

    /// A command that must pass in a scratch checkout of the landed commit first (sh -c)
    // Not in the MCP tools' input (`land`, `pick`): no caller names a
    // command to run (`mcp::tools`); over MCP only `land.gate` runs.
    #[arg(long, value_name = "CMD", value_hint = clap::ValueHint::CommandString)]
    #[schemars(skip)]
    pub gate: Option<String>,

    /// Leave each landed run's worktree and branch in place
    #[arg(long)]
    #[serde(default)]
    pub keep: bool,

    /// Push each landing to the target's upstream, never forced; rebuilt on the remote's tip when it moved (config land.push-retries)
    #[arg(long)]
    #[serde(default)]
    pub push: bool,

    /// The message of a squash or merge commit
    #[arg(short = 'm', long = "message", value_name = "MSG")]
    pub message: Option<String>,
}
