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
    ///
    /// Each entry is one ref refs/loop/trash/<when>/<reason>/<what>; the reasons are
    /// merged-ancestor, merged-squash, merged-rebase, empty, worktree-removed,
    /// salvage-replaced, salvage-dropped, sync and handed-off.
    #[command(verbatim_doc_comment)]
    List,
    /// Bring a deleted branch (or a kept tip, as a branch) back
    ///
    /// A branch comes back only where no branch of that name exists (branch-exists: pass --as);
    /// a kept tip that was not a branch comes back as trash/<run>/<ref> unless --as names one.
    /// The entry is then dropped. An unknown NAME is refused (not-in-trash).
    #[command(verbatim_doc_comment)]
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
    ///
    /// Each drop is a compare-and-swap on the entry's tip; cleanups drop the entries older than
    /// the setting trash.keep (default 30d) by themselves.
    #[command(verbatim_doc_comment)]
    Empty {
        /// Only entries older than this (30d, 12h, 90m, 45s)
        #[arg(long, value_name = "AGE", value_parser = older_than_flag)]
        older_than: Option<Cutoff>,
        /// List what would be dropped; change nothing
        #[arg(long)]
        dry_run: bool,
    },
}
