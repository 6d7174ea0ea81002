//! The commands a configuration has git-loop run (`create.post-command`,
//! `cleanup.pre-command`, `land.gate`, `notify.command`; the user calls the
//! first two hooks), and whether they may.
//! (Not Claude Code's hooks, which are `claude-hook`'s; not git's own hooks,
//! which git runs.)
//!
//! Each is a shell command (`sh -c`) run with a worktree as its working
//! directory and `GIT_LOOP_ID`, `GIT_LOOP_ROOT`, `GIT_LOOP_PATH`,
//! `GIT_LOOP_BRANCH` in its environment — and, for a run leased ports
//! (`create.ports`), `GIT_LOOP_PORT` (the first) and `GIT_LOOP_PORT_1`…
//! ([`env_for`]); stdin is closed, and its stdout and
//! stderr both go to git-loop's stderr, so `--json` output on stdout stays
//! one document.
//!
//! One set in the repository's own `.git-loop.toml` runs only once that
//! file's content, and every file of the work tree the command names, is
//! trusted (`git loop trust`); see [`trust`] for the rules and the store.
//! [`lookup`] refuses an untrusted one before the command that needs it
//! changes anything, and [`execute`] checks the named files again right before
//! it spawns the command, in the worktree it runs in.

pub mod timed;
pub mod trust;

pub use timed::{run_with_timeout, run_with_timeout_into};

use std::borrow::Cow;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde::Serialize;

use crate::config::{Settings, repo_toml_path};
use crate::error::{Error, Result};
use trust::TrustedFiles;

/// A configured command, with what must still hold before it runs.
#[derive(Debug, Clone)]
pub struct ConfiguredCommand<'s> {
    pub command: &'s str,
    key: &'static str,
    /// For a command from the repository's file: the file sets of the
    /// records trusting it, each word of the command checked against them,
    /// with the object format the files' blob ids are computed in.
    trusted: Option<(gix::hash::Kind, Vec<TrustedFiles>)>,
}

impl<'s> ConfiguredCommand<'s> {
    /// A command the user typed on the command line (`--gate <CMD>`): their
    /// own, so it runs without a trust record. `flag` names it in messages.
    pub fn given(command: &'s str, flag: &'static str) -> ConfiguredCommand<'s> {
        ConfiguredCommand {
            command,
            key: flag,
            trusted: None,
        }
    }

    /// `Err` naming the first file whose content under `dir` is not what a
    /// trust record covers (new, changed or gone), when none covers all.
    pub fn check_files(&self, dir: &Path) -> Result<()> {
        let Some((hash, records)) = &self.trusted else {
            return Ok(());
        };
        let mut now = Vec::new();
        for rel in trust::words(self.command) {
            let blob = trust::blob_at(dir, &rel, *hash)?;
            now.push((rel, blob));
        }
        let fits = |r: &TrustedFiles| now.iter().all(|(rel, blob)| r.get(rel) == blob.as_ref());
        if records.iter().any(fits) {
            return Ok(());
        }
        // Name the file that differs from the latest record.
        let latest = records.last();
        let changed = now
            .iter()
            .find(|(rel, blob)| latest.and_then(|r| r.get(rel)) != blob.as_ref())
            .map(|(rel, _)| rel.clone())
            .unwrap_or_default();
        Err(Error::UntrustedHook {
            key: self.key,
            command: self.command.to_owned(),
            file: dir.join(changed),
        })
    }
}

/// The commands a configuration can set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `create.post-command`: runs in a new worktree once it is recorded.
    CreatePost,
    /// `cleanup.pre-command`: runs in each worktree cleanup selected; a
    /// non-zero exit keeps it.
    CleanupPre,
    /// `land.gate`: runs in a scratch checkout of a landed commit (see
    /// `ops::land::gate`); a non-zero exit, or the timeout, refuses the
    /// landing.
    LandGate,
    /// `judge.gate`: runs in each active attempt's worktree of a task (see
    /// `ops::judge`); its exit code is the attempt's "passed".
    JudgeGate,
    /// `sync.gate`: runs in a scratch checkout of a synced commit (with
    /// `ops::land::gate`); a non-zero exit, or the timeout, keeps the run
    /// where it was.
    SyncGate,
    /// `notify.command`: runs when a run's activity becomes `waiting` or
    /// `done` (see `ops::activity`); a failure is only a warning.
    Notify,
}

