//! The checkout that has the target checked out, moved from `old` to `new`
//! in-process when that is certainly the plain case, instead of a
//! `git read-tree -m -u old new` process (which reads and writes the whole
//! index: 10,000 entries in the benchmark's repository, for every landing
//! of a queue).
//!
//! Plain means, besides the kernel's proof that every changed path is up
//! to date ([`crate::safety::checkout::permit`]):
//! - **no conversion on checkout**: `core.autocrlf` unset or false,
//!   `core.eol` unset, no system attributes file, and no attribute at all
//!   (from `.gitattributes`, `info/attributes`, `core.attributesFile` or
//!   the user's `git/attributes`) on any path the landing writes; a
//!   landing that changes a `.gitattributes` itself is left to git;
//! - **an index gix writes back as git would**: not version 4, no
//!   untracked cache (`UNTR`), no fsmonitor data (`FSMN`), no resolve-undo
//!   (`REUC`), not split, not sparse; `core.fileMode`, `core.symlinks` not
//!   false, `core.splitIndex`, `core.fsmonitor`, `core.sharedRepository`
//!   not set;
//! - **the index lock free**: taken without waiting (`index.lock`, as git
//!   takes it); the index read again under it and the proof made again on
//!   what it holds then.
//!
//! Anything else is *unsure* and nothing has been written: the caller runs
//! `git read-tree -m -u`, as before. The writing itself is the kernel's
//! ([`crate::safety::exec::update_checkout`]).

use std::path::Path;

use gix::ObjectId;

use super::Advance;
use crate::error::{Error, Result};
use crate::git::repo::Repo;
use crate::safety;

/// `true`: `checkout` was moved from `old` to `new` (files and index);
/// `false`: unsure, nothing changed.
pub(super) fn two_way(
    repo: &Repo,
    branch: &str,
    checkout: &Path,
    (old, new): (ObjectId, ObjectId),
    kept: Option<&str>,
) -> Result<bool> {
    let wt = crate::git::repo::open_worktree(checkout)?;
    if !plain_config(&wt) {
        return Ok(false);
    }
    let index_path = wt.index_path();
    let Ok(lock) = gix::lock::File::acquire_to_update_resource(
        &index_path,
        gix::lock::acquire::Fail::Immediately,
        None,
        0,
    ) else {
        return Ok(false);
    };
    let lock_path = lock.lock_path().to_path_buf();
    crate::signals::track_temp(&lock_path);
    let at = (checkout, old, new, kept);
    let outcome = locked(repo, &wt, branch, at, &index_path, lock);
    // Committed or dropped by now: the lock file is gone either way.
    crate::signals::untrack_temp(&lock_path);
    outcome
}

/// Under the index lock: the index read again, the plain case checked, the
/// kernel asked, the kernel's primitive run.
fn locked(
    repo: &Repo,
    wt: &gix::Repository,
    branch: &str,
    (checkout, old, new, kept): (&Path, ObjectId, ObjectId, Option<&str>),
    index_path: &Path,
    lock: gix::lock::File,
) -> Result<bool> {
    // Its checksum not verified, as git reads it (see `read_index`).
    let options = gix::index::decode::Options::default();
    let Ok(index) = gix::index::File::at(index_path, wt.object_hash(), true, options) else {
        return Ok(false);
    };
    if !plain_index(&index) {
        return Ok(false);
    }
    let Some((permit, steps)) =
        safety::checkout::permit(repo.gix(), checkout, &index, branch, (old, new), kept)?
    else {
        return Ok(false);
    };
    if attributed(wt, &index, &steps)? {
        return Ok(false);
    }
    safety::exec::update_checkout(
        &permit,
        repo.gix(),
        wt,
        (checkout, old, new),
        index,
        lock,
        &steps,
    )
}

/// [`Advance::TargetIgnored`] when files the index of `checkout` does not
/// list stand where the checkout from `old` to `new` writes
/// ([`safety::checkout::untracked`]), else [`Advance::Moved`].
pub(super) fn untracked(
    repo: &Repo,
    checkout: &Path,
    index: &gix::index::File,
    old: ObjectId,
    new: ObjectId,
) -> Result<Advance> {
    let paths = safety::checkout::untracked::in_the_way(repo.gix(), checkout, index, old, new)?;
    let checkout = checkout.to_path_buf();
    Ok(if paths.is_empty() {
        Advance::Moved {
            checkout: Some(checkout),
        }
    } else {
        Advance::TargetIgnored { checkout, paths }
    })
}

/// No setting that changes how git writes the files or the index.
fn plain_config(wt: &gix::Repository) -> bool {
    let config = wt.config_snapshot();
    let value = |key: &str| config.string(key).map(|v| v.to_ascii_lowercase());
    let falsy = |v: &[u8]| [&b"false"[..], b"no", b"off", b"0"].contains(&v);
    let set_and_not_false = |key: &str| value(key).is_some_and(|v| !falsy(&v));
    let set_false = |key: &str| value(key).is_some_and(|v| falsy(&v) || v.is_empty());
    let system_attributes =
        std::env::var_os("GIT_ATTR_NOSYSTEM").is_none() && Path::new("/etc/gitattributes").exists();
    !(set_and_not_false("core.autocrlf")
        || value("core.eol").is_some()
        || set_false("core.fileMode")
        || set_false("core.symlinks")
        || set_and_not_false("core.splitIndex")
        || set_and_not_false("core.fsmonitor")
        || set_and_not_false("core.sharedRepository")
        || set_and_not_false("core.ignoreCase")
        || set_and_not_false("core.sparseCheckout")
        || system_attributes)
}

/// An index whose every part gix reads and writes back whole.
fn plain_index(index: &gix::index::File) -> bool {
    index.version() != gix::index::Version::V4
        && index.untracked().is_none()
        && index.fs_monitor().is_none()
        && index.resolve_undo().is_none()
        && index.link().is_none()
        && !index.is_sparse()
}

/// Whether any attribute applies to a path the landing writes.
fn attributed(
    wt: &gix::Repository,
    index: &gix::index::File,
    steps: &[safety::checkout::Step],
) -> Result<bool> {
    let err = |e: &dyn std::fmt::Display| Error::Repository(e.to_string());
    let source = gix::worktree::stack::state::attributes::Source::WorktreeThenIdMapping;
    let mut stack = wt.attributes_only(index, source).map_err(|e| err(&e))?;
    let mut outcome = stack.attribute_matches();
    for step in steps.iter().filter(|s| s.is.is_some()) {
        let platform = stack.at_entry(&step.path, None).map_err(|e| err(&e))?;
        if platform.matching_attributes(&mut outcome) {
            return Ok(true);
        }
    }
    Ok(false)
}
