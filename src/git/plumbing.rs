//! git plumbing for salvage and restore (see [`crate::worktree::salvage`]):
//! `write-tree`, `add -A` and `read-tree` against a temporary index
//! (`GIT_INDEX_FILE`), `commit-tree`, a compare-and-swap `update-ref`, and
//! `worktree add` of an existing branch. Same hygiene as [`super::cmd`]:
//! the repository variables are removed, `LC_ALL=C`, no prompt, `--`
//! before paths, never `--force`.

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Stdio};

use super::error::CommandError;
use crate::error::{Error, Result};

/// `git -C <dir> <args>` (with `GIT_INDEX_FILE=<index>` when given): its
/// stdout, trimmed, or the failure as [`Error::Git`].
pub fn git(dir: &Path, index: Option<&Path>, args: &[&OsStr]) -> Result<String> {
    let mut cmd = Command::new("git");
    super::cmd::without_repo_env(cmd.arg("-C").arg(dir).args(args))
        .env("LC_ALL", "C")
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(index) = index {
        cmd.env("GIT_INDEX_FILE", index);
    }
    let output = cmd
        .output()
        .map_err(|e| Error::io("could not run", "git", e))?;
    if !output.status.success() {
        return Err(Error::from(CommandError {
            args: args
                .iter()
                .map(|a| a.to_string_lossy().into_owned())
                .collect(),
            status: output.status.code(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }));
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

/// Shorthand for string arguments.
pub fn git_str(dir: &Path, index: Option<&Path>, args: &[&str]) -> Result<String> {
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    git(dir, index, &args)
}

/// `git update-ref --create-reflog -m <msg> <name> <new> <old>`: `old` is
/// the value the ref must still have (all zeros: it must not exist), so a
/// concurrent change is refused, not overwritten.
pub fn update_ref(dir: &Path, name: &str, new: &str, old: &str, msg: &str) -> Result<()> {
    git_str(
        dir,
        None,
        &["update-ref", "--create-reflog", "-m", msg, name, new, old],
    )
    .map(drop)
}
