//! `notify.command`: run when a run's activity becomes `waiting` or `done`,
//! by the command that recorded it (see the parent module).
//!
//! It is a configured command ([`crate::configured_command`], kind
//! `Notify`): `sh -c` with the run's worktree as its working directory (the
//! main work tree when the worktree is gone), stdin closed, its output on
//! git-loop's stderr, and in its environment the variables every configured
//! command gets ([`crate::configured_command::env_for`]) and
//! `GIT_LOOP_ACTIVITY` (`waiting` or `done`) and `GIT_LOOP_NOTE` (the note,
//! empty when none). One set in the repository's own `.git-loop.toml` runs
//! only once trusted, as the hooks do; untrusted, it is not run and the
//! caller says why on stderr.
//!
//! A notification is a courtesy, never a condition: an untrusted, failing or
//! missing command leaves the activity recorded and the command that
//! recorded it exiting 0 — the caller turns a [`Notified`] into a note.

use std::ffi::OsStr;

use super::Recorded;
use crate::configured_command::{self, Ended, Kind};
use crate::ctx::Ctx;
use crate::error::Error;

/// What became of the notification of an activity.
#[derive(Debug)]
pub enum Notified {
    /// Not a transition to `waiting` or `done`: nothing to say.
    NotATransition,
    /// No `notify.command` is set.
    NotSet,
    /// Set in the repository's file, and not trusted (or a file it names
    /// changed since): not run, with why.
    Untrusted(String),
    /// It ran, and ended so.
    Ran(Ended),
    /// It could not be looked up or started, with why.
    Failed(String),
}

/// Run `notify.command` for `recorded` (a transition), if one is set and
/// may run.
pub fn notify(ctx: &Ctx, recorded: &Recorded) -> Notified {
    let root = ctx.repo.root();
    let found = ctx.configured(Kind::Notify);
    let command = match found {
        Ok(Some(command)) => command,
        Ok(None) => return Notified::NotSet,
        Err(e @ Error::UntrustedHook { .. }) => return Notified::Untrusted(e.to_string()),
        Err(e) => return Notified::Failed(e.to_string()),
    };
    let id = recorded.entry.id.as_str();
    let worktree = ctx.worktree_path(id);
    let dir = if worktree.is_dir() {
        worktree.as_path()
    } else {
        root
    };
    let branch = recorded.entry.branch();
    let activity = recorded.activity();
    let note = recorded.event.detail.as_deref().unwrap_or_default();
    let ports = crate::ops::ports::of(ctx, &recorded.entry).unwrap_or_default();
    let mut env = configured_command::env_for(id, root, &worktree, &branch, &ports);
    env.push((
        "GIT_LOOP_ACTIVITY".into(),
        OsStr::new(activity.as_str()).into(),
    ));
    env.push(("GIT_LOOP_NOTE".into(), OsStr::new(note).into()));
    match configured_command::execute(&command, dir, &env) {
        Ok(outcome) => Notified::Ran(outcome),
        Err(e @ Error::UntrustedHook { .. }) => Notified::Untrusted(e.to_string()),
        Err(e) => Notified::Failed(e.to_string()),
    }
}

impl Notified {
    /// The line said on stderr about it, if any: an untrusted command (not
    /// run), one that failed or could not start. A run that went well, or
    /// none to run, says nothing.
    pub fn warning(&self) -> Option<String> {
        match self {
            Notified::NotATransition | Notified::NotSet => None,
            Notified::Ran(outcome) if outcome.ok => None,
            Notified::Ran(outcome) => Some(format!(
                "warning: notify.command `{}` {}; the activity is recorded",
                outcome.command,
                outcome.describe()
            )),
            Notified::Untrusted(why) => Some(format!(
                "note: notify.command not run: {why} (read it, then `git loop trust`); the activity is recorded"
            )),
            Notified::Failed(why) => Some(format!(
                "warning: notify.command: {why}; the activity is recorded"
            )),
        }
    }
}
