//! `git loop env`'s arguments.

use clap::Args;
use schemars::JsonSchema;

use super::RunId;

#[derive(Debug, Args, JsonSchema)]
pub struct EnvArgs {
    /// Id of the run (default: the run whose worktree holds the current directory)
    #[arg(value_name = "RUN_ID", value_parser = RunId::parse)]
    pub run_id: Option<RunId>,
}
