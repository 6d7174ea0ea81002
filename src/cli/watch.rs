//! `git loop watch`'s arguments. Its one-line help is this struct's doc
//! comment (clap takes it when the variant in `cli/mod.rs` has none).

use clap::Args;

/// A live full-screen view of every run: status, activity, dirty/ahead/behind, merged; keys to mark, open, diff
#[derive(Debug, Args)]
#[command(long_about = super::help::WATCH, after_help = super::help::WATCH_EXAMPLES)]
pub struct WatchArgs {
    /// Print one frame as plain text and exit (for a pipe or a script; width: COLUMNS, else 80)
    #[arg(long)]
    pub once: bool,

    /// Every machine's published runs instead (the list --fleet table), read from the fleet's remote every 10 s; with --once, one listing (--json: list --fleet's)
    #[arg(long)]
    pub fleet: bool,
}
