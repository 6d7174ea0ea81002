//! Command-line types. The `///` comments are the help text and, through
//! `examples/generate`, the man pages, so they are written for a person
//! meeting the tool for the first time. Values are validated here, by typed
//! value parsers ([`RunId`], [`StatusList`], [`Cutoff`], [`MinAge`]): a usage
//! error comes from one place, before any repository is opened.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use schemars::JsonSchema;

use crate::manifest::Status;

mod schema;
mod trash;
mod values;

pub use schema::SchemaName;
pub use trash::{TrashAction, TrashArgs};
pub use values::{Cutoff, MinAge, RunId, StatusList};
use values::{default_min_age, min_age_flag, older_than_flag, sparse_dir, status_flag};

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
    #[command(
        after_help = "Examples:\n  git loop mark fix-login merged\n  git loop mark --detect-merged --dry-run"
    )]
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
    /// Which active runs would conflict when landed (with each other, or with the base), and where
    #[command(
        after_help = "Every merge is computed in memory: no worktree, index or ref changes. A pair conflicts when,\nwith the first run landed in the base, the second does not merge cleanly into the result (in files\nneither conflicts in by itself). Runs with different recorded bases are not paired.\n\nExamples:\n  git loop conflicts\n  git loop conflicts --json --base main"
    )]
    Conflicts(ConflictsArgs),
    /// Show the event log: what each command did to each run, oldest first
    #[command(after_help = format!(
        "Events: {}.\n\nExample:\n  git loop log fix-login",
        crate::events::EventKind::names()
    ))]
    Log(LogArgs),
    /// What destroying steps kept (refs/loop/trash/): list it, restore from it, empty it
    #[command(
        after_help = "Before git-loop deletes a branch (--delete-merged-branches, branches --delete-merged),\nreplaces a salvage, or removes a worktree holding its own refs (refs/worktree/*, refs/bisect/*),\nit keeps each tip as one ref refs/loop/trash/<when>/<why>/<what>. Entries older than trash.keep\n(default 30d) are dropped by later cleanups.\n\nExamples:\n  git loop trash\n  git loop trash restore loop/fix-login\n  git loop trash empty --older-than 7d --dry-run"
    )]
    Trash(TrashArgs),
    /// Let the hooks in this repository's .git-loop.toml run (for its current content)
    #[command(
        after_help = "A repository's own .git-loop.toml comes with the code you cloned, so the hooks it sets\n(create.post-command, cleanup.pre-command) run only once you have read it and trusted its\ncontent. Trust is recorded for the file's exact content (its git blob id) in .git/git-loop/trusted,\nwith the content of every file of the work tree its hooks name (`sh ./setup.sh` names setup.sh);\nafter any change to the file or to one of those, trust it again. Not covered: what those files run\nor read in turn, and what a hook reaches without naming it (a variable, an absolute path, make's\nMakefile, programs on PATH). Hooks from git config, your own config file or the\nenvironment need no trust.\n\nExample:\n  cat .git-loop.toml && git loop trust"
    )]
    Trust,
    /// Serve git-loop's commands to an AI agent: an MCP server on stdin/stdout
    #[command(
        after_help = "JSON-RPC 2.0, one message a line. Tools: create, mark, list, path, log, cleanup, remove,\nreconcile, branches, conflicts, restore; each result is the document the command prints with\n--json. A tool that removes anything is a dry run unless its input sets \"dry_run\": false.\nEnds at EOF.\n\nExample (an MCP client's configuration):\n  {\"mcpServers\": {\"git-loop\": {\"command\": \"git-loop\", \"args\": [\"mcp\"]}}}"
    )]
    Mcp,
    /// Claude Code's WorktreeCreate and WorktreeRemove hooks: each run of Claude Code a git-loop run
    #[command(
        subcommand,
        after_help = "In .claude/settings.json:\n  {\"hooks\": {\"WorktreeCreate\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"git loop claude-hook create\"}]}],\n             \"WorktreeRemove\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"git loop claude-hook remove\"}]}]}}"
    )]
    ClaudeHook(ClaudeHook),
    /// Print the JSON Schema of a command's --json output (or of the MCP tools' inputs)
    #[command(
        after_help = "NAME is a command (its --json document; remove's is cleanup's), error (the document of\nany failure), mcp-tools (the input schema of each MCP tool), or all (the default: every one in\none document). Draft 2020-12; also checked in under schema/.\n\nExample:\n  git loop schema cleanup"
    )]
    Schema(SchemaArgs),
    /// Prepared worktrees that make `create` fast: status, fill or drain the warm pool
    #[command(
        after_help = "`fill` prepares worktrees under .loop-worktrees/.pool/, detached at the base, until the pool\nholds N (default: config pool.size); `create` then takes one (a move and a switch of the\nfiles that differ) instead of checking out from scratch, keeping its ignored files (a warm\ntarget/ or node_modules/). `drain` removes them with cleanup's rules (never forced).\n\nExamples:\n  git loop pool fill 4\n  git loop pool status\n  git loop pool drain"
    )]
    Pool(PoolArgs),
    /// Show the effective settings and where each one comes from
    #[command(
        after_help = "Settings come, lowest to highest, from: built-in defaults, ~/.config/git-loop/config.toml,\n<repo>/.git-loop.toml, git config (loop.base, loop.cleanupStatus, loop.cleanupOlderThan),\nthe environment (GIT_LOOP_BASE, GIT_LOOP_CLEANUP_STATUS, GIT_LOOP_CLEANUP_OLDER_THAN), and flags.\n\nExample:\n  git config loop.base develop && git loop config"
    )]
    Config,
}

