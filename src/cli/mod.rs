//! Command-line types. The `///` comments are the help text and, through
//! `examples/generate`, the man pages, so they are written for a person
//! meeting the tool for the first time. Values are validated here, by typed
//! value parsers ([`RunId`], [`StatusList`], [`Cutoff`], [`MinAge`]): a usage
//! error comes from one place, before any repository is opened.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use schemars::JsonSchema;

use crate::manifest::Status;

mod activity;
mod claude_hook;
mod completion;
mod create;
mod env;
mod help;
mod judge;
mod land;
pub mod man;
mod pick;
mod removal;
mod schema;
mod sync;
mod trash;
mod values;
mod watch;

pub use activity::ActivityArgs;
pub use claude_hook::ClaudeHook;
pub use completion::{CompletionArgs, CompletionShell};
pub use create::CreateArgs;
pub use env::EnvArgs;
pub use judge::JudgeArgs;
pub use land::{LandArgs, LandOptions};
pub use pick::PickArgs;
pub use removal::{CleanupArgs, RemoveArgs};
pub use schema::{SchemaArgs, SchemaName};
pub use sync::SyncArgs;
pub use trash::{TrashAction, TrashArgs};
pub use values::{Cutoff, MinAge, RunId, StatusList};
use values::{default_min_age, min_age_flag, since_flag, status_flag};
pub use watch::WatchArgs;

/// Give every parallel run of work its own git worktree and branch
#[derive(Debug, Parser)]
#[command(
    long_about = help::GIT_LOOP,
    name = "git-loop",
    bin_name = "git loop",
    version,
    max_term_width = 100,
    after_help = help::GIT_LOOP_EXAMPLES
)]
pub struct Cli {
    /// Repository to operate on (default: the current directory)
    #[arg(short = 'C', long = "repo", value_name = "DIR", global = true)]
    pub repo: Option<PathBuf>,

    /// Machine-readable output: one JSON document on stdout
    #[arg(long, global = true)]
    pub json: bool,

    /// No progress or summary lines on stderr, no per-run lines of what went as asked
    #[arg(short, long, global = true)]
    pub quiet: bool,

