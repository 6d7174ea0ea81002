//! Run-id validation.
//!
//! A run id is used verbatim as a path segment (`.loop-worktrees/<id>`) and as a
//! branch suffix (`loop/<id>`), so it must be both: one path segment, and a name
//! that `git check-ref-format --branch loop/<id>` accepts. The rules below are
//! git's ref-component rules plus the path rules; they are checked
//! differentially against git itself in the tests.
//!
//! Stricter than git in one more way: every Unicode control character is
//! refused (git refuses only the ASCII ones), as docs/cli.md says.
//!
//! Names git would accept are refused: `@` (git's shorthand for HEAD;
//! `git worktree add` fails on a worktree of that name), `events.jsonl` (the
//! event log) and `manifest.json`, which would collide with the manifest
//! file in `.loop-worktrees/`. (Every other file git-loop keeps there starts with
//! `.`, which git already refuses as the start of a ref component.)

use crate::error::{Error, Result};

/// The directory under the root that holds everything git-loop owns (each
/// run's worktree is `<LOOP_DIR>/<id>`). Defined here, not in the manifest,
/// so the manifest depends on run ids and not the other way round.
pub const LOOP_DIR: &str = ".loop-worktrees";
/// Each run's branch is `<BRANCH_PREFIX>/<id>`.
pub const BRANCH_PREFIX: &str = "loop";

/// Longest accepted run id, in bytes.
pub const MAX_LEN: usize = 128;

/// True for the ids almost every run uses (ASCII letters, digits, `-`, `_`,
/// inner `.`): one pass over the bytes, so validating a 10,000-entry manifest
/// stays cheap. Anything else takes the full rule list below.
fn plainly_valid(id: &str) -> bool {
    let b = id.as_bytes();
    !b.is_empty()
        && b.len() <= MAX_LEN
        && b[0] != b'-'
        && b[0] != b'.'
        && b[b.len() - 1] != b'.'
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
        && !b.windows(2).any(|w| w == b"..")
        && !id.ends_with(".lock")
        && id != "manifest.json"
        && id != "events.jsonl"
}

/// Why `id` is not a valid run id, or `None` if it is.
pub fn problem(id: &str) -> Option<&'static str> {
    if plainly_valid(id) {
        return None;
    }
    if id.is_empty() {
        return Some("it is empty");
    }
    if id.len() > MAX_LEN {
        return Some("it is longer than 128 bytes");
    }
    if id == "." || id == ".." {
        return Some("`.` and `..` are not path segments");
    }
    if id.contains('/') || id.contains('\\') {
        return Some("it must be a single path segment (no `/` or `\\`)");
    }
    if id.chars().any(|c| c.is_control()) {
        return Some("it contains a control character");
    }
    if id.starts_with('-') {
        return Some("it must not start with `-`");
    }
    if id.starts_with('.') {
        return Some("git refuses a ref component that starts with `.`");
    }
    if id.ends_with('.') {
        return Some("git refuses a ref component that ends with `.`");
    }
    if id.ends_with(".lock") {
        return Some("git refuses a ref component that ends with `.lock`");
    }
    if id.contains("..") {
        return Some("git refuses `..` in a ref name");
    }
    if id.contains("@{") {
        return Some("git refuses `@{` in a ref name");
    }
    if let Some(c) = id
        .chars()
        .find(|c| matches!(c, ' ' | '~' | '^' | ':' | '?' | '*' | '['))
    {
        return Some(match c {
            ' ' => "git refuses a space in a ref name",
            '~' => "git refuses `~` in a ref name",
            '^' => "git refuses `^` in a ref name",
            ':' => "git refuses `:` in a ref name",
            '?' => "git refuses `?` in a ref name",
            '*' => "git refuses `*` in a ref name",
            _ => "git refuses `[` in a ref name",
        });
    }
    if id == "@" {
        // git accepts `loop/@`, but `git worktree add` cannot find a worktree
        // named `@` afterwards (git 2.47: "could not find created worktree").
        return Some("`@` alone is git's shorthand for HEAD");
    }
    if id == "manifest.json" || id == "events.jsonl" {
        return Some("`manifest.json` and `events.jsonl` are reserved for git-loop's own files");
    }
    None
}

/// Validate a run id given on the command line (a usage error, exit 2).
pub fn validate(id: &str) -> Result<()> {
    match problem(id) {
        None => Ok(()),
        Some(reason) => Err(Error::InvalidRunId {
            id: id.to_owned(),
            reason: reason.to_owned(),
        }),
    }
}

