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

/// What a linked worktree's `HEAD` depends on: its own stack (where its
/// `HEAD` lives; the main stack holds none of it: a `HEAD` on a branch is
/// read as the branch's name) and its `gitdir` (the path the `HEAD`s are
/// keyed by: `git worktree move` changes it and no stack).
fn admin_key(admin: &Path) -> Vec<u8> {
    let mut key = stack_key(admin);
    key.push(0);
    key.extend(std::fs::read(admin.join("gitdir")).unwrap_or_default());
    key
}

/// Every registration's admin dir, canonical, with its [`admin_key`].
fn admin_keys(common: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut admins: Vec<PathBuf> = std::fs::read_dir(common.join("worktrees"))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    admins.sort();
    admins
        .into_iter()
        .map(|admin| {
            let key = admin_key(&admin);
            (crate::fsx::canonical_best_effort(&admin), key)
        })
        .collect()
}

/// The key of the worktrees' `HEAD`s: which registrations there are, and
/// each one's [`admin_key`].
fn heads_key(admins: &[(PathBuf, Vec<u8>)]) -> Vec<u8> {
    let mut key = Vec::new();
    for (admin, own) in admins {
        key.push(0);
        key.extend_from_slice(admin.as_os_str().as_encoded_bytes());
        key.push(0);
        key.extend(own);
    }
    key
}

/// The `HEAD` of every worktree of the repository whose common dir is
/// `common`.
pub fn heads(common: &Path) -> Result<Arc<Heads>> {
    // The key names each admin dir by its path under `common`: one path.
    let common = &same_dir(common);
    // Read before git runs: a key older than what is read only makes the
    // next look-up read again.
    let admins = admin_keys(common);
    cached(&HEADS, common, heads_key(&admins), || {
        let out = git(common, &["worktree", "list", "--porcelain", "-z"])?;
        let mut heads = Heads {
            linked: HashMap::new(),
            admins: admins.iter().cloned().collect(),
        };
        // Records end with an empty field; the first is the main worktree.
        let mut first = true;
        let (mut path, mut id, mut branch) = (None, None, None);
        for field in out.split(|&b| b == 0) {
            if field.is_empty() {
                if path.is_some() {
                    let value = match (branch.take(), id.take()) {
                        (Some(b), _) => Some(Value::Symbolic(b)),
                        (None, Some(id)) => Some(Value::Object(id)),
                        (None, None) => None,
                    };
                    let at: PathBuf = path.take().expect("checked");
                    // The main worktree's is read from the snapshot.
                    if let (false, Some(value)) = (first, value) {
                        let at = crate::fsx::canonical_best_effort(&at);
                        heads.linked.insert(at, value);
                    }
                    first = false;
                }
                continue;
            }
            if let Some(p) = field.strip_prefix(b"worktree ") {
                path = Some(PathBuf::from(p.to_os_str_lossy().into_owned()));
            } else if let Some(h) = field.strip_prefix(b"HEAD ") {
                id = ObjectId::from_hex(h).ok().filter(|id| !id.is_null());
            } else if let Some(b) = field.strip_prefix(b"branch ") {
                branch = Some(b.to_str_lossy().into_owned());
            }
        }
        Ok(heads)
    })
}

/// The `HEAD` of the linked worktree at `workdir` whose admin dir is
/// `admin`: from the last read of every worktree's when this one's own
/// stack and `gitdir` are as they were then (one worktree's look-up
/// checks one worktree, not all: `list --long` looks up each run's),
/// else from a new read. `None`: not listed.
pub fn linked_head(common: &Path, admin: &Path, workdir: &Path) -> Result<Option<Value>> {
    let common = same_dir(common);
    let admin = crate::fsx::canonical_best_effort(admin);
    let at = crate::fsx::canonical_best_effort(workdir);
    let last = {
        let held = HEADS.lock().unwrap_or_else(|p| p.into_inner());
        held.iter()
            .find(|(c, _, _)| *c == common)
            .map(|(_, _, heads)| heads.clone())
    };
    if let Some(heads) = last
        && heads.admins.get(&admin) == Some(&admin_key(&admin))
    {
        return Ok(heads.linked.get(&at).cloned());
    }
    Ok(heads(&common)?.linked.get(&at).cloned())
}

/// A worktree's own refs (`refs/worktree/*`, `refs/bisect/*`,
/// `refs/rewritten/*`), read with its admin dir `admin_dir` as the git dir
/// (`--git-dir`: an admin dir git cannot read is an error, never a search
/// upwards that would find the main worktree's). A name that is not UTF-8
/// is kept, lossily, as the files backend keeps it; a line that cannot be
/// read is an error: a ref missed here would die with the admin dir.
pub fn own_refs(admin_dir: &Path) -> Result<Vec<(String, ObjectId)>> {
    let format = "--format=%(refname)%00%(objectname)";
    let args = [
        "--git-dir=.",
        "for-each-ref",
        format,
        "refs/worktree/",
        "refs/bisect/",
        "refs/rewritten/",
    ];
    let out = git(admin_dir, &args)?;
    let mut refs = Vec::new();
    for line in out.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let parsed = line.split_once_str(b"\0").and_then(|(name, id)| {
            let id = ObjectId::from_hex(id).ok()?;
            Some((name.to_str_lossy().into_owned(), id))
        });
        match parsed {
            Some(found) => refs.push(found),
            None => return Err(err("for-each-ref", line.to_str_lossy())),
        }
    }
    refs.sort();
    Ok(refs)
}