#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Which schema (default: all)
    #[arg(value_enum)]
    pub name: Option<SchemaName>,
}

#[derive(Debug, Subcommand)]
pub enum ClaudeHook {
    /// Read WorktreeCreate's JSON on stdin, create (or reuse) the run, print only its path
    #[command(
        after_help = "The run id is the proposed name (`name`, or `worktree_name`) with every character other than\nletters, digits, `-`, `_` and `.` replaced by `-`, runs of `-` and of `.` collapsed, `-` and `.`\ntrimmed from both ends, and cut to 100 bytes; a name that is then empty or still not a valid id\nis refused. The pattern is the setting claude.pattern (default claude-code)."
    )]
    Create,
    /// Read WorktreeRemove's JSON on stdin and remove that run's worktree (never forced; branch kept)
    Remove,
}

#[derive(Debug, Args, JsonSchema)]
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

    /// If this run is already active and its worktree is intact, print its path and change nothing; if loop/<RUN_ID> exists with no worktree, check it out as it is
    #[arg(long)]
    #[serde(default)]
    pub reuse: bool,

    /// Check out only these directories (sparse checkout, cone mode; files at the top are always there)
    #[arg(long, value_name = "DIR", num_args = 1.., value_parser = sparse_dir)]
    #[serde(default)]
    pub sparse: Vec<String>,

    /// Fetch the base's upstream first (git fetch), e.g. origin/main for main (config create.fetch)
    #[arg(long)]
    #[serde(default)]
    pub fetch: bool,
}

#[derive(Debug, Args, JsonSchema)]
pub struct MarkArgs {
    // Both are `required` (completions offer them as such), and a missing
    // one is accepted only with the flags that conflict with them.
    /// Id of the run
    #[arg(value_parser = RunId::parse, required = true)]
    pub run_id: Option<RunId>,

    /// What the run became
    #[arg(value_enum, required = true)]
    pub status: Option<Status>,

    /// Mark `merged` every run whose work is in its base (ancestor, squash or rebase); empty runs are left alone
    #[arg(long, conflicts_with_all = ["run_id", "status"])]
    #[serde(default)]
    pub detect_merged: bool,

    /// With --detect-merged: report what would be marked; change nothing
    // (`default_value = None`: without it clap let `--dry-run` through
    // without `--detect-merged`.)
    #[arg(long, conflicts_with_all = ["run_id", "status"], requires = "detect_merged", default_value = None)]
    #[serde(default)]
    pub dry_run: bool,
}

#[derive(Debug, Args, JsonSchema)]
pub struct CleanupArgs {
    /// Statuses to clean up, comma-separated (default: rejected,escalated; never active)
    #[arg(long, value_name = "CSV", value_parser = status_flag)]
    pub status: Option<StatusList>,

    /// Only runs created longer ago than this: <n> with s, m, h or d (e.g. 24h)
    #[arg(long, value_name = "AGE", value_parser = older_than_flag)]
    pub older_than: Option<Cutoff>,

    /// Report what would be removed; change nothing
    #[arg(long)]
    #[serde(default)]
    pub dry_run: bool,

    /// Also delete each removed run's branch, only if its work is in its base (ancestor, squash or rebase)
    #[arg(long)]
    #[serde(default)]
    pub delete_merged_branches: bool,

