//! `git loop claude-hook activity`: Claude Code's `UserPromptSubmit`,
//! `Notification` and `Stop` hooks, one command for the three. The input's
//! `hook_event_name` says which: `UserPromptSubmit` records `working`,
//! `Notification` `waiting` (with its `message` as the note), `Stop` `done`
//! — for the run whose worktree holds the input's `cwd` (at any depth), as
//! `git loop activity` records it, `notify.command` included. The prompt
//! itself is never recorded (it is the person's text, and the log is read
//! by anyone with the repository).
//!
//! Claude Code runs these hooks in every session, in a run or not, so the
//! hook is quiet about what is not its business: a `cwd` in no run's
//! worktree (the main checkout, another repository, no repository), or an
//! event it does not map, changes nothing, says nothing and exits 0.
//! Nothing is ever written on stdout (Claude Code would add a
//! `UserPromptSubmit` hook's stdout to the prompt); an untrusted or failing
//! `notify.command` is a line on stderr, and still exit 0.

use super::Input;
use crate::cli::Cli;
use crate::ctx::Ctx;
use crate::events::Activity;
use crate::output::{Fail, Out};

/// The activity a hook event means, if it is one of the three.
pub fn activity_of(hook_event_name: &str) -> Option<Activity> {
    match hook_event_name {
        "UserPromptSubmit" => Some(Activity::Working),
        "Notification" => Some(Activity::Waiting),
        "Stop" => Some(Activity::Done),
        _ => None,
    }
}

/// Record the activity the input means (see the module doc).
pub fn record(cli: &Cli, input: &Input, out: &mut Out<'_>) -> std::result::Result<(), Fail> {
    let Some(activity) = input.hook_event_name.as_deref().and_then(activity_of) else {
        return Ok(());
    };
    let dir = match &input.cwd {
        Some(cwd) => crate::ops::infer::start_dir(Some(cwd))?,
        None => crate::ops::infer::start_dir(None)?,
    };
    let Ok(ctx) = Ctx::open(cli.repo.as_deref().or(Some(dir.as_path()))) else {
        return Ok(());
    };
    let Ok(id) = crate::ops::infer::run_at(&ctx, &dir, "") else {
        return Ok(());
    };
    let note = match activity {
        Activity::Waiting => input.message.as_deref(),
        _ => None,
    };
    let recorded = crate::ops::activity::record(&ctx, &id, activity, note)?;
    if let Some(warning) = recorded.notified.warning() {
        out.note(format_args!("{}", crate::style::escape(&warning)));
    }
    Ok(())
}
