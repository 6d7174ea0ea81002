//! `git loop claude-hook create|remove|activity`: Claude Code's
//! `WorktreeCreate` and `WorktreeRemove` hooks, and (`activity`) its
//! `UserPromptSubmit`, `Notification` and `Stop` hooks. Claude Code sends
//! one JSON object on stdin; `create` prints the worktree's absolute path on
//! stdout and nothing else (every other line goes to stderr), `remove` and
//! `activity` print nothing on stdout (Claude Code would add a
//! `UserPromptSubmit` hook's stdout to the prompt). A failure exits non-zero
//! with the reason on stderr; a run `remove` leaves alone, and an
//! `activity` that is not the hook's business, exit 0 (an untrusted or
//! failing `notify.command` is a line on stderr, and still exit 0).
//!
//! The rules — which runs are the hook's own, the choice of a run id for
//! Claude Code's name, what `remove` removes, what `activity` records — are
//! [`crate::ops::claude`]'s: this adapter reads the input, calls the
//! event's operation and prints its outcome.

use std::io::Read;
use std::path::PathBuf;

use serde::Deserialize;

use crate::cli::{ClaudeHook, Cli};
use crate::error::{Error, Result};
use crate::ops::claude::{self, LeftAlone, Removal};
use crate::output::{Fail, Out, Report};

/// The most of stdin read: a hook's input is a few hundred bytes.
const MAX_INPUT: u64 = 1024 * 1024;

/// The fields used of either event's input; any other is ignored.
#[derive(Debug, Default, Deserialize)]
struct Input {
    name: Option<String>,
    /// What some Claude Code builds send in place of `name`.
    worktree_name: Option<String>,
    cwd: Option<PathBuf>,
    worktree_path: Option<PathBuf>,
    /// `UserPromptSubmit`, `Notification`, `Stop`, … (`activity`).
    hook_event_name: Option<String>,
    /// Notification's text (`activity`: the note).
    message: Option<String>,
}

pub fn exec(cli: &Cli, event: &ClaudeHook, out: &mut Out<'_>) -> std::result::Result<(), Fail> {
    let name = match event {
        ClaudeHook::Create => "WorktreeCreate",
        ClaudeHook::Remove => "WorktreeRemove",
        ClaudeHook::Activity => "UserPromptSubmit/Notification/Stop",
    };
    // Claude Code pipes the hook's JSON in; a person who runs the hook by
    // hand on a terminal would otherwise wait on a silent read.
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        return Err(Error::HookInput {
            event: name,
            reason: "standard input is a terminal; the hook reads the JSON Claude Code \
                     pipes to it (e.g. `echo '{\"name\":\"x\"}' | git loop claude-hook create`)"
                .into(),
        }
        .into());
    }
    let input = read_input(&mut std::io::stdin().lock(), name)?;
    match event {
        ClaudeHook::Create => create(cli, &input, out),
        ClaudeHook::Remove => remove(cli, &input, out),
        ClaudeHook::Activity => activity(cli, &input, out),
    }
}

fn read_input(stdin: &mut dyn Read, event: &'static str) -> Result<Input> {
    let mut text = Vec::new();
    stdin
        .take(MAX_INPUT)
        .read_to_end(&mut text)
        .map_err(|e| Error::io("could not read", "standard input", e))?;
    serde_json::from_slice(&text).map_err(|e| Error::HookInput {
        event,
        reason: e.to_string(),
    })
}

/// Create the run for Claude Code's name (or reuse the hook's own) and
/// print its path alone.
fn create(cli: &Cli, input: &Input, out: &mut Out<'_>) -> std::result::Result<(), Fail> {
    let name = input
        .name
        .as_deref()
        .or(input.worktree_name.as_deref())
        .ok_or(Error::HookInput {
            event: "WorktreeCreate",
            reason: "it has neither \"name\" nor \"worktree_name\"".into(),
        })?;
    let event = claude::WorktreeCreate {
        repo: cli.repo.as_deref(),
        cwd: input.cwd.as_deref(),
        name,
    };
    let made = claude::worktree_create(&event, &mut out.notes())?;
    let id = &made.created.entry.id;
    if !made.passed.is_empty() {
        out.note(format_args!(
            "git-loop: not using {} ({}); made {id} for {name:?}",
            made.base_id,
            crate::style::escape(&made.passed.join("; ")),
        ));
    }
    if let Some(failed) = &made.created.error {
        let message = crate::style::escape(&failed.message).into_owned();
        writeln!(out.stderr, "error: {message}")?;
        return Err(Fail::Exit(1));
    }
    if let Some(e) = &made.unrecorded {
        out.note(format_args!(
            "warning: could not record that claude-hook made run {id}: {e}; \
             claude-hook remove will leave it alone"
        ));
    }
    crate::style::write_path_line(&mut *out.stdout, &made.created.abs_path)?;
    out.stdout.flush()?;
    Ok(())
}

/// Remove the hook's own run at `worktree_path`, or say why it is left
/// alone; print the removal as `remove` does, on stderr.
fn remove(cli: &Cli, input: &Input, out: &mut Out<'_>) -> std::result::Result<(), Fail> {
    let worktree_path = input.worktree_path.as_deref().ok_or(Error::HookInput {
        event: "WorktreeRemove",
        reason: "it has no \"worktree_path\"".into(),
    })?;
    let event = claude::WorktreeRemove {
        repo: cli.repo.as_deref(),
        cwd: input.cwd.as_deref(),
        worktree_path,
    };
    let reclaimed = match claude::worktree_remove(&event, &mut out.notes())? {
        Removal::Reclaimed(reclaimed) => reclaimed,
        Removal::LeftAlone(LeftAlone::NotARun { path, why }) => {
            out.note(format_args!(
                "git-loop: {} is not a git-loop run ({why}); left alone",
                path.display()
            ));
            return Ok(());
        }
        Removal::LeftAlone(LeftAlone::NotMade { path, id, why }) => {
            out.note(format_args!(
                "git-loop: run {id} at {} was not made by claude-hook ({}); left alone, \
                 not marked or removed",
                path.display(),
                crate::style::escape(&why)
            ));
            return Ok(());
        }
    };
    let report = super::shared::reclaim::CleanupReport::from(reclaimed);
    let mut sink = std::io::sink();
    let mut notes = Out {
        stdout: &mut *out.stderr,
        stderr: &mut sink,
        json: false,
        quiet: out.quiet,
        color: crate::style::Color::OFF,
        stderr_is_terminal: false,
        stdout_is_terminal: false,
    };
    report.human(&mut notes)?;
    if let Some(failure) = report.failed_part_way() {
        let message = crate::style::escape(&failure.message).into_owned();
        writeln!(out.stderr, "error: {message}")?;
        return Err(Fail::Exit(1));
    }
    Ok(())
}

/// Record the activity the input means; nothing on stdout, ever.
fn activity(cli: &Cli, input: &Input, out: &mut Out<'_>) -> std::result::Result<(), Fail> {
    let event = claude::SessionActivity {
        repo: cli.repo.as_deref(),
        cwd: input.cwd.as_deref(),
        hook_event_name: input.hook_event_name.as_deref(),
        message: input.message.as_deref(),
    };
    if let Some(recorded) = claude::session_activity(&event)?
        && let Some(warning) = recorded.notified.warning()
    {
        out.note(format_args!("{}", crate::style::escape(&warning)));
    }
    Ok(())
}