    /// Colour: always, never or auto, as git's --color (alone: always; default: color.loop, color.ui, then the environment)
    #[arg(long, global = true, value_name = "WHEN", num_args = 0..=1, require_equals = true, default_missing_value = "always", value_parser = color_when)]
    pub color: Option<crate::style::ColorWhen>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create a worktree and branch `loop/<RUN_ID>` for a new run
    #[command(long_about = help::CREATE, after_help = help::CREATE_EXAMPLES)]
    Create(CreateArgs),
    /// Record what a run became (never deletes it)
    #[command(long_about = help::MARK, after_help = help::MARK_EXAMPLES)]
    Mark(MarkArgs),
    /// Remove the worktrees of finished runs (never forced; branches are kept)
    #[command(long_about = help::CLEANUP, after_help = help::CLEANUP_EXAMPLES)]
    Cleanup(CleanupArgs),
    /// Remove the worktrees of the named runs, whatever their status but active (cleanup's rules)
    #[command(long_about = help::REMOVE, after_help = help::REMOVE_EXAMPLES)]
    Remove(RemoveArgs),
    /// Bring back a run saved by `remove --salvage` or `cleanup --salvage`, as it was
    #[command(long_about = help::RESTORE, after_help = help::RESTORE_EXAMPLES)]
    Restore(RestoreArgs),
    /// Compare git's worktrees with the manifest: report orphans, drop vanished runs
    #[command(long_about = help::RECONCILE, after_help = help::RECONCILE_EXAMPLES)]
    Reconcile(ReconcileArgs),
    /// List recorded runs
    #[command(long_about = help::LIST, after_help = help::LIST_EXAMPLES)]
    List(ListArgs),
    /// Print the absolute path of a run's worktree
    #[command(long_about = help::PATH, after_help = help::PATH_EXAMPLES)]
    Path(PathArgs),
    /// Record what a run is doing: working, waiting (for a person) or done (list shows it)
    #[command(long_about = help::ACTIVITY, after_help = help::ACTIVITY_EXAMPLES)]
    Activity(ActivityArgs),
    /// Print a run's GIT_LOOP_* variables as export lines, for eval or direnv
    #[command(long_about = help::ENV, after_help = help::ENV_EXAMPLES)]
    Env(EnvArgs),
    /// Run a command inside a run's worktree, passing its exit code through
    #[command(long_about = help::RUN, after_help = help::RUN_EXAMPLES)]
    Run(RunArgs),
    /// List loop/* branches no run records (left by cleanup); delete the merged ones
    #[command(long_about = help::BRANCHES, after_help = help::BRANCHES_EXAMPLES)]
    Branches(BranchesArgs),
    /// Which active runs would conflict when landed (with each other, or with the base), and where
    #[command(long_about = help::CONFLICTS, after_help = help::CONFLICTS_EXAMPLES)]
    Conflicts(ConflictsArgs),
    /// Land runs onto their base: built in memory, gated, the branch moved by compare-and-swap
    #[command(long_about = help::LAND, after_help = help::LAND_EXAMPLES)]
    Land(LandArgs),
    /// Bring each run's base into its branch: rebased (or merged) in memory, moved by compare-and-swap
    #[command(long_about = help::SYNC, after_help = help::SYNC_EXAMPLES)]
    Sync(SyncArgs),
    /// Pick a task's winning attempt: escalate or land it, reject its siblings
    #[command(long_about = help::PICK, after_help = help::PICK_EXAMPLES)]
    Pick(PickArgs),
    /// Run a gate in every attempt of a task (<TASK>.1, ...) and rank them on evidence
    #[command(long_about = help::JUDGE, after_help = help::JUDGE_EXAMPLES)]
    Judge(JudgeArgs),
    Watch(WatchArgs),
    /// Show the event log: what each command did to each run, oldest first
    #[command(long_about = help::log(), after_help = help::LOG_EXAMPLES)]
    Log(LogArgs),
    /// What destroying steps kept (refs/loop/trash/): list it, restore from it, empty it
    #[command(long_about = help::TRASH, after_help = help::TRASH_EXAMPLES)]
    Trash(TrashArgs),
    /// Let the hooks in this repository's .git-loop.toml run (for its current content)
    #[command(long_about = help::TRUST, after_help = help::TRUST_EXAMPLES)]
    Trust,
    /// Serve git-loop's commands to an AI agent: an MCP server on stdin/stdout
    #[command(long_about = help::MCP, after_help = help::MCP_EXAMPLES)]
    Mcp,
    /// Claude Code's hooks: each run of Claude Code a git-loop run, and what it is doing
    #[command(long_about = help::CLAUDE_HOOK, subcommand, after_help = help::CLAUDE_HOOK_EXAMPLES)]
    ClaudeHook(ClaudeHook),
    /// Print the JSON Schema of a command's --json output (or of the MCP tools' inputs)
    #[command(long_about = help::SCHEMA, after_help = help::SCHEMA_EXAMPLES)]
    Schema(SchemaArgs),
    /// Prepared worktrees that make `create` fast: status, fill or drain the warm pool
    #[command(long_about = help::POOL, after_help = help::POOL_EXAMPLES)]
    Pool(PoolArgs),
    /// Show the effective settings and where each one comes from
    #[command(long_about = help::CONFIG, after_help = help::CONFIG_EXAMPLES)]
    Config,
    /// Print the completion script for bash, zsh or fish (what git-loop's install script installs)
    #[command(long_about = help::COMPLETION, after_help = help::COMPLETION_EXAMPLES)]
    Completion(CompletionArgs),
    /// Publish this machine's runs to the fleet's remote: each run's branch and its record, by compare-and-swap
    #[command(long_about = help::PUBLISH, after_help = help::PUBLISH_EXAMPLES)]
    Publish(PublishArgs),
    /// Take a lease on a task on the fleet's remote: exactly one machine gets it
    #[command(long_about = help::CLAIM, after_help = help::CLAIM_EXAMPLES)]
    Claim(ClaimArgs),
    /// Publish a run with everything not committed, for another machine to take (create --from)
    #[command(long_about = help::HANDOFF, after_help = help::HANDOFF_EXAMPLES)]
    Handoff(HandoffArgs),
}

