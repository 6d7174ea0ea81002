//! Command-line types. The `///` comments are the help text and, through
//! `examples/generate`, the man pages, so they are written for a person
//! meeting the tool for the first time. Values are validated here, by typed
//! value parsers ([`RunId`], [`StatusList`], [`Cutoff`], [`MinAge`]): a usage
//! error comes from one place, before any repository is opened.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::error::Error;
use crate::manifest::Status;

/// A run id that passed [`crate::runid::validate`]: every command gets ids
/// already checked by clap, and a bad one is a usage error from one place.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RunId(String);

impl RunId {
    pub fn parse(text: &str) -> Result<RunId, Error> {
        crate::runid::validate(text)?;
        Ok(RunId(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for RunId {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for RunId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// `--status <CSV>`: statuses, each once, in the order given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusList(pub Vec<Status>);

fn status_flag(text: &str) -> Result<StatusList, Error> {
    crate::config::parse_status_csv(text, "--status").map(StatusList)
}

/// A cutoff typed on the command line (`24h`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cutoff(pub jiff::SignedDuration);

fn older_than_flag(text: &str) -> Result<Cutoff, Error> {
    crate::config::parse_cutoff(text, "--older-than").map(Cutoff)
}

/// `--min-age`: a cutoff, or a bare `0` to disable the guard. Keeps the text
/// as typed for messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MinAge {
    pub age: jiff::SignedDuration,
    pub text: String,
}

fn min_age_flag(text: &str) -> Result<MinAge, Error> {
    let age = if text == "0" {
        jiff::SignedDuration::ZERO
    } else {
        crate::config::parse_cutoff(text, "--min-age")?
    };
    Ok(MinAge {
        age,
        text: text.to_owned(),
    })
}

/// Give every parallel run of work its own git worktree and branch.
///
/// Each run gets `.loop-worktrees/<id>/` on branch `loop/<id>`, recorded in
/// `.loop-worktrees/manifest.json`. Mark what each run became; cleanup removes
/// finished worktrees without ever forcing, and keeps every branch.
#[derive(Debug, Parser)]
#[command(
    name = "git-loop",
    bin_name = "git loop",
    version,
    max_term_width = 100
)]
pub struct Cli {
    /// Repository to operate on (default: the current directory)
    #[arg(short = 'C', long = "repo", value_name = "DIR", global = true)]
    pub repo: Option<PathBuf>,

    /// Machine-readable output: one JSON document on stdout
    #[arg(long, global = true)]
    pub json: bool,

    /// No progress or summary lines on stderr
    #[arg(short, long, global = true)]
    pub quiet: bool,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create a worktree and branch `loop/<RUN_ID>` for a new run
    #[command(after_help = "Example:\n  cd \"$(git loop create fix-login --pattern bugfix)\"")]
    Create(CreateArgs),
    /// Record what a run became (never deletes it)
    #[command(after_help = "Example:\n  git loop mark fix-login merged")]
    Mark(MarkArgs),
    /// Remove the worktrees of finished runs (never forced; branches are kept)
    #[command(
        after_help = "Examples:\n  git loop cleanup --dry-run\n  git loop cleanup --status rejected,stale --older-than 24h"
    )]
    Cleanup(CleanupArgs),
    /// Remove the worktrees of the named runs, whatever their status but active (cleanup's rules)
    #[command(
        after_help = "The runs' worktrees are removed as cleanup removes them: never forced, skipped with a code when\nanything in them would be lost, branches kept, entries dropped. An active or unknown id\nrefuses the whole command before anything changes.\n\nExample:\n  git loop remove try-a try-b --dry-run"
    )]
    Remove(RemoveArgs),
    /// Bring back a run saved by `remove --salvage` or `cleanup --salvage`, as it was
    #[command(
        after_help = "The worktree comes back at .loop-worktrees/<RUN_ID> on loop/<RUN_ID> (recreated at the\nsalvage's first parent if the branch is gone), with its changes as they were: staged stays\nstaged, untracked stays untracked. The run is recorded as active again; the salvage ref\nrefs/loop/salvage/<RUN_ID> is kept until the next salvage of that id.\n\nExample:\n  git loop list --salvaged && git loop restore try-a"
    )]
    Restore(RestoreArgs),
    /// Compare git's worktrees with the manifest: report orphans, drop vanished runs
    #[command(after_help = "Example:\n  git loop reconcile --remove-orphan old-run")]
    Reconcile(ReconcileArgs),
    /// List recorded runs
    #[command(after_help = "Example:\n  git loop list --status active --long")]
    List(ListArgs),
    /// Print the absolute path of a run's worktree
    #[command(after_help = "Example:\n  cd \"$(git loop path fix-login)\"")]
    Path(PathArgs),
    /// Run a command inside a run's worktree, passing its exit code through
    #[command(
        after_help = "The command runs with the worktree as its working directory, and with\nGIT_LOOP_ID and GIT_LOOP_ROOT (the main worktree) in its environment.\n\nExample:\n  git loop run fix-login -- cargo test"
    )]
    Run(RunArgs),
    /// List loop/* branches no run records (left by cleanup); delete the merged ones
    #[command(
        after_help = "A leftover branch has no manifest entry, so it is compared with the configured base\n(loop.base, default main). Merged means its tip is contained in the base; a branch with no\ncommits of its own counts as merged. A branch checked out in any worktree is never deleted.\n\nExamples:\n  git loop branches\n  git loop branches --delete-merged --dry-run"
    )]
    Branches(BranchesArgs),
    /// Show the event log: every create, mark, remove, skip, drop and reuse
    #[command(after_help = "Example:\n  git loop log fix-login")]
    Log(LogArgs),
    /// Let the hooks in this repository's .git-loop.toml run (for its current content)
    #[command(
        after_help = "A repository's own .git-loop.toml comes with the code you cloned, so the hooks it sets\n(create.post-command, cleanup.pre-command) run only once you have read it and trusted its\ncontent. Trust is recorded for the file's exact content (its git blob id) in .git/git-loop/trusted;\nafter any change to the file, trust it again. Hooks from git config, your own config file or the\nenvironment need no trust.\n\nExample:\n  cat .git-loop.toml && git loop trust"
    )]
    Trust,
    /// Show the effective settings and where each one comes from
    #[command(
        after_help = "Settings come, lowest to highest, from: built-in defaults, ~/.config/git-loop/config.toml,\n<repo>/.git-loop.toml, git config (loop.base, loop.cleanupStatus, loop.cleanupOlderThan),\nthe environment (GIT_LOOP_BASE, GIT_LOOP_CLEANUP_STATUS, GIT_LOOP_CLEANUP_OLDER_THAN), and flags.\n\nExample:\n  git config loop.base develop && git loop config"
    )]
    Config,
}

