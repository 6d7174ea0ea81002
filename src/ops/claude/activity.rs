//! `UserPromptSubmit`, `Notification` and `Stop`: what a run is doing. The
//! event's `hook_event_name` says which: `UserPromptSubmit` records
//! `working`, `Notification` `waiting` (with its `message` as the note),
//! `Stop` `done` — for the run whose worktree holds the event's `cwd` (at
//! any depth), as `git loop activity` records it ([`crate::ops::activity`]),
//! `notify.command` included. The prompt itself is never recorded (it is
//! the person's text, and the log is read by anyone with the repository).
//!
//! Claude Code runs these hooks in every session, in a run or not, so the
//! hook is quiet about what is not its business: a `cwd` in no run's
//! worktree (the main checkout, another repository, no repository), or an
//! event it does not map, changes nothing and is no error.

use std::path::Path;

use crate::ctx::Ctx;
use crate::error::Result;
use crate::events::Activity;
use crate::ops::activity::Recorded;

/// An activity event of Claude Code's.
#[derive(Debug)]
pub struct SessionActivity<'a> {
    /// `-C`: the repository, over `cwd`'s.
    pub repo: Option<&'a Path>,
    /// The input's `cwd`: where the run is found.
    pub cwd: Option<&'a Path>,
    /// `UserPromptSubmit`, `Notification`, `Stop`, …
    pub hook_event_name: Option<&'a str>,
    /// Notification's text: the note of `waiting`.
    pub message: Option<&'a str>,
}

/// The activity a hook event means, if it is one of the three.
pub fn activity_of(hook_event_name: &str) -> Option<Activity> {
    match hook_event_name {
        "UserPromptSubmit" => Some(Activity::Working),
        "Notification" => Some(Activity::Waiting),
        "Stop" => Some(Activity::Done),
        _ => None,
    }
}

/// Record the activity the event means (see the module doc): what was
/// recorded, or `None` when the event is not the hook's business.
pub fn session_activity(event: &SessionActivity<'_>) -> Result<Option<Recorded>> {
    let Some(activity) = event.hook_event_name.and_then(activity_of) else {
        return Ok(None);
    };
    let dir = crate::ops::infer::start_dir(event.cwd)?;
    let Ok(ctx) = Ctx::open(event.repo.or(Some(dir.as_path()))) else {
        return Ok(None);
    };
    let Ok(id) = crate::ops::infer::run_at(&ctx, &dir, "") else {
        return Ok(None);
    };
    let note = match activity {
        Activity::Waiting => event.message,
        _ => None,
    };
    crate::ops::activity::record(&ctx, &id, activity, note).map(Some)
}
