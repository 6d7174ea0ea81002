//! Every setting: its TOML key path (also its key in `git loop config
//! --json`), its git-config key, its environment variable, and beside them
//! its built-in default. Adding a setting starts here.

pub use super::class::Class;
pub use super::ignore_file::IgnoreFile;
use crate::manifest::Status;

/// The three names of one setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    /// The TOML key path (`cleanup.status`).
    pub toml: &'static str,
    /// The git-config key (`loop.cleanupStatus`).
    pub git: &'static str,
    /// The environment variable (`GIT_LOOP_CLEANUP_STATUS`).
    pub env: &'static str,
    /// What a value may do, which decides whether the repository's own
    /// `.git-loop.toml` may set it before `git loop trust` ([`Class`]).
    pub class: Class,
}

/// The branch (or commit-ish) `create` starts from.
pub const BASE: Key = Key {
    toml: "base",
    git: "loop.base",
    env: "GIT_LOOP_BASE",
    class: Class::Plain,
};
pub const DEFAULT_BASE: &str = "main";

/// The statuses `cleanup` removes.
pub const CLEANUP_STATUS: Key = Key {
    toml: "cleanup.status",
    git: "loop.cleanupStatus",
    env: "GIT_LOOP_CLEANUP_STATUS",
    class: Class::WeakensGuard,
};
pub const DEFAULT_CLEANUP_STATUS: [Status; 2] = [Status::Rejected, Status::Escalated];

/// Only runs older than this are cleaned up. No cutoff by default.
pub const CLEANUP_OLDER_THAN: Key = Key {
    toml: "cleanup.older-than",
    git: "loop.cleanupOlderThan",
    env: "GIT_LOOP_CLEANUP_OLDER_THAN",
    class: Class::Plain,
};

/// Delete a removed run's branch when it is merged into its base.
pub const CLEANUP_DELETE_MERGED: Key = Key {
    toml: "cleanup.delete-merged-branches",
    git: "loop.cleanupDeleteMergedBranches",
    env: "GIT_LOOP_CLEANUP_DELETE_MERGED_BRANCHES",
    class: Class::WeakensGuard,
};
pub const DEFAULT_CLEANUP_DELETE_MERGED: bool = false;

/// Salvage a dirty run to `refs/loop/salvage/<id>`, then remove it.
pub const CLEANUP_SALVAGE: Key = Key {
    toml: "cleanup.salvage",
    git: "loop.cleanupSalvage",
    env: "GIT_LOOP_CLEANUP_SALVAGE",
    class: Class::WeakensGuard,
};
pub const DEFAULT_CLEANUP_SALVAGE: bool = false;

/// A hook run before `cleanup` removes a worktree. None by default.
pub const CLEANUP_PRE_COMMAND: Key = Key {
    toml: "cleanup.pre-command",
    git: "loop.cleanupPreCommand",
    env: "GIT_LOOP_CLEANUP_PRE_COMMAND",
    class: Class::RunsCommand,
};

/// Patterns of untracked or ignored files copied into a new worktree. None
/// by default.
pub const CREATE_COPY: Key = Key {
    toml: "create.copy",
    git: "loop.createCopy",
    env: "GIT_LOOP_CREATE_COPY",
    class: Class::WeakensGuard,
};

/// A hook run in a new worktree after `create`. None by default.
pub const CREATE_POST_COMMAND: Key = Key {
    toml: "create.post-command",
    git: "loop.createPostCommand",
    env: "GIT_LOOP_CREATE_POST_COMMAND",
    class: Class::RunsCommand,
};

/// Where `create` writes the `.loop-worktrees/` ignore line.
pub const CREATE_IGNORE_FILE: Key = Key {
    toml: "create.ignore-file",
    git: "loop.createIgnoreFile",
    env: "GIT_LOOP_CREATE_IGNORE_FILE",
    class: Class::Plain,
};
pub const DEFAULT_CREATE_IGNORE_FILE: IgnoreFile = IgnoreFile::Gitignore;

