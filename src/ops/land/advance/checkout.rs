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
//!
//! A sync takes the lock itself ([`hold`]) before its run's branch moves,
//! and keeps it until the index is written, in process or, when unsure
//! ([`Followed::Unsure`]), by git on a copy of the index put in place
//! under the lock ([`super::read_tree::write_held`]): a `git commit` in
//! the run never pairs the moved branch with the index from before.

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
    match hold(checkout, false)? {
        Some(held) => Ok(matches!(
            two_way_held(repo, branch, (old, new), kept, held)?,
            Followed::Done
        )),
        None => Ok(false),
    }
}

/// What [`two_way_held`] came to.
pub(super) enum Followed {
    /// The checkout is at `new`, files and index; the lock let go.
    Done,
    /// Unsure (not the plain case): nothing written, the index still held,
    /// for git's `read-tree` to write under it ([`super::read_tree::write_held`]).
    Unsure(Box<Held>),
    /// The in-process write failed and put everything back: nothing
    /// changed, but the lock is gone.
    Released,
}

/// The index of a checkout, locked (`index.lock`, as git takes it) and
/// held: no git command there writes its index or commits until it is let
/// go — committed by [`two_way_held`]'s write, or dropped (gix removes the
/// lock file).
pub(super) struct Held {
    wt: gix::Repository,
    checkout: std::path::PathBuf,
    index_path: std::path::PathBuf,
    lock: gix::lock::File,
    _tracked: Tracked,
    /// Dropped after `lock` (fields drop in order): the marker outlives
    /// the lock it names.
    owner: Option<Owner>,
}

/// The file beside a run's index that says its lock is a sync's
/// ([`OWNER`]): `flock`ed while the sync holds the index (the kernel lets
/// go of an `flock` when its process dies, however it dies), and holding
/// the device and inode of the `index.lock` it took. So a lock left by a
/// killed sync is told from a git command's: the marker is there, nobody
/// holds its `flock`, and `index.lock` is that very file
/// ([`stale_owned_lock`]).
pub(super) struct Owner {
    file: std::fs::File,
    path: std::path::PathBuf,
}

/// The marker's name, in the worktree's git directory.
pub const OWNER: &str = "loop-sync-index.owner";

impl Drop for Owner {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

/// Mark the index lock at `lock_path` as this process's (see [`Owner`]);
/// `None` when the marker cannot be written (then a kill leaves a lock the
/// next sync names, for a person to clear).
fn claim(git_dir: &Path, lock_path: &Path) -> Option<Owner> {
    use std::io::Write;
    use std::os::unix::fs::MetadataExt;
    let path = git_dir.join(OWNER);
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(true)
        .write(true)
        .open(&path)
        .ok()?;
    let owner = Owner {
        file: file.try_clone().ok()?,
        path,
    };
    owner.file.try_lock().ok()?;
    let meta = std::fs::symlink_metadata(lock_path).ok()?;
    // One write (a kill leaves all of it or none), not synced to disk: a
    // marker a crash of the machine loses (or leaves empty) names no lock,
    // and the lock is then named for a person to clear, never cleared. So
    // is a lock whose process was killed in the few system calls between
    // taking it and this write.
    file.write_all(format!("{} {}\n", meta.dev(), meta.ino()).as_bytes())
        .ok()?;
    Some(owner)
}

/// Whether `checkout`'s `index.lock` was left by a sync that is no longer
/// running (see [`Owner`]): the marker is there, its `flock` is free, and
/// it names the `index.lock` there now. Changes nothing.
pub(super) fn stale_owned_lock(checkout: &Path) -> Result<bool> {
    use std::os::unix::fs::MetadataExt;
    let wt = crate::git::repo::open_worktree(checkout)?;
    let lock_path = wt.index_path().with_extension("lock");
    let marker = wt.git_dir().join(OWNER);
    let (Ok(text), Ok(lock)) = (
        std::fs::read_to_string(&marker),
        std::fs::symlink_metadata(&lock_path),
    ) else {
        return Ok(false);
    };
    let Ok(file) = std::fs::File::open(&marker) else {
        return Ok(false);
    };
    if file.try_lock().is_err() {
        return Ok(false);
    }
    let names = text.trim() == format!("{} {}", lock.dev(), lock.ino());
    let _ = file.unlock();
    Ok(names)
}

/// The lock a killed sync left on `checkout`'s index removed, with its
/// marker, when it is still that ([`stale_owned_lock`]): what it held was
/// that sync's unfinished index, never anything of the user's.
pub(super) fn clear_stale_lock(checkout: &Path) -> Result<bool> {
    if !stale_owned_lock(checkout)? {
        return Ok(false);
    }
    let wt = crate::git::repo::open_worktree(checkout)?;
    let lock_path = wt.index_path().with_extension("lock");
    std::fs::remove_file(&lock_path)
        .map_err(|e| Error::Repository(format!("could not remove {}: {e}", lock_path.display())))?;
    let _ = std::fs::remove_file(wt.git_dir().join(INDEX_COPY));
    let _ = std::fs::remove_file(wt.git_dir().join(OWNER));
    Ok(true)
}

/// The lock file's path, removed by a SIGINT/SIGTERM while held, and no
/// longer once this is dropped (so a later lock of someone else's is never
/// touched).
struct Tracked(std::path::PathBuf);

impl Drop for Tracked {
    fn drop(&mut self) {
        crate::signals::untrack_temp(&self.0);
    }
}

/// The index of `checkout` locked without waiting (whatever its
/// configuration: [`two_way_held`] decides whether the write is plain).
/// `None`: the lock is held by another process; no lock taken.
pub(super) fn hold(checkout: &Path, owned: bool) -> Result<Option<Held>> {
    let wt = crate::git::repo::open_worktree(checkout)?;
    let index_path = wt.index_path();
    let Ok(lock) = gix::lock::File::acquire_to_update_resource(
        &index_path,
        gix::lock::acquire::Fail::Immediately,
        None,
        0,
    ) else {
        return Ok(None);
    };
    let lock_path = lock.lock_path().to_path_buf();
    crate::signals::track_temp(&lock_path);
    let owner = owned.then(|| claim(wt.git_dir(), &lock_path)).flatten();
    Ok(Some(Held {
        wt,
        checkout: checkout.to_path_buf(),
        index_path,
        lock,
        _tracked: Tracked(lock_path),
        owner,
    }))
}

impl Held {
    /// The checkout whose index is held.
    pub(super) fn checkout(&self) -> &Path {
        &self.checkout
    }

