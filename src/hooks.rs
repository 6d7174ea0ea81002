//! Hooks (`create.post-command`, `cleanup.pre-command`) and trust.
//!
//! A hook is a shell command (`sh -c`) run with a worktree as its working
//! directory and `GIT_LOOP_ID`, `GIT_LOOP_ROOT`, `GIT_LOOP_PATH`,
//! `GIT_LOOP_BRANCH` in its environment; stdin is closed, and its stdout and
//! stderr both go to git-loop's stderr, so `--json` output on stdout stays
//! one document.
//!
//! Trust: a hook set in the repository's own `.git-loop.toml` comes with the
//! code you cloned, so it runs only after you have trusted that file's
//! content once (`git loop trust`). The trust record is the file's git blob
//! id, kept in `<git common dir>/git-loop/trusted` — inside `.git`, which no
//! clone, fetch or checkout writes — so any change to the file (a pull that
//! edits a hook) needs trusting again. Hooks set in git config, the user
//! TOML or the environment are your own and run without it. A command that
//! needs an untrusted hook refuses before it changes anything. The file is
//! read once, with the settings, through [`crate::fsx`] (never through a
//! symlink, regular files only, size-capped): the id checked is the id of the
//! very bytes the hook's command was read from.

use std::ffi::OsStr;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde::Serialize;

use crate::config::{Settings, repo_toml_path};
use crate::error::{Error, Result};

/// The trust store of a repository.
pub fn trust_store(common_dir: &Path) -> PathBuf {
    common_dir.join("git-loop").join("trusted")
}

/// Whether the content `id` has been trusted in this repository.
pub fn is_trusted(common_dir: &Path, id: &str) -> Result<bool> {
    let store = trust_store(common_dir);
    match fs::read_to_string(&store) {
        Ok(text) => Ok(text
            .lines()
            .any(|l| l.split_whitespace().next() == Some(id))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(Error::io("could not read", &store, e)),
    }
}

/// Record `id` as trusted (one line, appended; nothing else is rewritten).
pub fn trust(common_dir: &Path, id: &str) -> Result<()> {
    let store = trust_store(common_dir);
    let dir = store.parent().expect("the store is in a directory");
    fs::create_dir_all(dir).map_err(|e| Error::io("could not create", dir, e))?;
    let line = format!("{id} {}\n", crate::time::now());
    fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&store)
        .and_then(|mut f| f.write_all(line.as_bytes()))
        .map_err(|e| Error::io("could not write", &store, e))
}

/// The two hooks a configuration can set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hook {
    /// `create.post-command`: runs in a new worktree once it is recorded.
    CreatePost,
    /// `cleanup.pre-command`: runs in each worktree cleanup selected; a
    /// non-zero exit keeps it.
    CleanupPre,
}

impl Hook {
    /// Its key in the TOML files (and in messages).
    pub fn key(self) -> &'static str {
        match self {
            Hook::CreatePost => crate::config::TOML_CREATE_POST_COMMAND,
            Hook::CleanupPre => crate::config::TOML_CLEANUP_PRE_COMMAND,
        }
    }
}

/// The hook `which` of `settings`, if set — refused when it comes from an
/// untrusted repository file.
pub fn hook<'s>(
    settings: &'s Settings,
    which: Hook,
    root: &Path,
    common_dir: &Path,
) -> Result<Option<&'s str>> {
    let key = which.key();
    let sourced = match which {
        Hook::CreatePost => &settings.create_post_command,
        Hook::CleanupPre => &settings.cleanup_pre_command,
    };
    let Some(command) = sourced.value.as_deref() else {
        return Ok(None);
    };
    if sourced.from_repo_file() {
        // The id of the bytes this command came from (read once, with the
        // settings), not of the file as it may be by now.
        let id = settings.repo_file_id.as_deref().unwrap_or_default();
        if !is_trusted(common_dir, id)? {
            return Err(Error::UntrustedHook {
                key,
                command: command.to_owned(),
                file: repo_toml_path(root),
            });
        }
    }
    Ok(Some(command))
}

/// How a hook ended.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HookOutcome {
    pub command: String,
    /// Its exit code; `None` when it died of a signal.
    pub exit_code: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signal: Option<i32>,
    pub ok: bool,
}

impl HookOutcome {
    /// "exited with 3", "was killed by signal 9".
    pub fn describe(&self) -> String {
        match (self.exit_code, self.signal) {
            (Some(code), _) => format!("exited with {code}"),
            (None, Some(sig)) => format!("was killed by signal {sig}"),
            _ => "failed".to_owned(),
        }
    }
}

/// Run `command` with `sh -c` in `dir`.
pub fn run(command: &str, dir: &Path, env: &[(&str, &OsStr)]) -> Result<HookOutcome> {
    use std::os::fd::AsFd;
    use std::os::unix::process::ExitStatusExt;
    let stderr = || {
        std::io::stderr()
            .as_fd()
            .try_clone_to_owned()
            .map(Stdio::from)
            .unwrap_or_else(|_| Stdio::null())
    };
    let mut cmd = Command::new("sh");
    crate::git::cmd::without_repo_env(cmd.arg("-c").arg(command).current_dir(dir))
        .stdin(Stdio::null())
        .stdout(stderr())
        .stderr(stderr());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let status = cmd
        .status()
        .map_err(|e| Error::io("could not run", PathBuf::from("sh"), e))?;
    Ok(HookOutcome {
        command: command.to_owned(),
        exit_code: status.code(),
        signal: status.signal(),
        ok: status.success(),
    })
}

/// The environment of a hook for run `id`.
pub fn env_for<'a>(
    id: &'a str,
    root: &'a Path,
    path: &'a Path,
    branch: &'a str,
) -> [(&'static str, &'a OsStr); 4] {
    [
        ("GIT_LOOP_ID", OsStr::new(id)),
        ("GIT_LOOP_ROOT", root.as_os_str()),
        ("GIT_LOOP_PATH", path.as_os_str()),
        ("GIT_LOOP_BRANCH", OsStr::new(branch)),
    ]
}
