//! `git loop env`'s arguments.

use clap::Args;

use super::RunId;

#[derive(Debug, Args)]
pub struct EnvArgs {
    /// Id of the run (default: the run whose worktree holds the current directory)
    #[arg(value_name = "RUN_ID", value_parser = RunId::parse)]
    pub run_id: Option<RunId>,
}
