//! The ref layer: every ref git-loop writes or deletes — a branch deleted
//! by compare-and-swap, a trash entry kept or dropped, a branch restored,
//! a landing's move — goes through [`apply`], and every symbolic ref is
//! read through [`chain`].
//!
//! - **The `reference-transaction` hook runs** for every ref written, as
//!   for any ref git writes, and may refuse the change (as it refuses `git
//!   branch -d`): whenever such a hook may run ([`hook_may_run`]), the refs
//!   are not plain files (`extensions.refStorage`), or no committer
//!   identity is set (gix has no default one for the reflog line; git
//!   does), the edits go to `git update-ref --stdin` as one transaction.
//!   Otherwise gix writes them in process: the same `<ref>.lock`, the same
//!   reflog lines, no process (`cleanup --delete-merged-branches` of 200
//!   runs writes 400 refs).
//! - **Every old value is a compare-and-swap**: a ref that moved meanwhile
//!   is refused, never overwritten.
//! - **HEAD's reflog**: a branch moved in process while the main checkout's
//!   `HEAD` reaches it (directly, or through symbolic refs: `HEAD →
//!   master → main`) is moved through `HEAD`, so `HEAD`'s reflog (and each
//!   symbolic ref's on the way) gets the line, as `git merge --ff-only`
//!   there writes it. git's `update-ref` writes `HEAD`'s line when `HEAD`
//!   names the branch directly.
//! - **What git refuses is refused**: a branch name `git check-ref-format
//!   --branch` rejects ([`valid_branch_name`]: `HEAD` among them).
//! - **Symbolic refs** ([`chain`]): a name is followed as git follows it,
//!   to the ref that holds a commit, at most [`MAX_DEPTH`] steps; a branch
//!   checked out through a symbolic ref is checked out
//!   ([`crate::safety::checked_out`]).

use gix::ObjectId;
use gix::refs::transaction::{Change, LogChange, PreviousValue, RefEdit, RefLog};
use gix::refs::{FullName, Target};

use crate::error::{Error, Result};

mod read;
mod table;
mod value;

#[cfg(test)]
mod tests;
pub use read::{
    Heads, Value, admin_head, dwim_name, exists, find, head, head_commit, head_name, head_tree, id,
    own_refs, peel, peel_commit, prefixed, prefixed_strict, reflog, reftable, resolve_commit,
    spec_refs, worktree_head, worktree_heads,
};

/// How many symbolic refs git follows before it gives up (`SYMREF_MAXDEPTH`).
pub const MAX_DEPTH: usize = 5;

/// One ref change; each old value is a compare-and-swap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    /// Make `name` at `new`: it must not exist.
    Create { name: String, new: ObjectId },
    /// Move `name` from `old` to `new`.
    Update {
        name: String,
        old: ObjectId,
        new: ObjectId,
    },
    /// Delete `name`, which must be at `old`.
    Delete { name: String, old: ObjectId },
}

impl Edit {
    fn name(&self) -> &str {
        match self {
            Edit::Create { name, .. } | Edit::Update { name, .. } | Edit::Delete { name, .. } => {
                name
            }
        }
    }

    /// Its line for `git update-ref --stdin`.
    fn line(&self) -> String {
        match self {
            Edit::Create { name, new } => format!("create {name} {new}\n"),
            Edit::Update { name, old, new } => format!("update {name} {new} {old}\n"),
            Edit::Delete { name, old } => format!("delete {name} {old}\n"),
        }
    }
}

/// Apply `edits` in one transaction, all or none, `message` the reflog
/// line (a reflog made where there is none when `create_reflog`): by git
/// when a hook may run, by gix otherwise (see the module doc). The error
/// says why (a hook's refusal, a ref that moved, a lock held).
pub fn apply(
    repo: &gix::Repository,
    message: &str,
    create_reflog: bool,
    edits: &[Edit],
) -> Result<()> {
    if edits.is_empty() {
        return Ok(());
    }
    if !in_process(repo) {
        let commands: String = edits.iter().map(Edit::line).collect();
        let dir = repo.workdir().unwrap_or(repo.common_dir());
        return crate::git::plumbing::update_refs(dir, message, create_reflog, &commands)?
            .map_err(|e| Error::Git(e.to_string()));
    }
    // Only a move may go through `HEAD` (deletions and creations never
    // do): `HEAD` is not read for them.
    let moves = edits.iter().any(|e| matches!(e, Edit::Update { .. }));
    let head = moves.then(|| head_leaf(repo)).flatten();
    let through_head =
        |e: &Edit| matches!(e, Edit::Update { name, .. } if Some(name) == head.as_ref());
    if edits.iter().any(through_head)
        && in_process_through_head(repo, message, create_reflog, edits, head.as_deref())?
    {
        return Ok(());
    }
    let ref_edits = edits
        .iter()
        .map(|e| ref_edit(e, message, create_reflog, false))
        .collect::<Result<Vec<_>>>()?;
    repo.edit_references(ref_edits)
        .map_err(|e| Error::RefWrite(e.to_string()))?;
    Ok(())
}