/// The messages git writes on a ref's first reflog line, when it creates
/// the ref (`git branch`, `git worktree add -b`, `git checkout -b`; the
/// first commit on an unborn branch).
const CREATED: [&[u8]; 2] = [b"branch: Created from ", b"commit (initial): "];

/// The `HEAD` of the worktree whose admin dir is `admin_dir`, read with
/// it as the git dir: the branch it is on, else the commit it is detached
/// at; `None`: unreadable.
pub fn admin_head(admin_dir: &Path) -> Option<Value> {
    if let Ok(out) = git(admin_dir, &["--git-dir=.", "symbolic-ref", "-q", "HEAD"]) {
        let name = out.trim_ascii();
        if !name.is_empty() {
            return Some(Value::Symbolic(name.to_str_lossy().into_owned()));
        }
    }
    let args = ["--git-dir=.", "rev-parse", "--verify", "-q", "HEAD"];
    let out = git(admin_dir, &args).ok()?;
    ObjectId::from_hex(out.trim_ascii()).ok().map(Value::Object)
}

/// `full`'s reflog, newest line first (see the module doc for old ids).
/// `git log -g` leaves out a line whose new id is not a readable commit;
/// each line's index (`@{n}`) shows the gap, and no old id is inferred
/// across one. A run's branch (`refs/heads/loop/*`) is read with every
/// other run's branch in one process, kept while the stack is unchanged
/// (`list --long` asks for every run's): reflogs are in the stack too.
pub fn reflog(common: &Path, full: &str) -> Vec<LogLine> {
    let prefix = format!("refs/heads/{}/", crate::runid::BRANCH_PREFIX);
    if !full.starts_with(&prefix) {
        return reflogs(common, &[full.to_owned()])
            .remove(full)
            .unwrap_or_default();
    }
    let all = cached(&REFLOGS, common, stack_key(common), || {
        let snapshot = snapshot(common)?;
        let names: Vec<String> = snapshot
            .refs
            .range(BString::from(prefix.as_str())..)
            .take_while(|(name, _)| name.starts_with(prefix.as_bytes()))
            .filter_map(|(name, _)| name.to_str().ok().map(str::to_owned))
            .collect();
        Ok(reflogs(common, &names))
    });
    match all {
        Ok(all) => all.get(full).cloned().unwrap_or_default(),
        Err(_) => Vec::new(),
    }
}

/// The reflogs of `names` (full ref names), each newest line first: one
/// `git log -g` for many (a few thousand names a process).
fn reflogs(common: &Path, names: &[String]) -> HashMap<String, Vec<LogLine>> {
    let mut by_ref: HashMap<String, Vec<(usize, LogLine)>> = HashMap::new();
    for chunk in names.chunks(2000) {
        let mut args = vec![
            "log",
            "-g",
            "--no-show-signature",
            "--format=%gD%x00%H%x00%gs",
        ];
        args.extend(chunk.iter().map(String::as_str));
        args.push("--");
        let Ok(out) = git(common, &args) else {
            continue;
        };
        for line in out.split(|&b| b == b'\n') {
            let mut fields = line.splitn(3, |&b| b == 0);
            let (Some(selector), Some(id), Some(message)) =
                (fields.next(), fields.next(), fields.next())
            else {
                continue;
            };
            let Some((name, index)) = selector.rsplit_once_str(b"@{") else {
                continue;
            };
            let index = index
                .strip_suffix(b"}")
                .and_then(|i| i.to_str().ok()?.parse().ok());
            let (Some(index), Ok(new), Ok(name)) = (index, ObjectId::from_hex(id), name.to_str())
            else {
                continue;
            };
            let line = LogLine {
                old: None,
                new,
                message: message.into(),
            };
            by_ref
                .entry(name.to_owned())
                .or_default()
                .push((index, line));
        }
    }
    by_ref
        .into_iter()
        .map(|(name, mut lines)| {
            lines.sort_by_key(|(index, _)| *index);
            for i in 1..lines.len() {
                if lines[i].0 == lines[i - 1].0 + 1 {
                    lines[i - 1].1.old = Some(lines[i].1.new);
                }
            }
            if let Some((_, oldest)) = lines.last_mut()
                && CREATED.iter().any(|m| oldest.message.starts_with(m))
            {
                oldest.old = Some(ObjectId::null(oldest.new.kind()));
            }
            (name, lines.into_iter().map(|(_, line)| line).collect())
        })
        .collect()
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