#[derive(Debug, Args)]
pub struct CreateArgs {
    /// Unique id of the run: one path segment, valid in a branch name `loop/<RUN_ID>`
    #[arg(id = "new_run_id", value_name = "RUN_ID", value_parser = RunId::parse)]
    pub run_id: RunId,

    /// Short label of the kind of work, kept in the manifest for audit
    #[arg(long, value_name = "LABEL")]
    pub pattern: String,

    /// Branch or commit to start from (default: config `loop.base`, else `main`)
    #[arg(long, value_name = "BRANCH")]
    pub base: Option<String>,

    /// If this run is already active and its worktree is intact, print its path and change nothing
    #[arg(long)]
    pub reuse: bool,
}

#[derive(Debug, Args)]
pub struct MarkArgs {
    /// Id of the run
    #[arg(value_parser = RunId::parse)]
    pub run_id: RunId,

    /// What the run became
    #[arg(value_enum)]
    pub status: Status,
}

#[derive(Debug, Args)]
pub struct CleanupArgs {
    /// Statuses to clean up, comma-separated (default: rejected,escalated; never active)
    #[arg(long, value_name = "CSV", value_parser = status_flag)]
    pub status: Option<StatusList>,

    /// Only runs created longer ago than this: <n> with s, m, h or d (e.g. 24h)
    #[arg(long, value_name = "AGE", value_parser = older_than_flag)]
    pub older_than: Option<Cutoff>,

