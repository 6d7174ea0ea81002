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

pub use trash::{TrashAction, TrashArgs};
pub use values::{Cutoff, MinAge, RunId, StatusList};
use values::{default_min_age, min_age_flag, older_than_flag, sparse_dir, status_flag};

/// Give every parallel run of work its own git worktree and branch
///
/// Each run gets `.loop-worktrees/<id>/` on branch `loop/<id>`, recorded in
/// `.loop-worktrees/manifest.json`. Mark what each run became; cleanup removes
/// finished worktrees without ever forcing, and keeps every branch.
///
/// Every run has one of five statuses:
///   active     being worked on (what create records); never cleaned up
///   rejected   the attempt failed or was dropped; cleaned up by default
///   escalated  needs a person; cleaned up by default
///   merged     its work landed; cleaned up with --status merged
///   stale      abandoned; cleaned up with --status stale
///
/// Nothing is destroyed that is not safe to destroy: a worktree with uncommitted, untracked
/// or unreachable work is skipped with a code, never forced; a branch is deleted only on
/// request and only when its work is provably in its base, and its tip is kept in the trash
/// (git loop trash) first; --salvage saves a dirty run to refs/loop/salvage/<id> first.
///
/// Settings are read from ~/.config/git-loop/config.toml, <repo>/.git-loop.toml, git config
/// (loop.*) and the environment (GIT_LOOP_*); git loop config shows them. Each command is
/// documented in git-loop-<command>(1); the project's docs/ holds the rest.
#[derive(Debug, Parser)]
#[command(
    name = "git-loop",
    bin_name = "git loop",
    version,
    max_term_width = 100,
    verbatim_doc_comment,
    after_help = "Examples:\n  cd \"$(git loop create fix-login --pattern bugfix)\"\n  git loop mark fix-login merged\n  git loop cleanup --status merged --delete-merged-branches\n  git loop --json list"
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
    ///
    /// Adds the worktree .loop-worktrees/<RUN_ID> on a new branch loop/<RUN_ID> from the base
    /// (--base, else the setting base, else main), records the run as active in
    /// .loop-worktrees/manifest.json, and prints the worktree's absolute path alone on stdout.
    /// Then copies the untracked files create.copy and .worktreeinclude select (as reflinks
    /// where the filesystem can) and runs create.post-command in the new worktree.
    ///
    /// An active run of that id, or an existing loop/<RUN_ID> branch, is refused: a branch is
    /// never reset or deleted. With --reuse, an intact active run is handed back unchanged
    /// ("method": "reused"), and a loop/<RUN_ID> left with no worktree is checked out as it is
    /// ("adopted"). When the warm pool (git loop pool) has a ready member, it is taken instead
    /// of a fresh checkout ("pooled"). A base behind its upstream is warned about; --fetch
    /// fetches the upstream first.
    ///
    /// Settings: base, create.copy, create.post-command, create.ignore-file, create.fetch.
    #[command(
        verbatim_doc_comment,
        after_help = "Example:\n  cd \"$(git loop create fix-login --pattern bugfix)\""
    )]
    Create(CreateArgs),
    /// Record what a run became (never deletes it)
    ///
    /// The five statuses:
    ///   active     being worked on (what create records); never cleaned up
    ///   rejected   the attempt failed or was dropped; cleaned up by default
    ///   escalated  needs a person; cleaned up by default
    ///   merged     its work landed; cleaned up with --status merged
    ///   stale      abandoned; cleaned up with --status stale
    ///
    /// mark prints `<id>: <old> -> <new>` on stderr. It takes the run's lock, so a mark and a
    /// removal of the same run never cross: a cleanup that selected the run skips it once it is
    /// marked again.
    ///
    /// --detect-merged marks merged every run whose work is in its base: its tip is an ancestor
    /// of the base, or merging it would change nothing (squash; rebase when the patch ids agree
    /// too). Runs with no commits of their own are left alone; runs whose patch ids alone match
    /// are listed as probable, never marked.
    #[command(
        verbatim_doc_comment,
        after_help = "Examples:\n  git loop mark fix-login merged\n  git loop mark --detect-merged --dry-run"
    )]
    Mark(MarkArgs),
    /// Remove the worktrees of finished runs (never forced; branches are kept)
    ///
    /// Selects the runs whose status is in the set (--status, else the setting cleanup.status,
    /// else rejected,escalated; active is never selected) and removes each worktree with a
    /// plain `git worktree remove`, never --force. A worktree with anything to lose is skipped
    /// with a code: dirty, untracked, locked, submodules, unreachable-commits,
    /// operation-in-progress, nested-repo, in-use, undeletable, hook-refused, ... Its entry and
    /// files stay. Exit 0 even when runs were skipped.
    ///
    /// Branches are kept. --delete-merged-branches deletes a removed run's branch only when its
    /// work is in its base, by a compare-and-swap at the tip proven merged, after keeping that
    /// tip in the trash (git loop trash restore brings it back). --salvage saves a dirty run to
    /// refs/loop/salvage/<id> first (git loop restore brings it back). --recycle puts a
    /// removable worktree back into the warm pool instead.
    ///
    /// Settings: cleanup.status, cleanup.older-than, cleanup.delete-merged-branches,
    /// cleanup.salvage, cleanup.recycle, cleanup.pre-command (a hook that may veto each
    /// removal), pool.size, pool.keep, trash.keep (older trash entries are dropped afterwards).
    #[command(
        verbatim_doc_comment,
        after_help = "Examples:\n  git loop cleanup --dry-run\n  git loop cleanup --status rejected,stale --older-than 24h"
    )]
    Cleanup(CleanupArgs),
    /// Remove the worktrees of the named runs, whatever their status but active (cleanup's rules)
    ///
    /// The runs' worktrees are removed as cleanup removes them: never forced, skipped with a code
    /// when anything in them would be lost, cleanup.pre-command may veto, branches kept, entries
    /// dropped. An active id (run-active) or an unknown one (unknown-id) refuses the whole
    /// command before anything changes. --salvage saves a dirty run first.
    #[command(
        verbatim_doc_comment,
        after_help = "Example:\n  git loop remove try-a try-b --dry-run"
    )]
    Remove(RemoveArgs),
    /// Bring back a run saved by `remove --salvage` or `cleanup --salvage`, as it was
    ///
    /// The worktree comes back at .loop-worktrees/<RUN_ID> on loop/<RUN_ID> (recreated at the
    /// salvage's first parent if the branch is gone), with its changes as they were: staged
    /// stays staged, untracked stays untracked. The run is recorded as active again; the salvage
    /// ref refs/loop/salvage/<RUN_ID> is kept until the next salvage of that id. A run salvaged
    /// with a detached HEAD comes back detached. `git loop list --salvaged` lists the salvages.
    #[command(
        verbatim_doc_comment,
        after_help = "Example:\n  git loop list --salvaged && git loop restore try-a"
    )]
    Restore(RestoreArgs),
    /// Compare git's worktrees with the manifest: report orphans, drop vanished runs
    ///
    /// An orphan is a worktree registered with git under .loop-worktrees/ that the manifest does
    /// not know (a crashed create, a hand-made worktree). It is reported; removed only when named
    /// with --remove-orphan (never forced), or recorded as an active run with --adopt, and only
    /// when older than --min-age (a create may still be recording it). Entries whose directory is
    /// gone are dropped, with their stale git registration. Nothing outside .loop-worktrees/ is
    /// touched.
    ///
    /// Settings: base (the base of a run --adopt records).
    #[command(
        verbatim_doc_comment,
        after_help = "Example:\n  git loop reconcile --remove-orphan old-run"
    )]
    Reconcile(ReconcileArgs),
    /// List recorded runs
    ///
    /// One line per run: id, status (active, rejected, escalated, merged, stale), pattern, age,
    /// branch, and whether its worktree is present. --long adds what a removal would have to keep
    /// (dirty, untracked, an operation in progress, unreachable commits, nested repositories,
    /// in-use), commits ahead of and behind its base, and whether its work is merged (ancestor,
    /// squash, rebase; rebase? when only the patch ids agree; empty). --salvaged lists the
    /// salvaged runs instead. Read-only: no lock is taken.
    #[command(
        verbatim_doc_comment,
        after_help = "Example:\n  git loop list --status active --long"
    )]
    List(ListArgs),
    /// Print the absolute path of a run's worktree
    ///
    /// The path alone on stdout, for `cd "$(git loop path <RUN_ID>)"`; a run whose worktree is
    /// gone is an error (worktree-missing).
    #[command(
        verbatim_doc_comment,
        after_help = "Example:\n  cd \"$(git loop path fix-login)\""
    )]
    Path(PathArgs),
    /// Run a command inside a run's worktree, passing its exit code through
    ///
    /// The command runs with the worktree as its working directory, and with GIT_LOOP_ID and
    /// GIT_LOOP_ROOT (the main worktree) in its environment. Its exit code is git-loop's (128 + N
    /// when it dies of signal N).
    #[command(
        verbatim_doc_comment,
        after_help = "Example:\n  git loop run fix-login -- cargo test"
    )]
    Run(RunArgs),
    /// List loop/* branches no run records (left by cleanup); delete the merged ones
    ///
    /// A leftover branch has no manifest entry, so it is compared with the configured base
    /// (the setting base, default main). --delete-merged deletes a branch only when its work is
    /// in the base (its tip an ancestor, or merging it would change nothing), or it has no
    /// commits of its own, and only at the tip it checked; each tip is kept in the trash first.
    /// A branch checked out in any worktree is never deleted.
    ///
    /// Settings: base, trash.keep.
    #[command(
        verbatim_doc_comment,
        after_help = "Examples:\n  git loop branches\n  git loop branches --delete-merged --dry-run"
    )]
    Branches(BranchesArgs),
    /// Which active runs would conflict when landed (with each other, or with the base), and where
    ///
    /// Every merge is computed in memory: no worktree, index or ref changes. A pair conflicts
    /// when, with the first run landed in the base, the second does not merge cleanly into the
    /// result (in files neither conflicts in by itself). Runs with different recorded bases are
    /// not paired. A landing order puts the runs that land cleanly first. Exit 0 whatever the
    /// conflicts.
    #[command(
        verbatim_doc_comment,
        after_help = "Examples:\n  git loop conflicts\n  git loop conflicts --json --base main"
    )]
    Conflicts(ConflictsArgs),
    /// Show the event log: every create, mark, remove, skip, drop and reuse
    ///
    /// .loop-worktrees/events.jsonl, one JSON object a line, appended as each change happens and
    /// never rewritten. Kinds: create, mark, remove, skip, drop, orphan-remove, reuse,
    /// branch-delete, adopt, salvage, restore, trash-restore, trash-expire. A malformed line is
    /// reported and skipped.
    #[command(
        verbatim_doc_comment,
        after_help = "Example:\n  git loop log fix-login"
    )]
    Log(LogArgs),
    /// What destroying steps kept (refs/loop/trash/): list it, restore from it, empty it
    ///
    /// Before git-loop deletes a branch (--delete-merged-branches, branches --delete-merged),
    /// replaces a salvage, or removes a worktree holding its own refs (refs/worktree/*,
    /// refs/bisect/*), it keeps each tip as one ref refs/loop/trash/<when>/<why>/<what>. restore
    /// never writes over an existing branch (--as names another). Entries older than trash.keep
    /// (default 30d) are dropped by later cleanups.
    ///
    /// Settings: trash.keep.
    #[command(
        verbatim_doc_comment,
        after_help = "Examples:\n  git loop trash\n  git loop trash restore loop/fix-login\n  git loop trash empty --older-than 7d --dry-run"
    )]
    Trash(TrashArgs),
    /// Let the hooks in this repository's .git-loop.toml run (for its current content)
    ///
    /// A repository's own .git-loop.toml comes with the code you cloned, so the hooks it sets
    /// (create.post-command, cleanup.pre-command) run only once you have read it and trusted its
    /// content. Trust is recorded for the file's exact content (its git blob id) in
    /// .git/git-loop/trusted, with the content of every file of the work tree its hooks name
    /// (`sh ./setup.sh` names setup.sh); after any change to the file or to one of those, trust it
    /// again. Not covered: what those files run or read in turn, and what a hook reaches without
    /// naming it (a variable, an absolute path, make's Makefile, programs on PATH). Hooks from git
    /// config, your own config file or the environment need no trust.
    #[command(
        verbatim_doc_comment,
        after_help = "Example:\n  cat .git-loop.toml && git loop trust"
    )]
    Trust,
    /// Serve git-loop's commands to an AI agent: an MCP server on stdin/stdout
    ///
    /// JSON-RPC 2.0, one message a line. Tools: create, mark, list, path, log, cleanup, remove,
    /// reconcile, branches, conflicts, restore; each result is the document the command prints
    /// with --json. A tool that removes anything is a dry run unless its input sets
    /// "dry_run": false. Ends at EOF.
    #[command(
        verbatim_doc_comment,
        after_help = "Example (an MCP client's configuration):\n  {\"mcpServers\": {\"git-loop\": {\"command\": \"git-loop\", \"args\": [\"mcp\"]}}}"
    )]
    Mcp,
    /// Claude Code's WorktreeCreate and WorktreeRemove hooks: each run of Claude Code a git-loop run
    ///
    /// create makes (or reuses) a run of the pattern claude.pattern for the worktree Claude Code
    /// asks for and prints only its path; remove marks that run stale and removes its worktree
    /// with remove's rules. Neither ever takes a run, branch or directory the hook did not make
    /// for that name.
    ///
    /// Settings: claude.pattern (default claude-code), and create's and cleanup.pre-command.
    #[command(
        subcommand,
        verbatim_doc_comment,
        after_help = "Example (.claude/settings.json):\n  {\"hooks\": {\"WorktreeCreate\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"git loop claude-hook create\"}]}],\n             \"WorktreeRemove\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"git loop claude-hook remove\"}]}]}}"
    )]
    ClaudeHook(ClaudeHook),
    /// Print the JSON Schema of a command's --json output (or of the MCP tools' inputs)
    ///
    /// NAME is a command (its --json document; remove's is cleanup's), error (the document of any
    /// failure), mcp-tools (the input schema of each MCP tool), or all (the default: every one in
    /// one document). Draft 2020-12; also checked in under schema/.
    #[command(
        verbatim_doc_comment,
        after_help = "Example:\n  git loop schema cleanup"
    )]
    Schema(SchemaArgs),
    /// Prepared worktrees that make `create` fast: status, fill or drain the warm pool
    ///
    /// fill prepares worktrees under .loop-worktrees/.pool/, detached at the base, until the pool
    /// holds N (default: the setting pool.size); create then takes one (a move and a switch of the
    /// files that differ) instead of checking out from scratch, keeping its ignored files (a warm
    /// target/ or node_modules/). cleanup --recycle puts removable worktrees back, keeping only
    /// the ignored files pool.keep names. drain removes the members with cleanup's rules (never
    /// forced).
    ///
    /// Settings: pool.size, pool.keep, base.
    #[command(
        verbatim_doc_comment,
        after_help = "Examples:\n  git loop pool fill 4\n  git loop pool status\n  git loop pool drain"
    )]
    Pool(PoolArgs),
    /// Show the effective settings and where each one comes from
    ///
    /// Settings come, lowest to highest, from: built-in defaults, ~/.config/git-loop/config.toml,
    /// <repo>/.git-loop.toml, git config (loop.base, loop.cleanupStatus, ...), the environment
    /// (GIT_LOOP_BASE, GIT_LOOP_CLEANUP_STATUS, ...), and flags. An invalid value in any layer is
    /// an error naming the layer.
    ///
    /// The settings: base, cleanup.status, cleanup.older-than, cleanup.delete-merged-branches,
    /// cleanup.salvage, cleanup.pre-command, create.copy, create.post-command,
    /// create.ignore-file, create.fetch, claude.pattern, cleanup.recycle, pool.size, trash.keep,
    /// pool.keep.
    #[command(
        verbatim_doc_comment,
        after_help = "Example:\n  git config loop.base develop && git loop config"
    )]
    Config,
}

