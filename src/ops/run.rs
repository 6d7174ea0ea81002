//! `git loop run <RUN_ID> [--] <COMMAND>...`'s operation — run a command inside a run's
//! worktree and pass its exit code through (128 + N when it dies of signal N).
//! A command that cannot be found exits 127, one that cannot be executed
//! 126, as shells do, with a message naming it.
//!
//! Read-only for git-loop: no mutex, nothing written. The command gets the
//! worktree as its working directory and the variables every configured
//! command gets (`GIT_LOOP_ID`, `GIT_LOOP_ROOT`, `GIT_LOOP_PATH`,
//! `GIT_LOOP_BRANCH`, and `GIT_LOOP_PORT`, `GIT_LOOP_PORT_1`… for a run
//! leased ports: [`crate::configured_command::env_for`]) in its
//! environment; stdin, stdout and stderr are its own. While it runs,
//! git-loop ignores Ctrl-C and SIGTERM sent to it — the command gets them
//! (Ctrl-C reaches the whole foreground process group) and decides.

use std::process::Command;

use crate::ctx::Ctx;
use crate::error::{Error, Result};

/// Run `command` (program and arguments) in run `id`'s worktree; its exit
/// code, as a shell reports it.
pub fn command_in(ctx: &Ctx, id: &str, command: &[std::ffi::OsString]) -> Result<i32> {
    let manifest = ctx.read_manifest()?;
    let entry = manifest.get(id)?;
    let dir = ctx.worktree_path(&entry.id);
    match std::fs::symlink_metadata(&dir) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => {
            return Err(Error::UnsafePath {
                path: dir,
                reason: "it is not a directory (a symlink?); git-loop runs commands only in its own worktrees".into(),
            });
        }
        Err(_) => {
            return Err(Error::WorktreeMissing {
                id: entry.id.to_string(),
                path: entry.path(),
            });
        }
    }
    let (program, rest) = command.split_first().expect("clap requires a command");
    // Let the command own the signals while it runs.
    let ignored = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        let _ = signal_hook::flag::register(sig, ignored.clone());
    }
    let branch = entry.branch();
    let ports = crate::ops::ports::of(ctx, entry)?;
    let env = crate::configured_command::env_for(&entry.id, ctx.repo.root(), &dir, &branch, &ports);
    let status = Command::new(program)
        .args(rest)
        .current_dir(&dir)
        .envs(env.iter().map(|(k, v)| (k.as_ref(), v)))
        .status()
        .map_err(|e| spawn_error(program, e))?;
    Ok(match status.code() {
        Some(code) => code,
        None => {
            use std::os::unix::process::ExitStatusExt;
            128 + status.signal().unwrap_or(0)
        }
    })
}

/// Why `program` could not be started: not found (127) or not executable
/// (126), as a shell reports them; anything else is an I/O failure.
fn spawn_error(program: &std::ffi::OsStr, e: std::io::Error) -> Error {
    let name = || program.to_string_lossy().into_owned();
    match e.kind() {
        std::io::ErrorKind::NotFound => Error::CommandNotFound { program: name() },
        std::io::ErrorKind::PermissionDenied => Error::CommandNotExecutable {
            program: name(),
            reason: "permission denied".to_owned(),
        },
        _ if e.raw_os_error() == Some(libc::ENOEXEC) => Error::CommandNotExecutable {
            program: name(),
            reason: "not an executable format".to_owned(),
        },
        _ if e.raw_os_error() == Some(libc::EISDIR) => Error::CommandNotExecutable {
            program: name(),
            reason: "it is a directory".to_owned(),
        },
        _ => Error::io("could not run", std::path::PathBuf::from(program), e),
    }
}