/// Fetch the base's upstream before `create` (as `--fetch` does). Off by
/// default: `create` only reads what was last fetched.
pub const CREATE_FETCH: Key = Key {
    toml: "create.fetch",
    git: "loop.createFetch",
    env: "GIT_LOOP_CREATE_FETCH",
    class: Class::Plain,
};
pub const DEFAULT_CREATE_FETCH: bool = false;

/// The pattern label `create` records when `--pattern` is not given.
pub const CREATE_PATTERN: Key = Key {
    toml: "create.pattern",
    git: "loop.createPattern",
    env: "GIT_LOOP_CREATE_PATTERN",
    class: Class::Plain,
};
pub const DEFAULT_CREATE_PATTERN: &str = "manual";

/// The pattern of the runs `git loop claude-hook create` makes.
pub const CLAUDE_PATTERN: Key = Key {
    toml: "claude.pattern",
    git: "loop.claudePattern",
    env: "GIT_LOOP_CLAUDE_PATTERN",
    class: Class::Plain,
};
pub const DEFAULT_CLAUDE_PATTERN: &str = "claude-code";

/// Put a worktree cleanup would remove back into the warm pool instead.
pub const CLEANUP_RECYCLE: Key = Key {
    toml: "cleanup.recycle",
    git: "loop.cleanupRecycle",
    env: "GIT_LOOP_CLEANUP_RECYCLE",
    class: Class::WeakensGuard,
};
pub const DEFAULT_CLEANUP_RECYCLE: bool = false;

/// How many prepared worktrees `pool fill` makes and `cleanup --recycle` keeps.
pub const POOL_SIZE: Key = Key {
    toml: "pool.size",
    git: "loop.poolSize",
    env: "GIT_LOOP_POOL_SIZE",
    class: Class::Plain,
};
pub const DEFAULT_POOL_SIZE: usize = 4;
/// The largest `pool.size` accepted (each member is a whole checkout).
pub const MAX_POOL_SIZE: usize = 256;

/// How long the trash (`refs/loop/trash/`) keeps what a destroying step
/// kept; later cleanups drop older entries.
pub const TRASH_KEEP: Key = Key {
    toml: "trash.keep",
    git: "loop.trashKeep",
    env: "GIT_LOOP_TRASH_KEEP",
    class: Class::WeakensGuard,
};
/// 30 days.
pub const DEFAULT_TRASH_KEEP: jiff::SignedDuration = jiff::SignedDuration::from_hours(30 * 24);
// --- pool.keep (self-contained block) ---
/// The ignored files a recycled worktree keeps for the next run (gitignore
/// patterns); every other ignored file is removed before it goes back into
/// the pool.
pub const POOL_KEEP: Key = Key {
    toml: "pool.keep",
    git: "loop.poolKeep",
    env: "GIT_LOOP_POOL_KEEP",
    class: Class::WeakensGuard,
};
/// The build and dependency directories people keep warm: Rust/Maven
/// `target/`, npm `node_modules/`, Python `.venv/`, CMake/Gradle `build/`,
/// Gradle's `.gradle/`.
pub const DEFAULT_POOL_KEEP: [&str; 5] =
    ["target/", "node_modules/", ".venv/", "build/", ".gradle/"];
pub const TOML_POOL_KEEP: &str = POOL_KEEP.toml;
// --- end pool.keep ---
// --- land.gate (self-contained block) ---
/// A command `git loop land` runs in a scratch checkout of the landed
/// commit before the target moves; a failure refuses the landing. None by
/// default.
pub const LAND_GATE: Key = Key {
    toml: "land.gate",
    git: "loop.landGate",
    env: "GIT_LOOP_LAND_GATE",
    class: Class::RunsCommand,
};
pub const TOML_LAND_GATE: &str = LAND_GATE.toml;
// --- end land.gate ---
// --- judge.gate (self-contained block) ---
/// A command `git loop judge` runs in each active attempt's worktree of a
/// task; its exit code is the attempt's "passed". None by default.
pub const JUDGE_GATE: Key = Key {
    toml: "judge.gate",
    git: "loop.judgeGate",
    env: "GIT_LOOP_JUDGE_GATE",
    class: Class::RunsCommand,
};
pub const TOML_JUDGE_GATE: &str = JUDGE_GATE.toml;
// --- end judge.gate ---

