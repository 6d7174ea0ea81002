//! Refs of a repository whose refs git keeps in a reftable
//! (`extensions.refStorage = reftable`), read through git's plumbing: gix
//! reads only the files backend (its `refs/heads` there is a stub file
//! that says so, its `HEAD` names `refs/heads/.invalid`).
//!
//! - **Every ref, once per change**: `git for-each-ref --include-root-refs`
//!   reads every ref (and `HEAD`) into a snapshot, kept while the stack's
//!   `reftable/tables.list` is unchanged (one per repository, however its
//!   common dir is reached; threads asking at once wait for one read). git
//!   rewrites that file (a new file, renamed over it) on every ref written
//!   — by git-loop, by git, by another process — so a snapshot is never
//!   older than the last write it could have seen. `rev-parse
//!   --symbolic-full-name`'s answers are kept the same way.
//! - **Symbolic refs** as `for-each-ref` gives them: the ref that holds the
//!   commit, not the next link (`HEAD → master → main` reads as `HEAD →
//!   main`). What a chain reaches is the same.
//! - **Worktrees' `HEAD`s** from `git worktree list --porcelain`, keyed by
//!   the worktree's canonical path: a linked worktree's `HEAD` lives in its
//!   own stack alone (a `HEAD` on a branch is read as the branch's name),
//!   so the read is kept while the registrations and each one's stack and
//!   `gitdir` are unchanged — and one worktree's look-up checks only its
//!   own ([`linked_head`]);
//!   a worktree's own refs (`refs/worktree/*`, `refs/bisect/*`) from
//!   `for-each-ref` run in its admin dir.
//! - **Reflogs** from `git log -g`: git prints each line's new id and
//!   message, not its old id. A line's old id is the next older line's new
//!   one when no line lies between them (`@{n}` and `@{n+1}`); the oldest
//!   line's is null when its message is git's for a creation (`branch:
//!   Created from …`), else unknown (`None`).
//! - **Revisions**: a full id or a name git's DWIM rules find in the
//!   snapshot (`x`, `refs/x`, `refs/tags/x`, `refs/heads/x`,
//!   `refs/remotes/x`, `refs/remotes/x/HEAD`, in that order) is resolved in
//!   process; anything else (`x~2`, `@{u}`, a short id) by `git rev-parse`.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

use gix::ObjectId;
use gix::bstr::{BString, ByteSlice};

use super::value::{LogLine, Value};
use crate::error::{Error, Result};

mod heads;
mod log;
pub use heads::{admin_head, heads, linked_head, own_refs};
pub use log::reflog;

/// Every ref of one repository at one state of its stack.
pub struct Snapshot {
    pub refs: BTreeMap<BString, Value>,
}

/// The `HEAD` of every worktree, by canonical path, at one state.
pub struct Heads {
    pub linked: HashMap<PathBuf, Value>,
    /// Each registration's admin dir (canonical) and its own key
    /// ([`admin_key`]) as it was before the read.
    admins: HashMap<PathBuf, Vec<u8>>,
}

type Cache<T> = Mutex<Vec<(PathBuf, Vec<u8>, Arc<T>)>>;

static SNAPSHOTS: Cache<Snapshot> = Mutex::new(Vec::new());
static HEADS: Cache<Heads> = Mutex::new(Vec::new());
/// [`spec_refs`]'s answers, by name, at one state of the stack.
static SPECS: Cache<Mutex<HashMap<String, Vec<String>>>> = Mutex::new(Vec::new());
/// Every run branch's reflog, at one state of the stack ([`reflog`]).
static REFLOGS: Cache<HashMap<String, Vec<LogLine>>> = Mutex::new(Vec::new());

fn err(what: &str, e: impl std::fmt::Display) -> Error {
    Error::Repository(format!("could not read the reftable refs ({what}): {e}"))
}

/// `git -C <dir> <args>`'s stdout, as bytes (a ref name need not be UTF-8).
fn git(dir: &Path, args: &[&str]) -> Result<Vec<u8>> {
    let mut cmd = Command::new("git");
    crate::git::plumbing::without_repo_env(cmd.arg("-C").arg(dir).args(args))
        .env("LC_ALL", "C")
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let out = cmd.output().map_err(|e| err(args[0], e))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        return Err(err(&args.join(" "), stderr.trim()));
    }
    Ok(out.stdout)
}

/// The bytes of a stack's `tables.list` (empty when it has none).
fn stack_key(git_dir: &Path) -> Vec<u8> {
    std::fs::read(git_dir.join("reftable").join("tables.list")).unwrap_or_default()
}

fn cached<T>(
    cache: &Cache<T>,
    common: &Path,
    key: Vec<u8>,
    read: impl FnOnce() -> Result<T>,
) -> Result<Arc<T>> {
    let common = same_dir(common);
    // Held while reading: threads that ask at once wait for one read
    // instead of each running git.
    let mut held = cache.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, _, value)) = held.iter().find(|(c, k, _)| *c == common && *k == key) {
        return Ok(value.clone());
    }
    let value = Arc::new(read()?);
    held.retain(|(c, _, _)| *c != common);
    held.push((common, key, value.clone()));
    Ok(value)
}

