//! Every ref git-loop reads, whatever stores it: the files backend through
//! gix, in process (no process per read); a reftable through git's
//! plumbing ([`super::table`]). Nothing outside this module reads a ref
//! with gix (a test, `refs_layer.rs`, fails when something does), so a
//! repository's ref storage is decided here once.
//!
//! Names are full (`refs/heads/main`, `HEAD`); a name that is not UTF-8 is
//! listed as the bytes it is ([`prefixed`]) and never looked up by a lossy
//! copy.

use std::path::Path;

use gix::ObjectId;
use gix::bstr::{BString, ByteSlice};

use super::table;
pub use super::value::{LogLine, Value};
use crate::error::{Error, Result};

fn err(e: impl std::fmt::Display) -> Error {
    Error::Repository(e.to_string())
}

/// Whether `repo`'s refs are a reftable (`extensions.refStorage`).
pub fn reftable(repo: &gix::Repository) -> bool {
    repo.config_snapshot()
        .string("extensions.refStorage")
        .is_some_and(|s| s.eq_ignore_ascii_case(b"reftable"))
}

fn value_of(target: gix::refs::TargetRef<'_>) -> Value {
    match target {
        gix::refs::TargetRef::Object(id) => Value::Object(id.to_owned()),
        gix::refs::TargetRef::Symbolic(name) => Value::Symbolic(name.as_bstr().to_string()),
    }
}

/// What the ref `full` holds, `None` when it does not exist.
pub fn find(repo: &gix::Repository, full: &str) -> Result<Option<Value>> {
    if reftable(repo) {
        let snapshot = table::snapshot(repo.common_dir())?;
        return Ok(snapshot.refs.get(full.as_bytes().as_bstr()).cloned());
    }
    let found = repo.try_find_reference(full).map_err(err)?;
    Ok(found.map(|r| value_of(r.target())))
}

/// The id the ref `full` holds itself (not through a symbolic ref);
/// `None`: no such ref, symbolic, or unreadable.
pub fn id(repo: &gix::Repository, full: &str) -> Option<ObjectId> {
    find(repo, full).ok().flatten()?.id()
}

/// Whether the ref `full` exists.
pub fn exists(repo: &gix::Repository, full: &str) -> Result<bool> {
    Ok(find(repo, full)?.is_some())
}

/// The object `value` leads to: symbolic refs followed (as git follows
/// them, at most [`super::MAX_DEPTH`] steps), tags peeled.
pub fn peel(repo: &gix::Repository, value: &Value) -> Option<ObjectId> {
    let mut value = value.clone();
    for _ in 0..=super::MAX_DEPTH {
        match value {
            Value::Object(id) => {
                let object = repo.find_object(id).ok()?;
                return Some(object.peel_tags_to_end().ok()?.id);
            }
            Value::Symbolic(name) => value = find(repo, &name).ok()??,
        }
    }
    None
}

/// The commit `value` leads to ([`peel`]), `None` when it leads to none.
pub fn peel_commit(repo: &gix::Repository, value: &Value) -> Option<ObjectId> {
    let id = peel(repo, value)?;
    is_commit(repo, id).then_some(id)
}

fn is_commit(repo: &gix::Repository, id: ObjectId) -> bool {
    repo.find_header(id)
        .is_ok_and(|h| h.kind() == gix::object::Kind::Commit)
}

/// Every ref whose full name starts with `prefix`, sorted by name; a ref
/// that cannot be decoded (an empty file a crash left) is left out, as
/// git leaves it out (`ignoring broken ref`): it holds nothing readable.
/// [`prefixed_strict`] refuses instead.
pub fn prefixed(repo: &gix::Repository, prefix: &str) -> Result<Vec<(BString, Value)>> {
    listed(repo, prefix, false)
}

/// [`prefixed`], but a ref that cannot be decoded is an error (a caller
/// that names every ref below `prefix`, such as a run's branches).
pub fn prefixed_strict(repo: &gix::Repository, prefix: &str) -> Result<Vec<(BString, Value)>> {
    listed(repo, prefix, true)
}