#[derive(Debug, Args)]
pub struct PublishArgs {
    /// Ids of the runs to publish (default: every run of this machine; a run no longer recorded is unpublished)
    #[arg(value_name = "RUN_ID", value_parser = RunId::parse)]
    pub run_ids: Vec<RunId>,
}

#[derive(Debug, Args)]
pub struct ClaimArgs {
    /// The task's name (a run id's rules): the lease is refs/loop/claims/<TASK> on the remote
    #[arg(value_parser = RunId::parse)]
    pub task: RunId,

    /// Release this machine's lease on the task instead
    #[arg(long)]
    pub release: bool,
}

#[derive(Debug, Args)]
pub struct HandoffArgs {
    /// Id of the run to hand off (its HEAD on loop/<RUN_ID>)
    #[arg(value_name = "RUN_ID", value_parser = RunId::parse)]
    pub run_id: RunId,
}

#[derive(Debug, Args, JsonSchema)]
#[schemars(transform = mark_run_id_alias)]
// `mark rejected`: one value, the status (clap's "optional positional
// before a required one").
#[command(allow_missing_positional = true)]
pub struct MarkArgs {
    // The status is `required`, and missing only with the flags that
    // conflict with it. The last value is the status, every one before it a
    // run id; with none, the run is the one whose worktree holds the current
    // directory (`crate::ops::infer`).
    /// Ids of the runs (one or more; all are marked, or none)
    #[arg(value_name = "RUN_ID", value_parser = RunId::parse)]
    #[serde(default)]
    pub run_ids: Vec<RunId>,

    /// What the runs became
    #[arg(value_enum, required = true)]
    pub status: Option<Status>,

    /// Mark `merged` every run whose work is in its base (ancestor, squash or rebase); empty runs are left alone
    #[arg(long, conflicts_with_all = ["run_ids", "status"])]
    #[serde(default)]
    pub detect_merged: bool,

    /// With --detect-merged: report what would be marked; change nothing
    // (`default_value = None`: without it clap let `--dry-run` through
    // without `--detect-merged`.)
    #[arg(long, conflicts_with_all = ["run_ids", "status"], requires = "detect_merged", default_value = None)]
    #[serde(default)]
    pub dry_run: bool,
}

/// The MCP tool `mark` took one `run_id` before it took `run_ids`: its
/// input schema keeps that property, so a client written for it still
/// works (the tool passes both on as run ids).
fn mark_run_id_alias(schema: &mut schemars::Schema) {
    if let Some(properties) = schema.get_mut("properties").and_then(|p| p.as_object_mut()) {
        properties.insert(
            "run_id".to_owned(),
            serde_json::json!({
                "description": "Id of one run (as `run_ids` with one id; kept for clients written before `run_ids`)",
                "minLength": 1,
                "type": ["string", "null"],
            }),
        );
    }
}

#[derive(Debug, Args)]
pub struct PoolArgs {
    #[command(subcommand)]
    pub action: Option<PoolAction>,
}

#[derive(Debug, Clone, Copy, Subcommand)]
pub enum PoolAction {
    /// Show the pool's members and whether each is ready (the default)
    #[command(long_about = help::POOL_STATUS)]
    Status,
    /// Prepare worktrees at the base until the pool holds N
    #[command(long_about = help::POOL_FILL)]
    Fill {
        /// How many members the pool should hold (default: config pool.size)
        #[arg(value_name = "N", value_parser = clap::value_parser!(u16).range(0..=256))]
        n: Option<u16>,
    },
    /// Remove every member (never forced; one in use or not clean is left)
    #[command(long_about = help::POOL_DRAIN)]
    Drain,
}