impl Kind {
    /// Its key in the TOML files (and in messages).
    pub fn key(self) -> &'static str {
        match self {
            Kind::CreatePost => crate::config::TOML_CREATE_POST_COMMAND,
            Kind::CleanupPre => crate::config::TOML_CLEANUP_PRE_COMMAND,
            Kind::LandGate => crate::config::TOML_LAND_GATE,
            Kind::JudgeGate => crate::config::TOML_JUDGE_GATE,
            Kind::SyncGate => crate::config::TOML_SYNC_GATE,
            Kind::Notify => crate::config::TOML_NOTIFY_COMMAND,
        }
    }
}

/// The command `which` of `settings`, if set — refused when it comes from
/// an untrusted repository file, or names a file of the work tree (`root`)
/// whose content is not the one trusted (see [`trust`]).
pub fn lookup<'s>(
    settings: &'s Settings,
    which: Kind,
    root: &Path,
    common_dir: &Path,
) -> Result<Option<ConfiguredCommand<'s>>> {
    let key = which.key();
    let sourced = match which {
        Kind::CreatePost => &settings.create_post_command,
        Kind::CleanupPre => &settings.cleanup_pre_command,
        Kind::LandGate => &settings.land_gate,
        Kind::JudgeGate => &settings.judge_gate,
        Kind::SyncGate => &settings.sync_gate,
        Kind::Notify => &settings.notify_command,
    };
    let Some(command) = sourced.value.as_deref() else {
        return Ok(None);
    };
    if sourced.from_repo_file() {
        // The id of the bytes this command came from (read once, with the
        // settings), not of the file as it may be by now.
        let id = settings.repo_file_id.as_deref().unwrap_or_default();
        let records = trust::records(common_dir, id)?;
        if records.is_empty() {
            return Err(Error::UntrustedHook {
                key,
                command: command.to_owned(),
                file: repo_toml_path(root),
            });
        }
        let found = ConfiguredCommand {
            command,
            key,
            trusted: Some((settings.object_hash, records)),
        };
        found.check_files(root)?;
        return Ok(Some(found));
    }
    Ok(Some(ConfiguredCommand {
        command,
        key,
        trusted: None,
    }))
}

/// How a configured command ended.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Ended {
    pub command: String,
    /// Its exit code; `None` when it died of a signal.
    pub exit_code: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signal: Option<i32>,
    pub ok: bool,
}

impl Ended {
    /// "exited with 3", "was killed by signal 9".
    pub fn describe(&self) -> String {
        match (self.exit_code, self.signal) {
            (Some(code), _) => format!("exited with {code}"),
            (None, Some(sig)) => format!("was killed by signal {sig}"),
            _ => "failed".to_owned(),
        }
    }
}

/// Run `configured` with `sh -c` in `dir`, once the files it names there
/// are checked to be the ones trusted (see
/// [`ConfiguredCommand::check_files`]).
pub fn execute(configured: &ConfiguredCommand<'_>, dir: &Path, env: &[Var<'_>]) -> Result<Ended> {
    configured.check_files(dir)?;
    let command = configured.command;
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
        cmd.env(k.as_ref(), v);
    }
    let status = cmd
        .status()
        .map_err(|e| Error::io("could not run", PathBuf::from("sh"), e))?;
    Ok(Ended {
        command: command.to_owned(),
        exit_code: status.code(),
        signal: status.signal(),
        ok: status.success(),
    })
}

/// One variable of a configured command's environment: its name and value.
pub type Var<'a> = (Cow<'static, str>, Cow<'a, OsStr>);

/// The environment of a configured command for run `id` — the one list
/// `run`, `env` and every configured command get: `GIT_LOOP_ID`,
/// `GIT_LOOP_ROOT`, `GIT_LOOP_PATH`, `GIT_LOOP_BRANCH`, then, when the run
/// was leased `ports` ([`crate::ops::ports`]), `GIT_LOOP_PORT` (the first)
/// and `GIT_LOOP_PORT_1`…`GIT_LOOP_PORT_<N>`.
pub fn env_for<'a>(
    id: &'a str,
    root: &'a Path,
    path: &'a Path,
    branch: &'a str,
    ports: &[u16],
) -> Vec<Var<'a>> {
    let mut vars: Vec<Var<'a>> = vec![
        ("GIT_LOOP_ID".into(), OsStr::new(id).into()),
        ("GIT_LOOP_ROOT".into(), root.as_os_str().into()),
        ("GIT_LOOP_PATH".into(), path.as_os_str().into()),
        ("GIT_LOOP_BRANCH".into(), OsStr::new(branch).into()),
    ];
    let port = |p: &u16| Cow::Owned(p.to_string().into());
    if let Some(first) = ports.first() {
        vars.push(("GIT_LOOP_PORT".into(), port(first)));
    }
    for (i, p) in ports.iter().enumerate() {
        vars.push((format!("GIT_LOOP_PORT_{}", i + 1).into(), port(p)));
    }
    vars
}