// --- land (git loop land) ---
/// How `land` builds the landed commits (`--strategy`).
pub const LAND_STRATEGY: Key = Key {
    toml: "land.strategy",
    git: "loop.landStrategy",
    env: "GIT_LOOP_LAND_STRATEGY",
    class: Class::Plain,
};
pub const DEFAULT_LAND_STRATEGY: LandStrategy = LandStrategy::Rebase;

/// The branch `land` lands in (`--into`). None by default: each run's
/// recorded base, when it is a local branch.
pub const LAND_INTO: Key = Key {
    toml: "land.into",
    git: "loop.landInto",
    env: "GIT_LOOP_LAND_INTO",
    class: Class::Plain,
};

/// The statuses `land --queue` lands (`--status`).
pub const LAND_QUEUE_STATUS: Key = Key {
    toml: "land.queue-status",
    git: "loop.landQueueStatus",
    env: "GIT_LOOP_LAND_QUEUE_STATUS",
    class: Class::WeakensGuard,
};
pub const DEFAULT_LAND_QUEUE_STATUS: [Status; 1] = [Status::Escalated];

/// How many times `land --push` rebuilds and pushes again after the remote
/// moved.
pub const LAND_PUSH_RETRIES: Key = Key {
    toml: "land.push-retries",
    git: "loop.landPushRetries",
    env: "GIT_LOOP_LAND_PUSH_RETRIES",
    class: Class::Plain,
};
pub const DEFAULT_LAND_PUSH_RETRIES: usize = 3;

/// Whether untracked files in a run's worktree refuse its landing
/// (`dirty`), as uncommitted changes always do. Off by default: what lands
/// is the run's commits, and the untracked files stay in the worktree
/// (which is then kept, `untracked`).
pub const LAND_REQUIRE_CLEAN: Key = Key {
    toml: "land.require-clean",
    git: "loop.landRequireClean",
    env: "GIT_LOOP_LAND_REQUIRE_CLEAN",
    // Either value removes nothing: untracked files are never what lands,
    // and a worktree holding them is kept.
    class: Class::Plain,
};
pub const DEFAULT_LAND_REQUIRE_CLEAN: bool = false;
/// The most `land.push-retries` accepted.
pub const MAX_LAND_PUSH_RETRIES: usize = 100;
pub const TOML_LAND_STRATEGY: &str = LAND_STRATEGY.toml;
pub const TOML_LAND_INTO: &str = LAND_INTO.toml;
pub const TOML_LAND_QUEUE_STATUS: &str = LAND_QUEUE_STATUS.toml;
pub const TOML_LAND_PUSH_RETRIES: &str = LAND_PUSH_RETRIES.toml;
pub const TOML_LAND_REQUIRE_CLEAN: &str = LAND_REQUIRE_CLEAN.toml;

/// `land.strategy`, `--strategy`: how a run's commits land.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum LandStrategy {
    /// The run's commits replayed onto the target's tip, authors and
    /// messages kept.
    Rebase,
    /// One commit with the run's whole change.
    Squash,
    /// A merge commit of the target's tip and the run's tip.
    Merge,
    /// Only when the target's tip is an ancestor of the run's tip.
    Ff,
}

impl LandStrategy {
    pub const ALL: [LandStrategy; 4] = [
        LandStrategy::Rebase,
        LandStrategy::Squash,
        LandStrategy::Merge,
        LandStrategy::Ff,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            LandStrategy::Rebase => "rebase",
            LandStrategy::Squash => "squash",
            LandStrategy::Merge => "merge",
            LandStrategy::Ff => "ff",
        }
    }

    pub fn parse(text: &str) -> Option<LandStrategy> {
        LandStrategy::ALL.into_iter().find(|s| s.as_str() == text)
    }
}