#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Which schema (default: all)
    #[arg(value_parser = [
        "all", "branches", "cleanup", "config", "conflicts", "create", "list", "log", "mark",
        "path", "pool", "reconcile", "remove", "restore", "trash", "trust", "error", "mcp-tools",
    ])]
    pub name: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum ClaudeHook {
    /// Read WorktreeCreate's JSON on stdin, create (or reuse) the run, print only its path
    ///
    /// The run id is the proposed name (`name`, or `worktree_name`) with every character other
    /// than letters, digits, `-`, `_` and `.` replaced by `-`, runs of `-` and of `.` collapsed,
    /// `-` and `.` trimmed from both ends, and cut to 100 bytes; a name that is then empty or
    /// still not a valid id is refused (invalid-run-id). The repository is `cwd` from the input
    /// (-C overrides it). The pattern is the setting claude.pattern (default claude-code). The
    /// hook's own intact active run for that name is reused; a run, branch or directory of that
    /// id the hook did not make for this name is never used: the next free id (`fix-login-2`) is
    /// taken. Input that is not the expected JSON is refused (invalid-hook-input).
    #[command(verbatim_doc_comment)]
    Create,
    /// Read WorktreeRemove's JSON on stdin and remove that run's worktree (never forced; branch kept)
    ///
    /// Reads `worktree_path`. A path that is not a recorded run's .loop-worktrees/<id>, or a run
    /// the hook did not make (another pattern than claude.pattern, or no record of the hook
    /// making it), is left alone, with a line on stderr. Otherwise an active run is marked stale
    /// and its worktree removed with remove's rules: a worktree with anything to lose is skipped,
    /// its reason on stderr. Exit 0; nothing on stdout.
    #[command(verbatim_doc_comment)]
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
    ///
    /// Each member is ready, busy (claimed right now by a create, fill or drain), or unfit, with
    /// the reason (the next create or fill discards it).
    #[command(verbatim_doc_comment)]
    Status,
    /// Prepare worktrees at the base until the pool holds N
    ///
    /// Each member is a worktree under .loop-worktrees/.pool/<commit>-<suffix>, registered with
    /// git, HEAD detached at the base (the setting base, resolved as create does). Members that
    /// fail their checks are discarded with cleanup's rules.
    #[command(verbatim_doc_comment)]
    Fill {
        /// How many members the pool should hold (default: config pool.size)
        #[arg(value_name = "N", value_parser = clap::value_parser!(u16).range(0..=256))]
        n: Option<u16>,
    },
    /// Remove every member (never forced; one in use or not clean is left)
    ///
    /// A member another git-loop process holds is skipped (in-use); one git refuses to remove
    /// keeps its skip code.
    #[command(verbatim_doc_comment)]
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