    /// Put worktrees that would be removed back into the warm pool instead (up to pool.size)
    #[arg(long)]
    #[serde(default)]
    pub recycle: bool,
    /// Save a dirty run's changes to refs/loop/salvage/<id> first, then remove it
    #[arg(long)]
    #[serde(default)]
    pub salvage: bool,
}

#[derive(Debug, Args)]
pub struct PoolArgs {
    #[command(subcommand)]
    pub action: Option<PoolAction>,
}

#[derive(Debug, Clone, Copy, Subcommand)]
pub enum PoolAction {
    /// Show the pool's members and whether each is ready (the default)
    Status,
    /// Prepare worktrees at the base until the pool holds N
    Fill {
        /// How many members the pool should hold (default: config pool.size)
        #[arg(value_name = "N", value_parser = clap::value_parser!(u16).range(0..=256))]
        n: Option<u16>,
    },
    /// Remove every member (never forced; one in use or not clean is left)
    Drain,
}

#[derive(Debug, Args, JsonSchema)]
pub struct RemoveArgs {
    /// Runs to remove (not active ones)
    #[arg(required = true, value_name = "RUN_ID", value_parser = RunId::parse)]
    pub run_ids: Vec<RunId>,

    /// Report what would be removed; change nothing
    #[arg(long)]
    #[serde(default)]
    pub dry_run: bool,

    /// Save a dirty run's changes to refs/loop/salvage/<id> first, then remove it
    #[arg(long)]
    #[serde(default)]
    pub salvage: bool,
}

#[derive(Debug, Args, JsonSchema)]
pub struct RestoreArgs {
    /// Id of the salvaged run
    #[arg(value_parser = RunId::parse)]
    pub run_id: RunId,
}

#[derive(Debug, Args, JsonSchema)]
pub struct ReconcileArgs {
    /// Remove this orphan worktree (repeatable; never forced)
    #[arg(long, value_name = "ID", value_parser = RunId::parse)]
    pub remove_orphan: Vec<RunId>,

    /// Record this orphan as an active run instead (repeatable): it must be a worktree of this
    /// repository with loop/<ID> checked out, older than --min-age
    #[arg(long, value_name = "ID", value_parser = RunId::parse)]
    pub adopt: Vec<RunId>,

    /// Refuse to remove or adopt an orphan younger than this (<n><s|m|h|d>; 0 disables)
    #[arg(long, value_name = "AGE", default_value = "2h", value_parser = min_age_flag)]
    #[schemars(default = "default_min_age", extend("default" = "2h"))]
    pub min_age: MinAge,

    /// Report what would change; change nothing
    #[arg(long)]
    #[serde(default)]
    pub dry_run: bool,
}

#[derive(Debug, Args, JsonSchema)]
pub struct ListArgs {
    /// Only runs with these statuses, comma-separated
    #[arg(long, value_name = "CSV", value_parser = status_flag)]
    pub status: Option<StatusList>,

    /// Also show, per run, uncommitted work, commits ahead of and behind its base, and whether it is merged
    #[arg(short, long)]
    #[serde(default)]
    pub long: bool,

    /// List the salvaged runs (refs/loop/salvage/<id>) instead, for `git loop restore`
    #[arg(long, conflicts_with_all = ["status", "long", "ids"])]
    #[serde(default)]
    pub salvaged: bool,

    /// Print only the run ids, one a line (for shell completion)
    #[arg(long, hide = true)]
    #[schemars(skip)]
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

#[derive(Debug, Args, JsonSchema)]
pub struct LogArgs {
    /// Only this run's events
    #[arg(value_parser = RunId::parse)]
    pub run_id: Option<RunId>,
}

#[derive(Debug, Args, JsonSchema)]
pub struct PathArgs {
    /// Id of the run
    #[arg(value_parser = RunId::parse)]
    pub run_id: RunId,
}

#[derive(Debug, Args, JsonSchema)]
pub struct ConflictsArgs {
    /// Land every run in this branch or commit (default: the base each run was created from)
    #[arg(long, value_name = "BRANCH")]
    pub base: Option<String>,
}

#[derive(Debug, Args, JsonSchema)]
pub struct BranchesArgs {
    /// Delete the leftover branches merged into the base (only if still at the tip checked)
    #[arg(long)]
    #[serde(default)]
    pub delete_merged: bool,

    /// Report what --delete-merged would delete; change nothing
    #[arg(long)]
    #[serde(default)]
    pub dry_run: bool,
}