/// The edits with the one that moves `head`'s branch made through `HEAD`
/// (gix follows it and writes a reflog line for each symbolic ref on the
/// way), committed only if `HEAD` still reaches that branch once the
/// locks are held. `Ok(false)`: it no longer does; nothing was written.
fn in_process_through_head(
    repo: &gix::Repository,
    message: &str,
    create_reflog: bool,
    edits: &[Edit],
    head: Option<&str>,
) -> Result<bool> {
    let err = |e: &dyn std::fmt::Display| Error::RefWrite(e.to_string());
    let ref_edits = edits
        .iter()
        .map(|e| {
            let via_head = matches!(e, Edit::Update { name, .. } if Some(name.as_str()) == head);
            ref_edit(e, message, create_reflog, via_head)
        })
        .collect::<Result<Vec<_>>>()?;
    let wait =
        gix::lock::acquire::Fail::AfterDurationWithBackoff(std::time::Duration::from_millis(100));
    let prepared = repo
        .refs
        .transaction()
        .prepare(ref_edits, wait, wait)
        .map_err(|e| err(&e))?;
    // `HEAD` is locked now: what it reaches cannot change before the commit.
    if head_leaf(repo).as_deref() != head {
        return Ok(false);
    }
    let committer = repo.committer().transpose().map_err(|e| err(&e))?;
    prepared.commit(committer).map_err(|e| err(&e))?;
    Ok(true)
}

fn ref_edit(edit: &Edit, message: &str, create_reflog: bool, via_head: bool) -> Result<RefEdit> {
    let name = if via_head { "HEAD" } else { edit.name() };
    let full: FullName = name
        .try_into()
        .map_err(|e: gix::validate::reference::name::Error| {
            Error::RefWrite(format!("{name}: {e}"))
        })?;
    let log = LogChange {
        mode: RefLog::AndReference,
        force_create_reflog: create_reflog,
        message: message.into(),
    };
    let change = match edit {
        Edit::Create { new, .. } => Change::Update {
            log,
            expected: PreviousValue::MustNotExist,
            new: Target::Object(*new),
        },
        Edit::Update { old, new, .. } => Change::Update {
            log,
            expected: PreviousValue::MustExistAndMatch(Target::Object(*old)),
            new: Target::Object(*new),
        },
        Edit::Delete { old, .. } => Change::Delete {
            expected: PreviousValue::MustExistAndMatch(Target::Object(*old)),
            log: RefLog::AndReference,
        },
    };
    Ok(RefEdit {
        change,
        name: full,
        deref: via_head,
    })
}

/// Delete `refs/heads/<branch>` only if it still points at `expected`.
/// Called only by the safety kernel (`crate::safety::exec`), with its
/// permit; a test (`kernel.rs`) fails when anything else calls it.
pub fn delete_branch_unguarded(
    repo: &gix::Repository,
    branch: &str,
    expected: ObjectId,
) -> Result<()> {
    let name = format!("refs/heads/{branch}");
    let delete = Edit::Delete {
        name,
        old: expected,
    };
    apply(repo, "git-loop: branch delete", false, &[delete])
}

/// Whether gix writes the refs (no hook may run, plain ref files, a
/// committer identity); else git does.
fn in_process(repo: &gix::Repository) -> bool {
    let files = !reftable(repo);
    let identity = repo.committer().is_some_and(|c| c.is_ok());
    files && identity && !hook_may_run(repo)
}

/// Whether git would run a `reference-transaction` hook: `core.hooksPath`
/// is set (not resolved: any setting counts), or the default
/// `hooks/reference-transaction` is an executable file.
pub fn hook_may_run(repo: &gix::Repository) -> bool {
    use std::os::unix::fs::PermissionsExt;
    if repo.config_snapshot().string("core.hooksPath").is_some() {
        return true;
    }
    let hook = repo
        .common_dir()
        .join("hooks")
        .join("reference-transaction");
    std::fs::metadata(hook).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The names `full` reaches through symbolic refs, itself first and the
/// ref that holds a commit (or names none: unborn) last; at most
/// [`MAX_DEPTH`] steps, as git follows them. A name that does not exist
/// is the chain's end.
pub fn chain(repo: &gix::Repository, full: &str) -> Vec<String> {
    let mut names = vec![full.to_owned()];
    while names.len() <= MAX_DEPTH {
        let last = names.last().expect("one name at least");
        let Ok(Some(Value::Symbolic(next))) = find(repo, last) else {
            break;
        };
        if names.contains(&next) {
            break;
        }
        names.push(next);
    }
    names
}

/// The branch (full name) the main checkout's `HEAD` reaches through
/// symbolic refs, when it is on one.
fn head_leaf(repo: &gix::Repository) -> Option<String> {
    let names = chain(repo, "HEAD");
    (names.len() > 1).then(|| names.last().cloned()).flatten()
}

/// The branch (short name) `refs/heads/<short>` is, through symbolic refs:
/// `short` itself for a plain branch, `main` for `master` kept as a
/// symbolic ref to `main`. `None`: no such branch, or it ends outside
/// `refs/heads/`.
pub fn branch_behind(repo: &gix::Repository, short: &str) -> Option<String> {
    let names = chain(repo, &format!("refs/heads/{short}"));
    names.last()?.strip_prefix("refs/heads/").map(str::to_owned)
}

/// Whether git accepts `name` as a branch (`git check-ref-format --branch`):
/// `refs/heads/<name>` a valid ref name, and `name` neither `HEAD` (git
/// refuses to make `refs/heads/HEAD`, which would make `HEAD` ambiguous)
/// nor beginning with `-`.
pub fn valid_branch_name(name: &str) -> bool {
    let full = format!("refs/heads/{name}");
    name != "HEAD"
        && !name.starts_with('-')
        && FullName::try_from(full.as_str()).is_ok()
        && gix::validate::reference::name(full.as_str().into()).is_ok()
}
