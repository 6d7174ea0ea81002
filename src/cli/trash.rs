//! `git loop trash`'s arguments.

use clap::{Args, Subcommand};

use super::values::{Cutoff, older_than_flag};

#[derive(Debug, Args)]
pub struct TrashArgs {
    #[command(subcommand)]
    pub action: Option<TrashAction>,
}

#[derive(Debug, Subcommand)]
pub enum TrashAction {
    /// List the entries, oldest first (the default)
    List,
    /// Bring a deleted branch (or a kept tip, as a branch) back
    Restore {
        /// An entry's name, its ref, or a deleted branch's name (its newest entry)
        #[arg(value_name = "NAME")]
        name: String,
        /// The branch to restore it as (default: the branch it was, or
        /// trash/<run>/<ref> for a kept tip that was not a branch)
        #[arg(long = "as", value_name = "BRANCH")]
        as_branch: Option<String>,
    },
    /// Drop entries: all of them, or those kept before now − AGE
    Empty {
        /// Only entries older than this (30d, 12h, 90m, 45s)
        #[arg(long, value_name = "AGE", value_parser = older_than_flag)]
        older_than: Option<Cutoff>,
        /// List what would be dropped; change nothing
        #[arg(long)]
        dry_run: bool,
    },
}