/// `common` as one path whichever way it was reached: a linked worktree's
/// repository names its common dir `<common>/worktrees/<id>/../..`, and
/// without this each run's worktree read the refs again.
fn same_dir(common: &Path) -> PathBuf {
    crate::fsx::canonical_best_effort(common)
}

fn parse_value(id: &[u8], symref: &[u8]) -> Option<Value> {
    if !symref.is_empty() {
        return Some(Value::Symbolic(symref.to_str_lossy().into_owned()));
    }
    ObjectId::from_hex(id).ok().map(Value::Object)
}

/// Every ref of the repository whose common dir is `common`.
pub fn snapshot(common: &Path) -> Result<Arc<Snapshot>> {
    cached(&SNAPSHOTS, common, stack_key(common), || {
        let format = "--format=%(refname)%00%(objectname)%00%(symref)";
        let out = git(common, &["for-each-ref", "--include-root-refs", format])?;
        let mut refs = BTreeMap::new();
        for line in out.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            let mut fields = line.splitn(3, |&b| b == 0);
            let (Some(name), Some(id), symref) = (fields.next(), fields.next(), fields.next())
            else {
                continue;
            };
            if let Some(value) = parse_value(id, symref.unwrap_or_default()) {
                refs.insert(BString::from(name), value);
            }
        }
        // `HEAD` on a branch not yet born is not listed: read it as git does.
        if !refs.contains_key(b"HEAD".as_bstr()) {
            let head = git(common, &["symbolic-ref", "-q", "HEAD"]).unwrap_or_default();
            let head = head.trim_ascii();
            if !head.is_empty() {
                let name = head.to_str_lossy().into_owned();
                refs.insert("HEAD".into(), Value::Symbolic(name));
            }
        }
        Ok(Snapshot { refs })
    })
}

/// What `spec` names, when it is a full id (`Object`) or git's DWIM rules
/// find it in `snapshot` (`Symbolic`: the full name of the ref it names):
/// `None` to ask git.
pub fn dwim(snapshot: &Snapshot, spec: &str, hex_len: usize) -> Option<Value> {
    if spec.len() == hex_len
        && let Ok(id) = ObjectId::from_hex(spec.as_bytes())
    {
        return Some(Value::Object(id));
    }
    let operator = spec.contains(['~', '^', ':', '*', '?', '[', '\\', ' '])
        || spec.contains("..")
        || spec.contains("@{")
        || spec == "@";
    if spec.is_empty() || operator {
        return None;
    }
    let rules = [
        spec.to_owned(),
        format!("refs/{spec}"),
        format!("refs/tags/{spec}"),
        format!("refs/heads/{spec}"),
        format!("refs/remotes/{spec}"),
        format!("refs/remotes/{spec}/HEAD"),
    ];
    rules
        .iter()
        // git reads a one-level name only as a root ref (`HEAD`, `FETCH_HEAD`).
        .filter(|name| {
            name.contains('/') || name.bytes().all(|b| b.is_ascii_uppercase() || b == b'_')
        })
        .find(|name| snapshot.refs.contains_key(name.as_bytes().as_bstr()))
        .map(|name| Value::Symbolic(name.clone()))
}

/// `git rev-parse --verify` of `spec^{commit}`.
pub fn rev_parse_commit(common: &Path, spec: &str) -> Option<ObjectId> {
    let peeled = format!("{spec}^{{commit}}");
    let args = ["rev-parse", "--verify", "-q", "--end-of-options", &peeled];
    let out = git(common, &args).ok()?;
    ObjectId::from_hex(out.trim_ascii()).ok()
}

/// The full names of the refs `spec` reads (`git rev-parse
/// --symbolic-full-name` of its leading name), asked once per name while
/// the stack is unchanged (`list --long` asks it for every run's base).
pub fn spec_refs(common: &Path, spec: &str) -> Vec<String> {
    let end = spec.find(['~', '^', ':']).unwrap_or(spec.len());
    let name = &spec[..end];
    let name = name.split_once("@{").map_or(name, |(n, _)| n);
    if name.is_empty() || name.starts_with('-') {
        return Vec::new();
    }
    let answers = cached(&SPECS, common, stack_key(common), || Ok(Mutex::default()));
    let answers = answers.expect("an empty map is always made");
    let mut answers = answers.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(names) = answers.get(name) {
        return names.clone();
    }
    let args = [
        "rev-parse",
        "--symbolic-full-name",
        "--end-of-options",
        name,
    ];
    // A failure is not kept: the next call asks git again.
    let Ok(out) = git(common, &args) else {
        return Vec::new();
    };
    let names: Vec<String> = out
        .split(|&b| b == b'\n')
        .filter(|l| l.starts_with(b"refs/") || *l == b"HEAD")
        .map(|l| l.to_str_lossy().into_owned())
        .collect();
    answers.insert(name.to_owned(), names.clone());
    names
}
