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
//!
//! **The files a hook names.** `sh ./setup.sh` runs whatever `setup.sh`
//! holds, so trusting the TOML alone would let a later pull change what a
//! trusted hook does. `git loop trust` therefore also records the blob id of
//! every file the repository file's hooks *name*: each word of a command
//! (split at blanks and at `; & | ( ) < > =` and backquotes, quotes removed)
//! that, read as a relative path with no `..` and no `$`, names a regular
//! file under the work tree (a symlink is followed only while it stays
//! inside it). Before a hook runs — once when the command starts (against
//! the main work tree) and again right before the hook itself is spawned
//! (against the worktree it runs in, whose files are the ones it will
//! execute) — each of its words must name the same thing it named when
//! trusted: the same content, or no file at all. A file that is new,
//! changed or gone makes the hook untrusted, refused as an untrusted
//! `.git-loop.toml` is, naming that file. Not covered, and said so by
//! `trust`: what those files run or read in turn, files reached through a
//! variable (`$GIT_LOOP_ROOT/x`), an absolute path, or a tool's implicit
//! input (`make` reading `Makefile`), and programs found on `PATH`.
//!
//! The store: one line per trust, `<toml blob id> <time> <files>`, where
//! `<files>` is a JSON object of path → blob id (a line without it, written
//! by an older git-loop, trusts the TOML with no files: a hook naming a file
//! needs trusting again).

use std::collections::BTreeMap;
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

/// The files a trust covers: path (relative to the work tree) → blob id.
pub type TrustedFiles = BTreeMap<String, String>;

/// Whether the content `id` has been trusted in this repository (by any
/// record, whatever files it covers).
pub fn is_trusted(common_dir: &Path, id: &str) -> Result<bool> {
    Ok(!records(common_dir, id)?.is_empty())
}

/// The file sets of every record trusting the content `id`.
pub fn records(common_dir: &Path, id: &str) -> Result<Vec<TrustedFiles>> {
    let store = trust_store(common_dir);
    let text = match fs::read_to_string(&store) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io("could not read", &store, e)),
    };
    Ok(text
        .lines()
        .filter_map(|line| {
            let mut parts = line.trim_start().splitn(3, ' ');
            if parts.next() != Some(id) {
                return None;
            }
            let _time = parts.next();
            // An older record names no files; an unreadable one counts as
            // naming none (so it trusts no named file).
            Some(
                parts
                    .next()
                    .and_then(|files| serde_json::from_str(files.trim()).ok())
                    .unwrap_or_default(),
            )
        })
        .collect())
}

/// Whether a record trusting `id` covers `files` exactly.
pub fn is_trusted_with(common_dir: &Path, id: &str, files: &TrustedFiles) -> Result<bool> {
    Ok(records(common_dir, id)?.iter().any(|r| r == files))
}

/// Record `id`, with the files its hooks name, as trusted (one line,
/// appended; nothing else is rewritten).
pub fn trust(common_dir: &Path, id: &str, files: &TrustedFiles) -> Result<()> {
    let store = trust_store(common_dir);
    let dir = store.parent().expect("the store is in a directory");
    fs::create_dir_all(dir).map_err(|e| Error::io("could not create", dir, e))?;
    let files = serde_json::to_string(files).expect("a map of strings serializes");
    let line = format!("{id} {} {files}\n", crate::time::now());
    fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&store)
        .and_then(|mut f| f.write_all(line.as_bytes()))
        .map_err(|e| Error::io("could not write", &store, e))
}

/// The largest file a hook names that is hashed (a script is far smaller).
const MAX_NAMED_FILE: u64 = 64 << 20;