    /// Report what would be removed; change nothing
    #[arg(long)]
    pub dry_run: bool,

    /// Also delete each removed run's branch, only if it is merged into its base (git branch -d)
    #[arg(long)]
    pub delete_merged_branches: bool,

    /// Save a dirty run's changes to refs/loop/salvage/<id> first, then remove it
    #[arg(long)]
    pub salvage: bool,
}

#[derive(Debug, Args)]
pub struct RemoveArgs {
    /// Runs to remove (not active ones)
    #[arg(required = true, value_name = "RUN_ID", value_parser = RunId::parse)]
    pub run_ids: Vec<RunId>,

    /// Report what would be removed; change nothing
    #[arg(long)]
    pub dry_run: bool,

    /// Save a dirty run's changes to refs/loop/salvage/<id> first, then remove it
    #[arg(long)]
    pub salvage: bool,
}

#[derive(Debug, Args)]
pub struct RestoreArgs {
    /// Id of the salvaged run
    #[arg(value_parser = RunId::parse)]
    pub run_id: RunId,
}

#[derive(Debug, Args)]
pub struct ReconcileArgs {
    /// Remove this orphan worktree (repeatable; never forced)
    #[arg(long, value_name = "ID", value_parser = RunId::parse)]
    pub remove_orphan: Vec<RunId>,

    /// Record this orphan as an active run instead (repeatable): it must be a worktree of this
    /// repository with loop/<ID> checked out
    #[arg(long, value_name = "ID", value_parser = RunId::parse)]
    pub adopt: Vec<RunId>,

    /// Refuse to remove an orphan younger than this (<n><s|m|h|d>; 0 disables)
    #[arg(long, value_name = "AGE", default_value = "2h", value_parser = min_age_flag)]
    pub min_age: MinAge,

    /// Report what would change; change nothing
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    /// Only runs with these statuses, comma-separated
    #[arg(long, value_name = "CSV", value_parser = status_flag)]
    pub status: Option<StatusList>,

    /// Also show, per run, uncommitted work, commits ahead of and behind its base, and whether it is merged
    #[arg(short, long)]
    pub long: bool,

    /// List the salvaged runs (refs/loop/salvage/<id>) instead, for `git loop restore`
    #[arg(long, conflicts_with_all = ["status", "long", "ids"])]
    pub salvaged: bool,

    /// Print only the run ids, one a line (for shell completion)
    #[arg(long, hide = true)]
    pub ids: bool,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Id of the run
    #[arg(value_parser = RunId::parse)]
    pub run_id: RunId,

    /// The command and its arguments, after `--`
    #[arg(last = true, required = true, value_name = "COMMAND")]
    pub command: Vec<std::ffi::OsString>,
}

#[derive(Debug, Args)]
pub struct LogArgs {
    /// Only this run's events
    #[arg(value_parser = RunId::parse)]
    pub run_id: Option<RunId>,
}

#[derive(Debug, Args)]
pub struct PathArgs {
    /// Id of the run
    #[arg(value_parser = RunId::parse)]
    pub run_id: RunId,
}

#[derive(Debug, Args)]
pub struct BranchesArgs {
    /// Delete the leftover branches merged into the base (only if still at the tip checked)
    #[arg(long)]
    pub delete_merged: bool,

    /// Report what --delete-merged would delete; change nothing
    #[arg(long)]
    pub dry_run: bool,
}
