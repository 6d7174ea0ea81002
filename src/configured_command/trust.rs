//! The trust of a configured command (see the parent module). One set in
//! the repository's own `.git-loop.toml` comes with the code you cloned, so
//! it runs only after you have trusted that file's content once (`git loop
//! trust`). The trust record is the file's git blob id, kept in `<git common
//! dir>/git-loop/trusted` — inside `.git`, which no clone, fetch or checkout
//! writes — so any change to the file (a pull that edits a command) needs
//! trusting again. Commands set in git config, the user TOML or the
//! environment are your own and run without it. A git-loop command that
//! needs an untrusted one refuses before it changes anything. The file is
//! read once, with the settings, through [`crate::fsx`] (never through a
//! symlink, regular files only, size-capped): the id checked is the id of
//! the very bytes the configured command was read from.
//!
//! **The files a command names.** `sh ./setup.sh` runs whatever `setup.sh`
//! holds, so trusting the TOML alone would let a later pull change what a
//! trusted command does. `git loop trust` therefore also records the blob
//! id of every file the repository file's commands *name*: each word of a
//! command (split at blanks and at `; & | ( ) < > =` and backquotes, quotes
//! removed) that, read as a relative path with no `..` and no `$`, names a
//! regular file under the work tree (a symlink is followed only while it
//! stays inside it). Before a configured command runs — once when the
//! git-loop command that runs it starts (against the main work tree) and
//! again right before it is spawned (against the worktree it runs in, whose
//! files are the ones it will execute) — each of its words must name the
//! same thing it named when trusted: the same content, or no file at all. A
//! file that is new, changed or gone makes the command untrusted, refused as
//! an untrusted `.git-loop.toml` is, naming that file. Not covered, and said
//! so by `trust`: what those files run or read in turn, files reached
//! through a variable (`$GIT_LOOP_ROOT/x`), an absolute path, or a tool's
//! implicit input (`make` reading `Makefile`), and programs found on `PATH`.
//!
//! The store: one line per trust, `<toml blob id> <time> <files>`, where
//! `<files>` is a JSON object of path → blob id (a line without it, written
//! by an older git-loop, trusts the TOML with no files: a command naming a
//! file needs trusting again).

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

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

/// Record `id`, with the files its commands name, as trusted (one line,
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

/// The largest file a command names that is hashed (a script is far smaller).
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
pub fn blob_at(dir: &Path, rel: &str, hash: gix::hash::Kind) -> Result<Option<String>> {
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
        Some(bytes) => Ok(Some(crate::git::blob_id(hash, &bytes))),
        None => Ok(None),
    }
}

/// The files the commands name under `dir`, with their blob ids.
pub fn named_files(commands: &[&str], dir: &Path, hash: gix::hash::Kind) -> Result<TrustedFiles> {
    let mut files = TrustedFiles::new();
    for command in commands {
        for rel in words(command) {
            if let Some(blob) = blob_at(dir, &rel, hash)? {
                files.insert(rel, blob);
            }
        }
    }
    Ok(files)
}
