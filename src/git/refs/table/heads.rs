//! Worktrees' `HEAD`s and own refs in a reftable repository (see the
//! parent module's doc).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use gix::ObjectId;
use gix::bstr::ByteSlice;

use super::{HEADS, Heads, cached, err, git, same_dir, stack_key};
use crate::error::Result;
use crate::git::refs::value::Value;

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
