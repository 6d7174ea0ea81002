//! Claude Code's hooks, below the command line: one operation per hook
//! event — [`worktree_create`] (`WorktreeCreate`), [`worktree_remove`]
//! (`WorktreeRemove`) and [`session_activity`] (`UserPromptSubmit`,
//! `Notification`, `Stop`) — each taking its own request and returning a
//! typed outcome. `git loop claude-hook` reads the hook's JSON and prints
//! the outcome.
//!
//! **Only its own runs.** The hook never hands out, marks or removes a run
//! it did not make. When `create` makes a run, it writes an *ownership
//! record* into the run's git administrative directory
//! (`.git/worktrees/<admin>/git-loop-claude-hook`: outside the work tree,
//! and gone with the registration when the worktree is removed): JSON with
//! the run's id, its `createdAt` and the Claude Code name it was made for
//! ([`owner`]). A run is **the hook's own run for name N** when its manifest
//! entry is active, its pattern is `claude.pattern`, and its registration
//! holds a record whose id and `createdAt` are the entry's (so a record
//! carried by a recycled worktree, or left by an earlier run of the id,
//! counts for nothing) and whose name is exactly N.
//!
//! `create` for name N tries the ids `<id>`, `<id>-2`, `<id>-3`, … (`<id>`
//! made of N by [`run_id_from_name`]) in turn: the first that is the hook's
//! own run for N is reused (as `create --reuse`); else the first that is
//! free — no entry that is active or whose worktree is on disk, no branch
//! `loop/<id>`, no `.loop-worktrees/<id>` — is created. A person's run of
//! the same id (say `fix-login`, pattern `human`, for the name `fix/login`)
//! is never handed out: the hook makes `fix-login-2` instead, and says so
//! on stderr. `remove` removes only a run whose pattern is `claude.pattern`
//! and whose registration holds its matching ownership record; any other
//! run is left alone, with the reason on stderr (exit 0: Claude Code is not
//! kept from going on, and nothing of the person's is touched).
//!
//! The repository of each event is `-C` if given, else the one the event
//! names: the input's `cwd` (`create`, `activity`), the worktree's own
//! (`remove`).

mod activity;
mod create;
mod owner;
mod remove;

use std::path::Path;

use crate::ctx::Ctx;
use crate::error::Result;
use crate::runid::RunId;

pub use activity::{SessionActivity, session_activity};
pub use create::{WorktreeCreate, worktree_create};
pub use remove::{LeftAlone, Removal, WorktreeRemove, worktree_remove};

/// A run id made of Claude Code's proposed worktree name: every character
/// but ASCII letters, digits, `-`, `_` and `.` becomes `-`; runs of `-` and
/// of `.` collapse to one; `-` and `.` are trimmed from both ends; the result
/// is cut to 100 bytes (and trimmed again). `None` when nothing valid is left.
pub fn run_id_from_name(name: &str) -> Option<RunId> {
    let mut id = String::with_capacity(name.len());
    for c in name.chars() {
        let c = if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
            c
        } else {
            '-'
        };
        if matches!(c, '-' | '.') && id.ends_with(c) {
            continue;
        }
        id.push(c);
    }
    let trim = |s: &str| s.trim_matches(['-', '.']).to_owned();
    let mut id = trim(&id);
    id.truncate(100);
    let id = trim(&id);
    RunId::parse(&id).ok()
}

/// The pattern of runs the hook creates: the setting `claude.pattern`.
pub fn pattern(ctx: &Ctx) -> Result<String> {
    Ok(ctx.settings()?.claude_pattern.value.clone())
}

/// The repository: `repo` (`-C`) if given, else `dir`, else ours.
fn open(repo: Option<&Path>, dir: Option<&Path>) -> Result<Ctx> {
    Ctx::open(repo.or(dir))
}

#[cfg(test)]
mod tests {
    use super::run_id_from_name;

    fn id(name: &str) -> Option<String> {
        run_id_from_name(name).map(|id| id.to_string())
    }

    #[test]
    fn a_run_id_is_made_of_the_proposed_name() {
        assert_eq!(id("fix/login").as_deref(), Some("fix-login"));
        assert_eq!(id("--a  b..c--").as_deref(), Some("a-b.c"));
        assert_eq!(id("é"), None);
        assert_eq!(id(&"x".repeat(150)).map(|s| s.len()), Some(100));
    }
}