#[derive(Debug, Args, JsonSchema)]
pub struct RestoreArgs {
    /// Id of the salvaged run
    #[arg(value_parser = RunId::parse)]
    pub run_id: RunId,

    /// Drop the salvage instead: refs/loop/salvage/<ID> moves to the trash (`git loop trash restore` brings it back)
    // Not in the MCP tool's input: an agent brings runs back, a person
    // decides a salvage is not wanted.
    #[arg(long)]
    #[schemars(skip)]
    pub drop: bool,
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

    /// Also show each worktree's size on disk and how much is its own (not shared by reflink)
    #[arg(long, conflicts_with = "salvaged")]
    #[serde(default)]
    pub disk: bool,

    /// List the salvaged runs (refs/loop/salvage/<id>) instead, for `git loop restore`
    #[arg(long, conflicts_with_all = ["status", "long"])]
    #[serde(default)]
    pub salvaged: bool,

    /// Only the attempts of this task (<TASK>.1, <TASK>.2, …, in that order), with their judge results
    #[arg(long, value_name = "TASK", value_parser = RunId::parse, conflicts_with_all = ["salvaged", "long"])]
    pub task: Option<RunId>,

    /// Every machine's published runs, read from the fleet's remote (refs/loop/fleet/*)
    #[arg(long, conflicts_with_all = ["salvaged", "long", "disk", "task", "status", "ids"])]
    #[schemars(skip)]
    pub fleet: bool,

    /// Print only the run ids, one a line (for shell completion); with
    /// --salvaged, the salvaged ones
    #[arg(long, hide = true)]
    #[schemars(skip)]
    pub ids: bool,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Id of the run
    #[arg(value_parser = RunId::parse)]
    pub run_id: RunId,

    // `trailing_var_arg`: from the command's first word on, every word is
    // the command's (`run x make -j4 test`: `-j4` is make's). A first word
    // that starts with `-` is git-loop's flag, so a command whose name does
    // (or one given after a flag of git-loop's) goes after `--`.
    /// The command and its arguments (after `--` when the command starts with `-`)
    #[arg(
        required = true,
        trailing_var_arg = true,
        value_name = "COMMAND",
        value_hint = clap::ValueHint::CommandWithArguments
    )]
    pub command: Vec<std::ffi::OsString>,
}

#[derive(Debug, Args, JsonSchema)]
pub struct LogArgs {
    /// Only this run's events
    #[arg(value_parser = RunId::parse)]
    pub run_id: Option<RunId>,

    /// Only the newest N events (still printed oldest first, like `tail -n`)
    #[arg(short = 'n', long, value_name = "N")]
    pub max_count: Option<usize>,

    /// Only the events of the last AGE: <n> with s, m, h or d (e.g. 2h, 7d)
    #[arg(long, value_name = "AGE", value_parser = since_flag)]
    pub since: Option<Cutoff>,
}

#[derive(Debug, Args, JsonSchema)]
pub struct PathArgs {
    // Optional here (inside a run's worktree, that run: `crate::ops::infer`),
    // required in the MCP tool's schema: an agent always names the run.
    /// Id of the run
    #[arg(value_parser = RunId::parse)]
    #[schemars(required)]
    pub run_id: Option<RunId>,
}

#[derive(Debug, Args, JsonSchema)]
pub struct ConflictsArgs {
    /// Land every run in this branch or commit (default: the base each run was created from)
    #[arg(long, value_name = "BRANCH")]
    pub base: Option<String>,

    /// The statuses of the runs to check, comma-separated (default: active; `land --queue` takes escalated)
    #[arg(long, value_name = "CSV", value_parser = status_flag)]
    pub status: Option<StatusList>,
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

/// `--color=<WHEN>`: `always`, `never` or `auto`, as git's commands take it.
fn color_when(text: &str) -> Result<crate::style::ColorWhen, String> {
    match text {
        "always" => Ok(crate::style::ColorWhen::Always),
        "never" => Ok(crate::style::ColorWhen::Never),
        "auto" => Ok(crate::style::ColorWhen::Auto),
        other => Err(format!("{other:?} is not always, never or auto")),
    }
}
