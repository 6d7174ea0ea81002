//! `git loop claude-hook create|remove|activity`: Claude Code's
//! `WorktreeCreate` and `WorktreeRemove` hooks, and (`activity`, see
//! [`activity`]) its `UserPromptSubmit`, `Notification` and `Stop` hooks. Claude Code sends one JSON object on stdin;
//! `create` prints the worktree's absolute path on stdout and nothing else
//! (every other line goes to stderr), `remove` prints nothing on stdout.
//! A failure exits non-zero with the reason on stderr.
//!
//! **Only its own runs.** The hook never hands out, marks or removes a run
//! it did not make. When `create` makes a run, it writes an *ownership
//! record* into the run's git administrative directory
//! (`.git/worktrees/<admin>/git-loop-claude-hook`: outside the work tree,
//! and gone with the registration when the worktree is removed): JSON with
//! the run's id, its `createdAt` and the Claude Code name it was made for.
//! A run is **the hook's own run for name N** when its manifest entry is
//! active, its pattern is `claude.pattern`, and its registration holds a
//! record whose id and `createdAt` are the entry's (so a record carried by
//! a recycled worktree, or left by an earlier run of the id, counts for
//! nothing) and whose name is exactly N.
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

use std::io::Read;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::cli::{ClaudeHook, Cli, RunId};
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::manifest::{Entry, Manifest, Status};
use crate::ops::create;
use crate::output::{Fail, Out, Report};

mod activity;
mod owner;
use owner::{Choice, MAX_CANDIDATES, candidates, choose, owner_of, record_owner};

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

