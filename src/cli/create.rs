//! `git loop create`'s arguments.

use clap::Args;
use schemars::JsonSchema;

use super::values::{RunId, port_count, sparse_dir};

#[derive(Debug, Args, JsonSchema)]
pub struct CreateArgs {
    /// Unique id of the run: one path segment, valid in a branch name `loop/<RUN_ID>`
    #[arg(id = "new_run_id", value_name = "RUN_ID", value_parser = RunId::parse)]
    pub run_id: RunId,

    /// Label of the kind of work (bugfix, agent, experiment), recorded for audit and shown by list; default: config create.pattern, else manual
    #[arg(long, value_name = "LABEL", value_hint = clap::ValueHint::Other)]
    pub pattern: Option<String>,

    /// Branch or commit to start from (default: config `loop.base`, else `main`)
    #[arg(long, value_name = "BRANCH")]
    pub base: Option<String>,

    /// If this run is already active and its worktree is intact, print its path and change nothing; if loop/<RUN_ID> exists with no worktree, check it out as it is
    #[arg(long)]
    #[serde(default)]
    pub reuse: bool,

    /// Check out only this directory (repeat the flag, or give a comma list, for several; sparse checkout, cone mode; files at the top are always there)
    // One value per occurrence: `--sparse src/d1 sp4` must leave sp4 the
    // run id, not take it as a second directory.
    #[arg(long, value_name = "DIR", num_args = 1, action = clap::ArgAction::Append, value_delimiter = ',', value_parser = sparse_dir)]
    #[serde(default)]
    pub sparse: Vec<String>,

    /// Fetch the base's upstream first (git fetch), e.g. origin/main for main (config create.fetch)
    #[arg(long)]
    #[serde(default)]
    pub fetch: bool,

    /// Lease this many free TCP ports to the run, 0 to 32, as GIT_LOOP_PORT and GIT_LOOP_PORT_1… (default: config create.ports, else 0)
    #[arg(long, value_name = "N", value_parser = port_count)]
    #[schemars(range(max = 32))]
    pub ports: Option<usize>,

    /// Make N runs of the task RUN_ID at once, <RUN_ID>.1 … <RUN_ID>.<N> (1 to 64), all or none (best of N)
    #[arg(long, value_name = "N")]
    #[schemars(range(min = 1, max = 64))]
    pub attempts: Option<u32>,

    /// Claim the task on the fleet's remote first, as git loop claim does (refused if held)
    #[arg(long)]
    #[serde(default)]
    pub claim: bool,

    /// Take the run a machine handed off (git loop handoff): <MACHINE>, or <REMOTE>/<MACHINE>/<RUN_ID>
    #[arg(long, value_name = "MACHINE", conflicts_with_all = ["attempts", "base", "pattern", "claim", "sparse", "reuse"])]
    pub from: Option<String>,
}