fn listed(repo: &gix::Repository, prefix: &str, strict: bool) -> Result<Vec<(BString, Value)>> {
    if reftable(repo) {
        let snapshot = table::snapshot(repo.common_dir())?;
        let from = BString::from(prefix);
        return Ok(snapshot
            .refs
            .range(from..)
            .take_while(|(name, _)| name.starts_with(prefix.as_bytes()))
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect());
    }
    let platform = repo.references().map_err(err)?;
    let mut out = Vec::new();
    for r in platform.prefixed(prefix.as_bytes()).map_err(err)? {
        let r = match r {
            Ok(r) => r,
            Err(e) if strict => return Err(err(e)),
            Err(_) => continue,
        };
        out.push((r.name().as_bstr().to_owned(), value_of(r.target())));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// The `HEAD` of the worktree `repo` was opened in (the main one, or a
/// linked one): the branch it is on (born or not), or the commit it is
/// detached at. An error when it cannot be read: a caller that takes "on
/// no branch" for "unreadable" would leave a checkout unguarded.
pub fn head(repo: &gix::Repository) -> Result<Value> {
    let unreadable =
        || Error::Repository(format!("{}: HEAD cannot be read", repo.git_dir().display()));
    if reftable(repo) {
        if repo.git_dir() == repo.common_dir() {
            return find(repo, "HEAD")?.ok_or_else(unreadable);
        }
        // A linked worktree's, by its path (opened through its admin dir,
        // it has none: not read).
        let dir = repo.workdir().ok_or_else(unreadable)?;
        return table::linked_head(repo.common_dir(), repo.git_dir(), dir)?.ok_or_else(unreadable);
    }
    let head = repo.head().map_err(err)?;
    Ok(match head.kind {
        gix::head::Kind::Symbolic(r) => Value::Symbolic(r.name.as_bstr().to_string()),
        gix::head::Kind::Unborn(name) => Value::Symbolic(name.as_bstr().to_string()),
        gix::head::Kind::Detached { target, .. } => Value::Object(target),
    })
}

/// The branch (full name) `HEAD` of the worktree `repo` was opened in is
/// on, born or not; `None`: detached.
pub fn head_name(repo: &gix::Repository) -> Result<Option<String>> {
    Ok(match head(repo)? {
        Value::Symbolic(name) => Some(name),
        Value::Object(_) => None,
    })
}

/// The commit `HEAD` of the worktree `repo` was opened in leads to; `None`
/// when it leads to none (unborn) or cannot be read.
pub fn head_commit(repo: &gix::Repository) -> Option<ObjectId> {
    let id = peel(repo, &head(repo).ok()?)?;
    is_commit(repo, id).then_some(id)
}

/// The tree of the commit `HEAD` of the worktree `repo` was opened in
/// leads to; the empty tree when it leads to none (unborn, unreadable:
/// every tracked file then counts as staged, never as clean).
pub fn head_tree(repo: &gix::Repository) -> ObjectId {
    head_commit(repo)
        .and_then(|id| repo.find_commit(id).ok()?.tree_id().ok())
        .map_or_else(|| ObjectId::empty_tree(repo.object_hash()), gix::Id::detach)
}

/// The `HEAD`s of a repository's linked worktrees, read once for a
/// command that reads many ([`worktree_head`]): nothing is read ahead in
/// the files backend (each is one file); a reftable's are read together
/// (`git worktree list`), checked current once, here.
pub enum Heads {
    Files,
    Table(Option<std::sync::Arc<table::Heads>>),
}

/// [`Heads`] of `repo` (the main repository), as they are now.
pub fn worktree_heads(repo: &gix::Repository) -> Heads {
    match reftable(repo) {
        true => Heads::Table(table::heads(repo.common_dir()).ok()),
        false => Heads::Files,
    }
}

/// The `HEAD` of the linked worktree registered as `proxy` in `repo` (the
/// main repository), `heads` read by [`worktree_heads`].
pub fn worktree_head(
    repo: &gix::Repository,
    proxy: &gix::worktree::Proxy<'_>,
    heads: &Heads,
) -> Option<Value> {
    if let Heads::Table(heads) = heads {
        let base = proxy.base().ok()?;
        return heads
            .as_ref()?
            .linked
            .get(&crate::fsx::canonical_best_effort(&base))
            .cloned();
    }
    let admin = proxy.id().ok()?;
    let name = format!("worktrees/{admin}/HEAD");
    let found = repo.try_find_reference(name.as_str()).ok()??;
    Some(value_of(found.target()))
}

/// The refs a linked worktree keeps in its admin dir `admin_dir`
/// (`refs/worktree/*`, `refs/bisect/*`, …), full name and id, sorted. Its
/// own stack, `<admin_dir>/reftable/`, says its refs are a reftable.
pub fn own_refs(admin_dir: &Path) -> Result<Vec<(String, ObjectId)>> {
    if admin_dir.join("reftable").is_dir() {
        return table::own_refs(admin_dir);
    }
    let mut out = Vec::new();
    let root = admin_dir.join("refs");
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                stack.push(path);
                continue;
            }
            if !kind.is_file() {
                continue;
            }
            let Ok(Some(bytes)) = crate::fsx::read_regular(&path, 256) else {
                continue;
            };
            let text = String::from_utf8_lossy(&bytes);
            let Ok(id) = ObjectId::from_hex(text.trim().as_bytes()) else {
                continue;
            };
            let Ok(rel) = path.strip_prefix(admin_dir) else {
                continue;
            };
            let name = rel.to_string_lossy().replace('\\', "/");
            out.push((name, id));
        }
    }
    out.sort();
    Ok(out)
}

