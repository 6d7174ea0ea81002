//! `git loop claude-hook create|remove`: Claude Code's `WorktreeCreate` and
//! `WorktreeRemove` hooks. Claude Code sends one JSON object on stdin;
//! `create` prints the worktree's absolute path on stdout and nothing else
//! (every other line goes to stderr), `remove` prints nothing on stdout.
//! A failure exits non-zero with the reason on stderr.

use std::io::Read;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::cli::{ClaudeHook, Cli, Command, CreateArgs, RunId};
use crate::commands::{Ctx, cleanup, create, mark};
use crate::error::{Error, Result};
use crate::manifest::{Manifest, Status};
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
}

pub fn run(cli: &Cli, event: &ClaudeHook, out: &mut Out<'_>) -> std::result::Result<(), Fail> {
    let name = match event {
        ClaudeHook::Create => "WorktreeCreate",
        ClaudeHook::Remove => "WorktreeRemove",
    };
    let input = read_input(&mut std::io::stdin().lock(), name)?;
    match event {
        ClaudeHook::Create => create_run(cli, &input, out),
        ClaudeHook::Remove => remove_run(cli, &input, out),
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
    let at = Cli {
        repo: cli.repo.clone().or_else(|| dir.map(Path::to_path_buf)),
        json: false,
        quiet: cli.quiet,
        command: Command::Config,
    };
    Ctx::open(&at)
}

/// Create the run (or reuse it, as `--reuse`) and print its path alone.
fn create_run(cli: &Cli, input: &Input, out: &mut Out<'_>) -> std::result::Result<(), Fail> {
    let proposed = input
        .name
        .as_deref()
        .or(input.worktree_name.as_deref())
        .ok_or(Error::HookInput {
            event: "WorktreeCreate",
            reason: "it has neither \"name\" nor \"worktree_name\"".into(),
        })?;
    let run_id = run_id_from_name(proposed).ok_or_else(|| Error::InvalidRunId {
        id: proposed.to_owned(),
        reason: "no valid run id can be made of this name".into(),
    })?;
    let ctx = open(cli, input.cwd.as_deref())?;
    let args = CreateArgs {
        run_id,
        pattern: crate::commands::claude_hook::pattern(&ctx)?,
        base: None,
        reuse: true,
        fetch: false,
        sparse: Vec::new(),
    };
    create::validate(&args)?;
    let mut quiet_stdout = std::io::sink();
    let mut notes = Out {
        stdout: &mut quiet_stdout,
        stderr: &mut *out.stderr,
        json: false,
        quiet: out.quiet,
        color: false,
        stderr_is_terminal: out.stderr_is_terminal,
    };
    let report = create::run(&ctx, &args, &mut notes)?;
    if let Some(failed) = &report.error {
        writeln!(
            out.stderr,
            "git-loop: error: {}",
            crate::style::escape(&failed.message)
        )?;
        return Err(Fail::Exit(1));
    }
    crate::style::write_path_line(&mut *out.stdout, &report.abs_path)?;
    out.stdout.flush()?;
    Ok(())
}

/// The pattern of runs the hook creates: the setting `claude.pattern`.
pub fn pattern(ctx: &Ctx) -> Result<String> {
    Ok(ctx.settings()?.claude_pattern.value.clone())
}

/// Remove the run whose worktree is `worktree_path`, as `remove` does, after
/// marking it `stale` if it is active; a path that is not a git-loop run is
/// left alone.
fn remove_run(cli: &Cli, input: &Input, out: &mut Out<'_>) -> std::result::Result<(), Fail> {
    let given = input.worktree_path.as_deref().ok_or(Error::HookInput {
        event: "WorktreeRemove",
        reason: "it has no \"worktree_path\"".into(),
    })?;
    let path = match &input.cwd {
        Some(cwd) if given.is_relative() => cwd.join(given),
        _ => given.to_path_buf(),
    };
    let Some((root, id, path)) = locate(&path) else {
        return leave_alone(&path, "not a worktree under .loop-worktrees/", out);
    };
    let ctx = match open(cli, Some(&root)) {
        Ok(ctx) => ctx,
        Err(e) => return leave_alone(&path, &e.to_string(), out),
    };
    let status = match ctx.loop_dir_exists()? {
        true => ctx.manifest.load_or_default()?.find(&id).map(|e| e.status),
        false => None,
    };
    let Some(status) = status.filter(|_| ctx.worktree_path(&id) == path) else {
        return leave_alone(&path, "no run of the manifest has it", out);
    };
    // Claude Code is done with the run: an active run becomes stale (logged
    // as a mark), since removal never takes an active run.
    if status == Status::Active {
        let run_id = RunId::parse(&id)?;
        mark::run(&ctx, &run_id, Status::Stale, out)?;
    }
    let choose = |manifest: &Manifest| Ok(manifest.find(&id).into_iter().cloned().collect());
    let report = cleanup::reclaim(&ctx, &Status::ALL, cleanup::Options::default(), choose, out)?;
    let mut sink = std::io::sink();
    let mut notes = Out {
        stdout: &mut *out.stderr,
        stderr: &mut sink,
        json: false,
        quiet: out.quiet,
        color: false,
        stderr_is_terminal: false,
    };
    report.human(&mut notes)?;
    if let Some(failure) = report.failed_part_way() {
        let message = crate::style::escape(&failure.message).into_owned();
        writeln!(out.stderr, "git-loop: error: {message}")?;
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

fn leave_alone(path: &Path, why: &str, out: &mut Out<'_>) -> std::result::Result<(), Fail> {
    out.note(format_args!(
        "git-loop: {} is not a git-loop run ({why}); left alone",
        path.display()
    ));
    Ok(())
}
