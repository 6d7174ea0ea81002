//! `git loop pick`'s arguments: the winner, and with `--land` land's own
//! options ([`LandOptions`], flattened), which need `--land`.

use clap::{ArgGroup, Args};
use schemars::JsonSchema;

use super::land::LandOptions;
use super::values::RunId;

#[derive(Debug, Args, JsonSchema)]
#[command(group(
    ArgGroup::new("land_options")
        .args(["into", "strategy", "gate", "keep", "push", "message"])
        .multiple(true)
        .requires("land")
))]
pub struct PickArgs {
    /// The winning attempt: an active run <TASK>.<n>
    #[arg(value_name = "ID", value_parser = RunId::parse)]
    pub run_id: RunId,

    /// Land the winner (git loop land's rules and options) instead of marking it escalated
    #[arg(long)]
    #[serde(default)]
    pub land: bool,

    #[command(flatten)]
    #[serde(flatten)]
    pub land_options: LandOptions,

    /// Remove the siblings' worktrees, saving uncommitted work to refs/loop/salvage/<id> first (branches are kept)
    #[arg(long)]
    #[serde(default)]
    pub salvage: bool,

    /// Report what would happen; change nothing (a landing is built in memory, no gate runs)
    #[arg(long)]
    #[serde(default)]
    pub dry_run: bool,
}