/// A valid run id: checked once, where it enters (clap's value parser for
/// the command line, the manifest's reader for an entry), and carried typed
/// from there. It reads as the `str` it holds (`Deref`, `Display`, `==`
/// with a `str`), so code that takes `&str` takes `&RunId` unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RunId(String);

impl RunId {
    /// The id, if `text` is one; the error names it and says why not.
    pub fn parse(text: &str) -> Result<RunId> {
        validate(text)?;
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

impl AsRef<str> for RunId {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for RunId {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_ref()
    }
}

impl AsRef<std::path::Path> for RunId {
    fn as_ref(&self) -> &std::path::Path {
        self.0.as_ref()
    }
}

impl std::borrow::Borrow<str> for RunId {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for RunId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(&self.0)
    }
}

impl PartialEq<str> for RunId {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for RunId {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<String> for RunId {
    fn eq(&self, other: &String) -> bool {
        self.0 == *other
    }
}

impl PartialEq<RunId> for str {
    fn eq(&self, other: &RunId) -> bool {
        self == other.0
    }
}

impl PartialEq<RunId> for &str {
    fn eq(&self, other: &RunId) -> bool {
        *self == other.0
    }
}

impl PartialEq<RunId> for String {
    fn eq(&self, other: &RunId) -> bool {
        *self == other.0
    }
}

impl From<RunId> for String {
    fn from(id: RunId) -> String {
        id.0
    }
}

impl serde::Serialize for RunId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

pub fn branch_name(id: &str) -> String {
    format!("{BRANCH_PREFIX}/{id}")
}

/// The run id of a branch named `loop/<id>` (short name), if it is one.
pub fn of_branch(branch: &str) -> Option<&str> {
    branch
        .strip_prefix(BRANCH_PREFIX)
        .and_then(|rest| rest.strip_prefix('/'))
}

pub fn rel_path(id: &str) -> String {
    format!("{LOOP_DIR}/{id}")
}

/// The attempts of a best-of-N task are ordinary runs named `<TASK>.<n>`
/// (`create <TASK> --attempts <N>` makes `<TASK>.1` … `<TASK>.<N>`): the task
/// and the attempt's number when `id` is one, with `n` a decimal number
/// from 1 without leading zeros. `fix.1` is attempt 1 of `fix`; `v1.2.3` is
/// attempt 3 of `v1.2`; `fix.01`, `fix.0` and `fix.x` are no attempts.
pub fn attempt_of(id: &str) -> Option<(&str, u32)> {
    let (task, n) = id.rsplit_once('.')?;
    if task.is_empty()
        || n.is_empty()
        || n.starts_with('0')
        || !n.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    Some((task, n.parse().ok()?))
}

/// The id of attempt `n` of `task`.
pub fn attempt_id(task: &str, n: u32) -> String {
    format!("{task}.{n}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attempts_are_task_dot_number() {
        assert_eq!(attempt_of("fix.1"), Some(("fix", 1)));
        assert_eq!(attempt_of("v1.2.13"), Some(("v1.2", 13)));
        for id in ["fix", "fix.", ".1", "fix.0", "fix.01", "fix.x", "fix.1a"] {
            assert_eq!(attempt_of(id), None, "{id}");
        }
        assert_eq!(attempt_id("fix", 3), "fix.3");
        assert_eq!(validate(&attempt_id("fix", 3)).ok(), Some(()));
    }

    #[test]
    fn accepts_ordinary_ids() {
        for id in ["a", "run-1", "agent_7.try2", "ünïcode", "x@y", "a.b", "@@"] {
            assert_eq!(problem(id), None, "{id}");
        }
    }

    #[test]
    fn refuses_bad_ids() {
        for id in [
            "",
            ".",
            "..",
            "a/b",
            "a\\b",
            "-x",
            ".x",
            "x.",
            "x.lock",
            "a..b",
            "a@{b",
            "a b",
            "a~",
            "a^",
            "a:b",
            "a?",
            "a*",
            "a[",
            "a\u{7f}",
            "a\tb",
            "manifest.json",
            "@",
        ] {
            assert!(problem(id).is_some(), "{id:?} accepted");
        }
        assert!(problem(&"x".repeat(129)).is_some());
        assert!(problem(&"x".repeat(128)).is_none());
    }
}