/// The words of `command` that could name a file of the work tree, as
/// relative paths (`./setup.sh` as `setup.sh`); see the module doc.
pub fn words(command: &str) -> Vec<String> {
    let mut out = Vec::new();
    let separators = |c: char| c.is_whitespace() || ";&|()<>=`".contains(c);
    for raw in command.split(separators) {
        let word: String = raw.chars().filter(|c| !matches!(c, '\'' | '"')).collect();
        if word.is_empty() || word.contains('$') || word.starts_with('/') {
            continue;
        }
        let mut parts = Vec::new();
        let mut ok = true;
        for part in Path::new(&word).components() {
            match part {
                std::path::Component::Normal(p) => match p.to_str() {
                    Some(p) => parts.push(p),
                    None => ok = false,
                },
                std::path::Component::CurDir => {}
                _ => ok = false,
            }
        }
        if ok && !parts.is_empty() {
            let rel = parts.join("/");
            if !out.contains(&rel) {
                out.push(rel);
            }
        }
    }
    out
}

/// The blob id of the regular file `rel` names under `dir`, if it names
/// one that stays inside `dir` (symlinks resolved); `None` otherwise.
pub fn blob_at(dir: &Path, rel: &str) -> Result<Option<String>> {
    let Ok(dir) = dir.canonicalize() else {
        return Ok(None);
    };
    let Ok(path) = dir.join(rel).canonicalize() else {
        return Ok(None);
    };
    // Never the git directory: `.git` is not a file of the work tree.
    if !path.starts_with(&dir) || path.strip_prefix(&dir).is_ok_and(|p| p.starts_with(".git")) {
        return Ok(None);
    }
    match fs::metadata(&path) {
        Ok(meta) if meta.is_file() => {}
        _ => return Ok(None),
    }
    match crate::fsx::read_regular(&path, MAX_NAMED_FILE)? {
        Some(bytes) => Ok(Some(crate::git::blob_id(&bytes))),
        None => Ok(None),
    }
}

/// The files the commands name under `dir`, with their blob ids.
pub fn named_files(commands: &[&str], dir: &Path) -> Result<TrustedFiles> {
    let mut files = TrustedFiles::new();
    for command in commands {
        for rel in words(command) {
            if let Some(blob) = blob_at(dir, &rel)? {
                files.insert(rel, blob);
            }
        }
    }
    Ok(files)
}

/// A hook command, with what must still hold before it runs.
#[derive(Debug, Clone)]
pub struct HookCommand<'s> {
    pub command: &'s str,
    key: &'static str,
    /// For a command from the repository's file: the file sets of the
    /// records trusting it, each word of the command checked against them.
    trusted: Option<Vec<TrustedFiles>>,
}

impl HookCommand<'_> {
    /// `Err` naming the first file whose content under `dir` is not what a
    /// trust record covers (new, changed or gone), when none covers all.
    pub fn check_files(&self, dir: &Path) -> Result<()> {
        let Some(records) = &self.trusted else {
            return Ok(());
        };
        let mut now = Vec::new();
        for rel in words(self.command) {
            let blob = blob_at(dir, &rel)?;
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
/// untrusted repository file, or names a file of the work tree (`root`)
/// whose content is not the one trusted (see the module doc).
pub fn hook<'s>(
    settings: &'s Settings,
    which: Hook,
    root: &Path,
    common_dir: &Path,
) -> Result<Option<HookCommand<'s>>> {
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
        let records = records(common_dir, id)?;
        if records.is_empty() {
            return Err(Error::UntrustedHook {
                key,
                command: command.to_owned(),
                file: repo_toml_path(root),
            });
        }
        let hook = HookCommand {
            command,
            key,
            trusted: Some(records),
        };
        hook.check_files(root)?;
        return Ok(Some(hook));
    }
    Ok(Some(HookCommand {
        command,
        key,
        trusted: None,
    }))
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

/// Run the hook with `sh -c` in `dir`, once the files it names there are
/// checked to be the ones trusted (see [`HookCommand::check_files`]).
pub fn run(hook: &HookCommand<'_>, dir: &Path, env: &[(&str, &OsStr)]) -> Result<HookOutcome> {
    hook.check_files(dir)?;
    let command = hook.command;
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