impl std::fmt::Display for LandStrategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
// --- end land ---
// --- create.ports (self-contained block) ---
/// How many free TCP ports `create` leases to each run (`--ports`); 0, the
/// default, leases none.
pub const CREATE_PORTS: Key = Key {
    toml: "create.ports",
    git: "loop.createPorts",
    env: "GIT_LOOP_CREATE_PORTS",
    class: Class::Plain,
};
pub const DEFAULT_CREATE_PORTS: usize = 0;
/// The most `create.ports` (and `--ports`) accepted.
pub const MAX_CREATE_PORTS: usize = 32;
pub const TOML_CREATE_PORTS: &str = CREATE_PORTS.toml;
// --- end create.ports ---

/// Every setting, in the order `git loop config` shows them.
// --- notify.command (self-contained block) ---
/// A command run when a run's activity becomes `waiting` or `done`, by the
/// command that recorded it (`activity`, `claude-hook activity`). None by
/// default.
pub const NOTIFY_COMMAND: Key = Key {
    toml: "notify.command",
    git: "loop.notifyCommand",
    env: "GIT_LOOP_NOTIFY_COMMAND",
    class: Class::RunsCommand,
};
pub const TOML_NOTIFY_COMMAND: &str = NOTIFY_COMMAND.toml;
// --- end notify.command ---

// --- watch.bell (self-contained block) ---
/// Whether `git loop watch` rings the terminal bell when a run's activity
/// becomes `waiting` or `done`.
pub const WATCH_BELL: Key = Key {
    toml: "watch.bell",
    git: "loop.watchBell",
    env: "GIT_LOOP_WATCH_BELL",
    class: Class::Plain,
};
pub const DEFAULT_WATCH_BELL: bool = true;
pub const TOML_WATCH_BELL: &str = WATCH_BELL.toml;
// --- end watch.bell ---

/// Every setting, in the order `git loop config` shows them.
pub const ALL: [Key; 26] = [
    BASE,
    CLEANUP_STATUS,
    CLEANUP_OLDER_THAN,
    CLEANUP_DELETE_MERGED,
    CLEANUP_SALVAGE,
    CLEANUP_PRE_COMMAND,
    CREATE_COPY,
    CREATE_POST_COMMAND,
    CREATE_IGNORE_FILE,
    CREATE_FETCH,
    CREATE_PATTERN,
    CLAUDE_PATTERN,
    CLEANUP_RECYCLE,
    POOL_SIZE,
    TRASH_KEEP,
    POOL_KEEP,
    LAND_GATE,
    LAND_STRATEGY,
    LAND_INTO,
    LAND_QUEUE_STATUS,
    LAND_PUSH_RETRIES,
    LAND_REQUIRE_CLEAN,
    JUDGE_GATE,
    NOTIFY_COMMAND,
    CREATE_PORTS,
    WATCH_BELL,
];

/// The TOML key paths by themselves (the names messages and reports use).
pub const TOML_BASE: &str = BASE.toml;
pub const TOML_CLEANUP_STATUS: &str = CLEANUP_STATUS.toml;
pub const TOML_CLEANUP_OLDER_THAN: &str = CLEANUP_OLDER_THAN.toml;
pub const TOML_CLEANUP_DELETE_MERGED: &str = CLEANUP_DELETE_MERGED.toml;
pub const TOML_CLEANUP_SALVAGE: &str = CLEANUP_SALVAGE.toml;
pub const TOML_CLEANUP_PRE_COMMAND: &str = CLEANUP_PRE_COMMAND.toml;
pub const TOML_CREATE_COPY: &str = CREATE_COPY.toml;
pub const TOML_CREATE_POST_COMMAND: &str = CREATE_POST_COMMAND.toml;
pub const TOML_CREATE_IGNORE_FILE: &str = CREATE_IGNORE_FILE.toml;
pub const TOML_CREATE_FETCH: &str = CREATE_FETCH.toml;
pub const TOML_CREATE_PATTERN: &str = CREATE_PATTERN.toml;
pub const TOML_CLAUDE_PATTERN: &str = CLAUDE_PATTERN.toml;
pub const TOML_CLEANUP_RECYCLE: &str = CLEANUP_RECYCLE.toml;
pub const TOML_POOL_SIZE: &str = POOL_SIZE.toml;
pub const TOML_TRASH_KEEP: &str = TRASH_KEEP.toml;