    /// A copy of the held index, its modification time too (git judges an
    /// entry racy by comparing its file's time with the index's, and the
    /// copy must read as the index does), for git to write
    /// (`GIT_INDEX_FILE`) while this process holds the index
    /// ([`super::read_tree::write_held`]). Removed when dropped.
    pub(super) fn copy_index(&self) -> Result<IndexCopy> {
        let path = self.wt.git_dir().join(INDEX_COPY);
        crate::signals::track_temp(&path);
        let copy = IndexCopy(path);
        let copied = std::fs::copy(&self.index_path, copy.path())
            .and_then(|_| std::fs::metadata(&self.index_path)?.modified())
            .and_then(|modified| {
                let file = std::fs::OpenOptions::new().write(true).open(copy.path())?;
                file.set_modified(modified)
            });
        copied.map_err(|e| Error::io("could not copy", &self.index_path, e))?;
        Ok(copy)
    }

    /// The index held replaced by the `copy` git wrote: its bytes and its
    /// modification time written into the lock file, which is then
    /// committed as git commits its lock. The lock file stays the one the
    /// marker names throughout, so a kill part way leaves a lock the next
    /// sync recognises as its own, and the index as it was.
    pub(super) fn replace_with(self, copy: IndexCopy) -> Result<()> {
        use std::io::Write;
        let Held {
            mut lock, owner, ..
        } = self;
        let written = copy.path();
        let failed = |e: std::io::Error| Error::io("could not put in place", written, e);
        let bytes = std::fs::read(written).map_err(failed)?;
        let modified = std::fs::metadata(written)
            .and_then(|m| m.modified())
            .map_err(failed)?;
        lock.with_mut(|file| {
            file.write_all(&bytes)?;
            file.set_modified(modified)
        })
        .map_err(failed)?;
        lock.commit()
            .map_err(|e| Error::Repository(format!("could not write the index: {}", e.error)))?;
        drop(owner);
        Ok(())
    }
}

/// The copy of a held index git writes ([`Held::copy_index`]), in the
/// worktree's git directory; a killed sync may leave it (the next one
/// writes over it, or removes it with the lock it left).
pub const INDEX_COPY: &str = "loop-sync-index.copy";

/// A copy of a held index ([`Held::copy_index`]), removed when dropped.
pub(super) struct IndexCopy(std::path::PathBuf);

impl IndexCopy {
    pub(super) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for IndexCopy {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
        crate::signals::untrack_temp(&self.0);
    }
}

/// [`two_way`] with the index already held ([`hold`]): done, or unsure
/// with the index still held, or the lock gone with nothing changed.
pub(super) fn two_way_held(
    repo: &Repo,
    branch: &str,
    (old, new): (ObjectId, ObjectId),
    kept: Option<&str>,
    held: Held,
) -> Result<Followed> {
    let Some((permit, index, steps)) = plan(repo, &held, branch, (old, new), kept)? else {
        return Ok(Followed::Unsure(Box::new(held)));
    };
    let Held {
        wt,
        checkout,
        lock,
        _tracked,
        owner,
        ..
    } = held;
    // The lock file is gone (committed or removed) before `_tracked` lets
    // go of its path and `owner` of its marker.
    let outcome = safety::exec::update_checkout(
        &permit,
        repo.gix(),
        &wt,
        (&checkout, old, new),
        index,
        lock,
        &steps,
    );
    drop(owner);
    Ok(if outcome? {
        Followed::Done
    } else {
        Followed::Released
    })
}

/// Under the index lock: the configuration and the index read again, the
/// plain case checked, the kernel asked. `None`: unsure.
fn plan(
    repo: &Repo,
    held: &Held,
    branch: &str,
    (old, new): (ObjectId, ObjectId),
    kept: Option<&str>,
) -> Result<
    Option<(
        safety::Permit,
        gix::index::File,
        Vec<safety::checkout::Step>,
    )>,
> {
    let wt = &held.wt;
    if !plain_config(wt) {
        return Ok(None);
    }
    // Its checksum not verified, as git reads it (see `read_index`).
    let options = gix::index::decode::Options::default();
    let Ok(index) = gix::index::File::at(&held.index_path, wt.object_hash(), true, options) else {
        return Ok(None);
    };
    if !plain_index(&index) {
        return Ok(None);
    }
    let Some((permit, steps)) =
        safety::checkout::permit(repo.gix(), &held.checkout, &index, branch, (old, new), kept)?
    else {
        return Ok(None);
    };
    if attributed(wt, &index, &steps)? {
        return Ok(None);
    }
    Ok(Some((permit, index, steps)))
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
