//! Where a value comes from.
//!
//! [`Source`] is the layer kind, and its order *is* the precedence (as jj's
//! `ConfigSource`): a value from a later variant overrides one from an
//! earlier variant. [`Origin`] is the exact place — the file, the git-config
//! key and file, the variable — and is what messages and `git loop
//! config` print (its `Display` is that text, unchanged since origins were
//! plain strings).

use std::fmt;
use std::path::PathBuf;

/// The kinds of layer, lowest precedence first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Source {
    Default,
    UserFile,
    RepoFile,
    GitConfig,
    Env,
}

/// Where in git's configuration a `loop.*` value was set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GitAt {
    /// A config file (system, global, local, worktree, or an include).
    File(PathBuf),
    /// `git -c key=value loop …` (`GIT_CONFIG_PARAMETERS`).
    CommandLine,
    /// Anywhere else gix reports (`GIT_CONFIG_COUNT`…), as gix names it.
    Other(String),
}

/// The exact origin of a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    Default,
    UserFile(PathBuf),
    RepoFile(PathBuf),
    GitConfig { key: &'static str, at: GitAt },
    Env(&'static str),
}

impl Origin {
    pub fn source(&self) -> Source {
        match self {
            Origin::Default => Source::Default,
            Origin::UserFile(_) => Source::UserFile,
            Origin::RepoFile(_) => Source::RepoFile,
            Origin::GitConfig { .. } => Source::GitConfig,
            Origin::Env(_) => Source::Env,
        }
    }

    /// How to fix a value where this origin sets it: `key` is its TOML key
    /// (when one key is at fault) and `line` its line in a TOML file (when
    /// known). The help of an invalid-value error: it names the file and
    /// the key or line, never a command that would fail the same way.
    pub fn fix(&self, key: Option<&str>, line: Option<usize>) -> String {
        match self {
            Origin::UserFile(path) | Origin::RepoFile(path) => {
                let path = path.display();
                match (line, key) {
                    (Some(n), Some(key)) => format!("edit {path}, line {n} (`{key}`)"),
                    (Some(n), None) => format!("edit {path}, line {n}"),
                    (None, Some(key)) => format!("edit `{key}` in {path}"),
                    (None, None) => format!("edit {path}"),
                }
            }
            Origin::GitConfig {
                key: git,
                at: GitAt::File(path),
            } => format!(
                "set it with `git config --file {path} --replace-all {git} <value>`, or remove it with `git config --file {path} --unset-all {git}`",
                path = path.display()
            ),
            Origin::GitConfig {
                key: git,
                at: GitAt::CommandLine,
            } => format!("fix the `-c {git}=…` option given to git"),
            Origin::GitConfig { key: git, .. } => {
                format!("`git config --show-origin --get-all {git}` shows where it is set")
            }
            Origin::Env(var) => format!("fix or unset {var}"),
            Origin::Default => String::new(),
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Default => f.write_str("built-in default"),
            Origin::UserFile(path) | Origin::RepoFile(path) => {
                write!(f, "TOML file {}", path.display())
            }
            Origin::GitConfig { key, at } => match at {
                GitAt::File(path) => write!(f, "git config {key} in {}", path.display()),
                GitAt::CommandLine => {
                    write!(f, "git config {key} from the command line (git -c)")
                }
                GitAt::Other(what) => write!(f, "git config {key} ({what})"),
            },
            Origin::Env(var) => write!(f, "environment {var}"),
        }
    }
}

/// A value and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Sourced<T> {
    pub value: T,
    pub origin: Origin,
}

impl<T> Sourced<T> {
    pub fn new(value: T, origin: Origin) -> Self {
        Sourced { value, origin }
    }

    /// Whether the value comes from the repository's own `.git-loop.toml`
    /// (a hook from there needs `git loop trust`).
    #[allow(
        clippy::wrong_self_convention,
        reason = "a predicate (is it from the repo file?), not a conversion"
    )]
    pub fn from_repo_file(&self) -> bool {
        self.origin.source() == Source::RepoFile
    }
}