/// The `HEAD` of the linked worktree whose admin dir is `admin_dir`, read
/// there (a registration [`worktree_head`] may not list: half removed):
/// the branch it names, or the commit it is detached at; `Ok(None)`:
/// unreadable. In the files backend the `HEAD` file itself (a regular
/// file, not followed through a symlink); in a reftable, its own stack.
pub fn admin_head(repo: &gix::Repository, admin_dir: &Path) -> Result<Option<Value>> {
    if reftable(repo) {
        return Ok(table::admin_head(admin_dir));
    }
    let Some(bytes) = crate::fsx::read_regular(&admin_dir.join("HEAD"), 4096)? else {
        return Ok(None);
    };
    let text = String::from_utf8_lossy(&bytes).trim().to_owned();
    if let Some(name) = text.strip_prefix("ref:") {
        return Ok(Some(Value::Symbolic(name.trim().to_owned())));
    }
    Ok(ObjectId::from_hex(text.as_bytes()).ok().map(Value::Object))
}

/// The reflog of `full`, newest line first (empty: none, or unreadable).
pub fn reflog(repo: &gix::Repository, full: &str) -> Vec<LogLine> {
    if reftable(repo) {
        return table::reflog(repo.common_dir(), full);
    }
    let Ok(Some(reference)) = repo.try_find_reference(full) else {
        return Vec::new();
    };
    let mut platform = reference.log_iter();
    let Ok(Some(lines)) = platform.rev() else {
        return Vec::new();
    };
    lines
        .map_while(|l| l.ok())
        .map(|l| LogLine {
            old: Some(l.previous_oid),
            new: l.new_oid,
            message: l.message.to_owned(),
        })
        .collect()
}

/// The commit the revision `spec` names (`None`: none), as `git rev-parse
/// --verify <spec>^{commit}` reads it.
pub fn resolve_commit(repo: &gix::Repository, spec: &str) -> Option<ObjectId> {
    if spec.starts_with('-') {
        return None;
    }
    if reftable(repo) {
        let snapshot = table::snapshot(repo.common_dir()).ok()?;
        let hex_len = repo.object_hash().len_in_hex();
        return match table::dwim(&snapshot, spec, hex_len) {
            Some(value) => {
                let id = peel(repo, &value)?;
                is_commit(repo, id).then_some(id)
            }
            None => table::rev_parse_commit(repo.common_dir(), spec),
        };
    }
    let id = repo.rev_parse_single(spec).ok()?;
    let commit = id.object().ok()?.peel_to_commit().ok()?;
    Some(commit.id)
}

/// The full name of the ref a plain name `spec` is, by git's DWIM rules
/// (`main` is `refs/heads/main`, `origin/main` `refs/remotes/origin/main`),
/// `None` when it names no ref.
pub fn dwim_name(repo: &gix::Repository, spec: &str) -> Option<String> {
    if spec.starts_with('-') {
        return None;
    }
    if reftable(repo) {
        let snapshot = table::snapshot(repo.common_dir()).ok()?;
        let hex_len = repo.object_hash().len_in_hex();
        return match table::dwim(&snapshot, spec, hex_len)? {
            Value::Symbolic(name) => Some(name),
            Value::Object(_) => None,
        };
    }
    let found = repo.find_reference(spec).ok()?;
    Some(found.name().as_bstr().to_string())
}

/// The full names of the refs the revision `spec` is read through, before
/// any symbolic ref is followed (`main~2` reads `refs/heads/main`; a
/// range, both ends'); empty when it reads none (an id).
pub fn spec_refs(repo: &gix::Repository, spec: &str) -> Vec<String> {
    if reftable(repo) {
        return table::spec_refs(repo.common_dir(), spec);
    }
    let Ok(parsed) = repo.rev_parse(spec) else {
        return Vec::new();
    };
    [parsed.first_reference(), parsed.second_reference()]
        .into_iter()
        .flatten()
        .map(|r| r.name.as_bstr().to_string())
        .collect()
}
