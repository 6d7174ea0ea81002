//! The types the table of settings ([`super::keys`]) is made of: a
//! setting's names ([`Key`]), the values of its own kinds
//! ([`IgnoreFile`], [`LandStrategy`]), the raw shapes a TOML value may take
//! before it is checked ([`SizeValue`], [`StatusValue`]), and the limits
//! the checks hold numbers to.

use serde::Deserialize;

use super::class::Class;

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

/// The largest `pool.size` accepted (each member is a whole checkout).
pub const MAX_POOL_SIZE: usize = 256;
/// The most `land.push-retries` accepted.
pub const MAX_LAND_PUSH_RETRIES: usize = 100;
/// The most `create.ports` (and `--ports`) accepted.
pub const MAX_CREATE_PORTS: usize = 32;

/// `pool.size`: a number from TOML, text from git config and the environment.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum SizeValue {
    Number(i64),
    Text(String),
}

/// `sync.strategy`, `sync --strategy`: how a run's base comes into its branch.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum SyncStrategy {
    /// The run's own commits replayed onto the base's tip, authors and
    /// messages kept.
    Rebase,
    /// A merge commit of the base's tip into the run's branch (its history
    /// kept as it is).
    Merge,
}

impl SyncStrategy {
    pub const ALL: [SyncStrategy; 2] = [SyncStrategy::Rebase, SyncStrategy::Merge];

    pub fn as_str(self) -> &'static str {
        match self {
            SyncStrategy::Rebase => "rebase",
            SyncStrategy::Merge => "merge",
        }
    }

    pub fn parse(text: &str) -> Option<SyncStrategy> {
        SyncStrategy::ALL.into_iter().find(|s| s.as_str() == text)
    }
}

impl std::fmt::Display for SyncStrategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The cleanup status set: a TOML array or a CSV string.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum StatusValue {
    Csv(String),
    List(Vec<String>),
}

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
/// `create.ignore-file`: the file `create` adds `.loop-worktrees/` to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IgnoreFile {
    /// The root `.gitignore`, a tracked file: `git status` shows the edit,
    /// and committing it shares the line with everyone.
    Gitignore,
    /// `<git common dir>/info/exclude`: private to this clone, never shown
    /// by `git status`.
    InfoExclude,
}

impl IgnoreFile {
    pub const ALL: [IgnoreFile; 2] = [IgnoreFile::Gitignore, IgnoreFile::InfoExclude];

    pub fn as_str(self) -> &'static str {
        match self {
            IgnoreFile::Gitignore => "gitignore",
            IgnoreFile::InfoExclude => "info-exclude",
        }
    }

    pub fn parse(text: &str) -> Option<IgnoreFile> {
        IgnoreFile::ALL.into_iter().find(|f| f.as_str() == text)
    }
}
