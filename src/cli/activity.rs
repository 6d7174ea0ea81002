//! `git loop activity`'s arguments.

use clap::Args;
use schemars::JsonSchema;

use super::RunId;

#[derive(Debug, Args, JsonSchema)]
// `activity waiting`: one value, the activity (clap's "optional positional
// before a required one"); the run is then the one whose worktree holds the
// current directory.
#[command(allow_missing_positional = true)]
pub struct ActivityArgs {
    /// Id of the run (default: the run whose worktree holds the current directory)
    #[arg(value_name = "RUN_ID", value_parser = RunId::parse)]
    pub run_id: Option<RunId>,

    /// What the run is doing now
    #[arg(value_enum)]
    pub activity: crate::events::Activity,

    /// A word on it, shown by `git loop log` and given to notify.command (GIT_LOOP_NOTE)
    #[arg(long, value_name = "TEXT")]
    pub note: Option<String>,
}
