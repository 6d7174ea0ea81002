//! Every setting, in one table: [`settings!`]'s entries below. An entry is
//! all a new setting needs in the code; from it come its three names (the
//! TOML key path, also its key in `git loop config --json`; the git-config
//! key and the environment variable, by the naming rule), its class, its
//! type, reading and check, its built-in default, its `Settings` field and
//! its row in `git loop config` ([`super::table`] says how). The docs'
//! lists of keys are held to [`ALL`] by `tests/integration/docs_sync.rs`.
//!
//! The check functions are [`validate`]'s; a value's type is shown by
//! `git loop config` through [`super::report::Show`].

use jiff::SignedDuration;

pub use super::class::Class;
use super::file::TomlFile;
use super::raw::Read;
use super::report::{Show, Shown};
use super::source::{Origin, Sourced};
use super::table::{ascii, env_len, env_name, git_len, git_name, settings};
pub use super::types::{IgnoreFile, Key, LandStrategy, MAX_CREATE_PORTS, SyncStrategy};
use super::types::{SizeValue, StatusValue};
use super::validate::{self, At};
use crate::error::Result;
use crate::manifest::Status;

settings! {
    /// The branch (or commit-ish) `create` starts from.
    BASE: "base", Plain {
        base: String = "main".to_owned(),
        read String => validate::base,
    }

    /// The statuses `cleanup` removes.
    CLEANUP_STATUS: "cleanup.status", WeakensGuard {
        cleanup_status: Vec<Status> = vec![Status::Rejected, Status::Escalated],
        read StatusValue => validate::status_set,
    }

    /// Only runs older than this are cleaned up. No cutoff by default.
    CLEANUP_OLDER_THAN: "cleanup.older-than", Plain {
        cleanup_older_than: Option<SignedDuration> = None,
        read String => validate::some_cutoff,
    }

    /// Delete a removed run's branch when it is merged into its base.
    CLEANUP_DELETE_MERGED: "cleanup.delete-merged-branches", WeakensGuard {
        cleanup_delete_merged_branches: bool = false,
        read bool => validate::as_read,
    }

    /// Salvage a dirty run to `refs/loop/salvage/<id>`, then remove it
    /// (`cleanup --salvage`).
    CLEANUP_SALVAGE: "cleanup.salvage", WeakensGuard {
        cleanup_salvage: bool = false,
        read bool => validate::as_read,
    }

    /// A hook run in a worktree before `cleanup` removes it. None by default.
    CLEANUP_PRE_COMMAND: "cleanup.pre-command", RunsCommand {
        cleanup_pre_command: Option<String> = None,
        read String => validate::command,
    }

    /// Patterns (gitignore syntax) of untracked or ignored files copied from
    /// the main worktree into a new one. None by default.
    CREATE_COPY: "create.copy", WeakensGuard {
        create_copy: Vec<String> = Vec::new(),
        read Vec<String> => validate::copy_patterns,
    }

    /// A hook run in a new worktree after `create`. None by default.
    CREATE_POST_COMMAND: "create.post-command", RunsCommand {
        create_post_command: Option<String> = None,
        read String => validate::command,
    }

    /// Where `create` writes the `.loop-worktrees/` ignore line.
    CREATE_IGNORE_FILE: "create.ignore-file", Plain {
        create_ignore_file: IgnoreFile = IgnoreFile::Gitignore,
        read String => validate::ignore_file,
    }

    /// Fetch the base's upstream before `create` (as `--fetch` does). Off by
    /// default: `create` only reads what was last fetched.
    CREATE_FETCH: "create.fetch", Plain {
        create_fetch: bool = false,
        read bool => validate::as_read,
    }

    /// The pattern label `create` records when `--pattern` is not given.
    CREATE_PATTERN: "create.pattern", Plain {
        create_pattern: String = "manual".to_owned(),
        read String => validate::pattern_label,
    }

    /// The pattern of the runs `git loop claude-hook create` makes.
    CLAUDE_PATTERN: "claude.pattern", Plain {
        claude_pattern: String = "claude-code".to_owned(),
        read String => validate::pattern_label,
    }

    /// Put a worktree cleanup would remove back into the warm pool instead.
    CLEANUP_RECYCLE: "cleanup.recycle", WeakensGuard {
        cleanup_recycle: bool = false,
        read bool => validate::as_read,
    }

    /// How many prepared worktrees `pool fill` makes and `cleanup --recycle`
    /// keeps (at most `MAX_POOL_SIZE`).
    POOL_SIZE: "pool.size", Plain {
        pool_size: usize = 4,
        read SizeValue => validate::pool_size,
    }

    /// How long the trash (`refs/loop/trash/`) keeps what a destroying step
    /// kept; later cleanups drop older entries. 30 days by default.
    TRASH_KEEP: "trash.keep", WeakensGuard {
        trash_keep: SignedDuration = SignedDuration::from_hours(30 * 24),
        read String => validate::cutoff,
    }

    /// The ignored files a recycled worktree keeps for the next run
    /// (gitignore patterns); every other ignored file is removed before it
    /// goes back into the pool. By default the build and dependency
    /// directories people keep warm: Rust/Maven `target/`, npm
    /// `node_modules/`, Python `.venv/`, CMake/Gradle `build/`, Gradle's
    /// `.gradle/`.
    POOL_KEEP: "pool.keep", WeakensGuard {
        pool_keep: Vec<String> = ["target/", "node_modules/", ".venv/", "build/", ".gradle/"]
            .map(str::to_owned)
            .to_vec(),
        read Vec<String> => validate::copy_patterns,
    }

    /// A command `git loop land` runs in a scratch checkout of the landed
    /// commit before the target moves; a failure refuses the landing. None
    /// by default.
    LAND_GATE: "land.gate", RunsCommand {
        land_gate: Option<String> = None,
        read String => validate::command,
    }

    /// How `land` builds the landed commits (`--strategy`).
    LAND_STRATEGY: "land.strategy", Plain {
        land_strategy: LandStrategy = LandStrategy::Rebase,
        read String => validate::land_strategy,
    }

    /// The branch `land` lands in (`--into`). None by default: each run's
    /// recorded base, when it is a local branch.
    LAND_INTO: "land.into", Plain {
        land_into: Option<String> = None,
        read String => validate::land_into,
    }

    /// The statuses `land --queue` lands (`--status`).
    LAND_QUEUE_STATUS: "land.queue-status", WeakensGuard {
        land_queue_status: Vec<Status> = vec![Status::Escalated],
        read StatusValue => validate::status_set,
    }

    /// How many times `land --push` rebuilds and pushes again after the
    /// remote moved (at most `MAX_LAND_PUSH_RETRIES`).
    LAND_PUSH_RETRIES: "land.push-retries", Plain {
        land_push_retries: usize = 3,
        read SizeValue => validate::push_retries,
    }

    /// Whether untracked files in a run's worktree refuse its landing
    /// (`dirty`), as uncommitted changes always do. Off by default: what lands
    /// is the run's commits, and the untracked files stay in the worktree
    /// (which is then kept, `untracked`).
    // Plain: either value removes nothing.
    LAND_REQUIRE_CLEAN: "land.require-clean", Plain {
        land_require_clean: bool = false,
        read bool => validate::as_read,
    }

    /// How `git loop sync` brings a run's base into its branch
    /// (`--strategy`): rebase (its commits replayed) or merge.
    SYNC_STRATEGY: "sync.strategy", Plain {
        sync_strategy: SyncStrategy = SyncStrategy::Rebase,
        read String => validate::sync_strategy,
    }

    /// A command `git loop sync` runs in a scratch checkout of a synced
    /// commit before the run's branch moves; a failure keeps the run where
    /// it was (`gate-failed`). None by default.
    SYNC_GATE: "sync.gate", RunsCommand {
        sync_gate: Option<String> = None,
        read String => validate::command,
    }

    /// A command `git loop judge` runs in each active attempt's worktree of
    /// a task; its exit code is the attempt's "passed". None by default.
    JUDGE_GATE: "judge.gate", RunsCommand {
        judge_gate: Option<String> = None,
        read String => validate::command,
    }

    /// A command run when a run's activity becomes `waiting` or `done`, by
    /// the command that recorded it (`activity`, `claude-hook activity`).
    /// None by default.
    NOTIFY_COMMAND: "notify.command", RunsCommand {
        notify_command: Option<String> = None,
        read String => validate::command,
    }

    /// How many free TCP ports `create` leases to each run (`--ports`; at
    /// most `MAX_CREATE_PORTS`); 0, the default, leases none.
    CREATE_PORTS: "create.ports", Plain {
        create_ports: usize = 0,
        read SizeValue => validate::port_count,
    }

    /// Whether `git loop watch` rings the terminal bell when a run's
    /// activity becomes `waiting` or `done`.
    WATCH_BELL: "watch.bell", Plain {
        watch_bell: bool = true,
        read bool => validate::as_read,
    }

    /// This machine's name in the fleet (`refs/loop/fleet/<name>/` on the
    /// remote, and every run of another machine is shown with its name).
    /// None by default: the host name ([`crate::ops::fleet::identity`]).
    /// `publish` deletes the records under its name whose run is not
    /// here, so another machine's name would widen what it removes.
    FLEET_NAME: "fleet.name", WeakensGuard {
        fleet_name: Option<String> = None,
        read String => validate::fleet_name,
    }

    /// The remote the fleet's refs live on (`publish`, `list --fleet`,
    /// `claim`). None by default: the base branch's upstream remote, else
    /// `origin`. It decides where runs' branches are pushed.
    FLEET_REMOTE: "fleet.remote", WeakensGuard {
        fleet_remote: Option<String> = None,
        read String => validate::fleet_remote,
    }

    /// How long a task's lease (`git loop claim`) holds without renewal;
    /// an older one may be taken over. 2 hours by default.
    FLEET_LEASE: "fleet.lease", WeakensGuard {
        fleet_lease: SignedDuration = SignedDuration::from_hours(2),
        read String => validate::cutoff,
    }

    /// Whether `create`, `mark`, `activity`, `land`, `cleanup` and `remove`
    /// publish this machine's runs after they changed them (as `git loop
    /// publish` does), best effort: each call to the remote cut off after
    /// 5 s, a failure a note, never a failure of the command. Off by
    /// default. It pushes branches, so it weakens a guard.
    FLEET_PUBLISH: "fleet.publish", WeakensGuard {
        fleet_publish: bool = false,
        read bool => validate::as_read,
    }
}

/// Every setting's names — TOML key path, git-config key, environment
/// variable — in the table's order ([`ALL`]): what
/// `tests/integration/docs_sync.rs` holds the docs' key tables to.
pub fn names() -> Vec<[&'static str; 3]> {
    ALL.map(|k| [k.toml, k.git, k.env]).to_vec()
}

// The TOML key paths by themselves, under the names code outside the
// table used before it existed. New code writes `keys::BASE.toml`; a new
// setting needs none of these.
pub const TOML_CLEANUP_PRE_COMMAND: &str = CLEANUP_PRE_COMMAND.toml;
pub const TOML_CREATE_COPY: &str = CREATE_COPY.toml;
pub const TOML_CREATE_POST_COMMAND: &str = CREATE_POST_COMMAND.toml;
pub const TOML_LAND_GATE: &str = LAND_GATE.toml;
pub const TOML_JUDGE_GATE: &str = JUDGE_GATE.toml;
pub const TOML_SYNC_GATE: &str = SYNC_GATE.toml;
pub const TOML_NOTIFY_COMMAND: &str = NOTIFY_COMMAND.toml;