pub fn run(cli: &Cli, event: &ClaudeHook, out: &mut Out<'_>) -> std::result::Result<(), Fail> {
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
        ClaudeHook::Create => create_run(cli, &input, out),
        ClaudeHook::Remove => remove_run(cli, &input, out),
        ClaudeHook::Activity => activity::record(cli, &input, out),
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

/// The repository: `-C` if given, else the hook's `cwd`, else ours.
fn open(cli: &Cli, dir: Option<&Path>) -> Result<Ctx> {
    Ctx::open(cli.repo.as_deref().or(dir))
}

/// Create the run for Claude Code's name (or reuse the hook's own run of
/// that name, see the module doc) and print its path alone.
fn create_run(cli: &Cli, input: &Input, out: &mut Out<'_>) -> std::result::Result<(), Fail> {
    let proposed = input
        .name
        .as_deref()
        .or(input.worktree_name.as_deref())
        .ok_or(Error::HookInput {
            event: "WorktreeCreate",
            reason: "it has neither \"name\" nor \"worktree_name\"".into(),
        })?;
    let base_id = run_id_from_name(proposed).ok_or_else(|| Error::InvalidRunId {
        id: proposed.to_owned(),
        reason: "no valid run id can be made of this name".into(),
    })?;
    let ctx = open(cli, input.cwd.as_deref())?;
    let pattern = pattern(&ctx)?;
    let (made, passed) = make_run(&ctx, &base_id, proposed, &pattern, out)?;
    let Some(Made { report, reused }) = made else {
        return Err(Error::NotReusable {
            id: base_id.to_string(),
            reason: format!(
                "no free run id for the name {:?} among {base_id} … {base_id}-{MAX_CANDIDATES}",
                proposed
            ),
        }
        .into());
    };
    if !passed.is_empty() {
        out.note(format_args!(
            "git-loop: not using {} ({}); made {} for {:?}",
            base_id,
            crate::style::escape(&passed.join("; ")),
            report.entry.id,
            proposed
        ));
    }
    if let Some(failed) = &report.error {
        writeln!(
            out.stderr,
            "error: {}",
            crate::style::escape(&failed.message)
        )?;
        return Err(Fail::Exit(1));
    }
    if !reused && let Err(e) = record_owner(&ctx, &report.entry, proposed) {
        out.note(format_args!(
            "warning: could not record that claude-hook made run {}: {e}; \
             claude-hook remove will leave it alone",
            report.entry.id
        ));
    }
    crate::style::write_path_line(&mut *out.stdout, &report.abs_path)?;
    out.stdout.flush()?;
    Ok(())
}

/// The run the hook made, or reused.
struct Made {
    report: create::Created,
    reused: bool,
}

/// Create (or reuse) the first candidate id for `proposed` that is free or
/// the hook's own (see the module doc): the report and whether it was
/// reused, or `None` when every candidate is taken; and why each one passed
/// over was.
fn make_run(
    ctx: &Ctx,
    base_id: &RunId,
    proposed: &str,
    pattern: &str,
    out: &mut Out<'_>,
) -> Result<(Option<Made>, Vec<String>)> {
    let mut passed = Vec::new();
    let mut made = None;
    for run_id in candidates(base_id) {
        let manifest = match ctx.loop_dir_exists()? {
            true => ctx.manifest.load_or_default()?,
            false => Manifest::default(),
        };
        let reuse = match choose(ctx, &manifest, &run_id, proposed, pattern)? {
            Choice::Reuse => true,
            Choice::Create => false,
            Choice::Taken(why) => {
                passed.push(why);
                continue;
            }
        };
        let args = create::CreateRequest {
            run_id: run_id.clone(),
            pattern: Some(pattern.to_owned()),
            base: None,
            reuse,
            fetch: false,
            sparse: Vec::new(),
            ports: None,
        };
        create::validate(&args)?;
        let mut quiet_stdout = std::io::sink();
        let mut notes = Out {
            stdout: &mut quiet_stdout,
            stderr: &mut *out.stderr,
            json: false,
            quiet: out.quiet,
            color: crate::style::Color::OFF,
            stderr_is_terminal: out.stderr_is_terminal,
            stdout_is_terminal: false,
        };
        match create::run(ctx, &args, &mut notes) {
            // Another create took the id between the check and the create:
            // try the next one (nothing was changed by the refusal).
            Err(e @ (Error::ActiveExists { .. } | Error::BranchExists { .. })) if !reuse => {
                passed.push(e.to_string());
                continue;
            }
            result => {
                made = Some(Made {
                    report: result?,
                    reused: reuse,
                });
                break;
            }
        }
    }
    Ok((made, passed))
}

/// The pattern of runs the hook creates: the setting `claude.pattern`.
pub fn pattern(ctx: &Ctx) -> Result<String> {
    Ok(ctx.settings()?.claude_pattern.value.clone())
}

/// The hook's own run at the input's `worktree_path`, or `None` once it
/// is said why that is left alone (see the module doc).
fn own_run(
    cli: &Cli,
    input: &Input,
    out: &mut Out<'_>,
) -> std::result::Result<Option<(Ctx, Entry)>, Fail> {
    let given = input.worktree_path.as_deref().ok_or(Error::HookInput {
        event: "WorktreeRemove",
        reason: "it has no \"worktree_path\"".into(),
    })?;
    let path = match &input.cwd {
        Some(cwd) if given.is_relative() => cwd.join(given),
        _ => given.to_path_buf(),
    };
    let Some((root, id, path)) = locate(&path) else {
        leave_alone(&path, "not a worktree under .loop-worktrees/", out);
        return Ok(None);
    };
    let ctx = match open(cli, Some(&root)) {
        Ok(ctx) => ctx,
        Err(e) => {
            leave_alone(&path, &e.to_string(), out);
            return Ok(None);
        }
    };
    let entry = match ctx.loop_dir_exists()? {
        true => ctx.manifest.load_or_default()?.find(&id).cloned(),
        false => None,
    };
    let Some(entry) = entry.filter(|_| ctx.worktree_path(&id) == path) else {
        leave_alone(&path, "no run of the manifest has it", out);
        return Ok(None);
    };
    let pattern = pattern(&ctx)?;
    if entry.pattern != pattern {
        leave_run(
            &path,
            &entry,
            &format!(
                "its pattern is {:?}, not {pattern:?} (claude.pattern)",
                entry.pattern
            ),
            out,
        );
        return Ok(None);
    }
    if owner_of(&ctx, &entry).is_none() {
        leave_run(
            &path,
            &entry,
            "claude-hook create did not make it (its worktree has no record of that)",
            out,
        );
        return Ok(None);
    }
    Ok(Some((ctx, entry)))
}

/// Remove the run whose worktree is `worktree_path`, as `remove` does, after
/// marking it `stale` if it is active; a path that is not a git-loop run, or
/// a run the hook did not make (see the module doc), is left alone.
fn remove_run(cli: &Cli, input: &Input, out: &mut Out<'_>) -> std::result::Result<(), Fail> {
    let Some((ctx, entry)) = own_run(cli, input, out)? else {
        return Ok(());
    };
    let id = entry.id.clone();
    let status = entry.status;
    // Claude Code is done with the run: an active run becomes stale (logged
    // as a mark), since removal never takes an active run.
    if status == Status::Active {
        let run_id = RunId::parse(&id)?;
        crate::ops::mark::set_status(&ctx, &run_id, Status::Stale, out)?;
    }
    let choose = |manifest: &Manifest| Ok(manifest.find(&id).into_iter().cloned().collect());
    let options = crate::ops::reclaim::Options::default();
    let reclaimed = crate::ops::reclaim::reclaim(&ctx, &Status::ALL, options, choose, out)?;
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

/// `<root>/.loop-worktrees/<id>` split into the root and the id, with the
/// path, all resolved as the repository resolves its root.
fn locate(path: &Path) -> Option<(PathBuf, String, PathBuf)> {
    let id = path.file_name()?.to_str()?;
    let loop_dir = path.parent()?;
    if loop_dir.file_name()? != crate::runid::LOOP_DIR || crate::runid::problem(id).is_some() {
        return None;
    }
    let loop_dir = loop_dir.canonicalize().ok()?;
    let root = loop_dir.parent()?.to_path_buf();
    Some((root, id.to_owned(), loop_dir.join(id)))
}

/// A run the hook did not make: not marked, not removed.
fn leave_run(path: &Path, entry: &Entry, why: &str, out: &mut Out<'_>) {
    out.note(format_args!(
        "git-loop: run {} at {} was not made by claude-hook ({}); left alone, not marked or removed",
        entry.id,
        path.display(),
        crate::style::escape(why)
    ));
}

fn leave_alone(path: &Path, why: &str, out: &mut Out<'_>) {
    out.note(format_args!(
        "git-loop: {} is not a git-loop run ({why}); left alone",
        path.display()
    ));
}
