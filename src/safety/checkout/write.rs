//! The checkout's files and index moved from `old` to `new`, in-process,
//! under the index lock: what `git read-tree -m -u old new` writes, for the
//! paths [`super::clean::plan`] proved, and nothing else. Called only
//! through [`crate::safety::exec::update_checkout`], with the kernel's
//! permit ([`super::permit`]).
//!
//! The order, and why:
//! 1. **staged**: each new file's content is written to a temporary file in
//!    the checkout's git directory (never among the user's files), with
//!    mode `0666` or `0777` less the umask, as git creates them. The file
//!    is made unnamed (`O_TMPFILE`) in the directory it goes to and then
//!    linked into the git directory, so the filesystem places its inode
//!    where it places a file git writes there (a plain temporary file
//!    where it cannot). A failure here changes nothing.
//! 2. **the files**, while a signal waits ([`crate::signals::RollbackWindow`]:
//!    Ctrl-C lands after the index, never between two files): the deleted
//!    paths are unlinked (and the directories they leave empty removed, as
//!    git does), then each staged file is renamed over its path (the
//!    directories it needs made). Each file's stat is read from its open
//!    handle after the rename, as git reads it after writing.
//! 3. **the index**: the changed entries replaced, added or removed; the
//!    cache-tree (`TREE`) invalidated along every changed path (gix writes
//!    it as it is: a stale one would make the next `git commit` record old
//!    trees); every racy entry — its mtime not before the index read, as
//!    git judges it — whose file no longer holds its blob is *smudged* (its
//!    cached size zeroed), as git does when it writes an index, so a change
//!    made in the same tick as the old index is not hidden by the new one.
//!    Then `index.lock` is written and renamed over `index`.
//!
//! A failure in 2 or 3 puts every file back as it was (`old`'s blob, its
//! mode; what was added, removed) and the lock goes: nothing changed, and
//! the caller asks git (which refuses on what is in its way). When even
//! that fails, the error says which paths are left at what.
//!
//! Crash point: `land-after-files` (the files at `new`, the index not yet
//! written, `index.lock` left as a killed git leaves it).

use std::io::Write;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::bstr::{BStr, ByteSlice};
use gix::index::entry::{Flags, Mode, Stage, Stat};

use super::Step;
use crate::error::{Error, Result};

/// A staged file: its temporary path (until it is renamed into place) and
/// its open handle.
struct Staged {
    temp: Option<PathBuf>,
    file: std::fs::File,
}

/// What step 2 did, to undo it.
enum Done {
    /// The file at the path (holding `old`'s blob, executable or not) was
    /// unlinked, or written over.
    Replaced(PathBuf, (ObjectId, bool)),
    /// The file at the path was added.
    Added(PathBuf),
    /// This directory was made.
    Made(PathBuf),
}

/// The staged files, by step (`None` for a deletion); the temporary files
/// not renamed into place are removed when dropped.
struct Temps(Vec<Option<Staged>>);

impl Drop for Temps {
    fn drop(&mut self) {
        for temp in self.0.iter().flatten().filter_map(|s| s.temp.as_ref()) {
            let _ = std::fs::remove_file(temp);
            crate::signals::untrack_temp(temp);
        }
    }
}

/// Move `checkout` (its repository `wt`, its index `index` read under
/// `lock`) from `old` to `new` along `steps`, reading blobs from `repo`.
/// `Ok(true)`: done; `Ok(false)`: nothing changed, ask git; `Err`: left
/// partly updated, the error says how.
pub(crate) fn update(
    permit: &super::super::Permit,
    repo: &gix::Repository,
    wt: &gix::Repository,
    checkout: &Path,
    mut index: gix::index::File,
    lock: gix::lock::File,
    steps: &[Step],
) -> Result<bool> {
    // Only the kernel's permit for this checkout opens it (checked by
    // `exec::update_checkout`, the one caller; a type-level token here).
    let _ = permit;
    let Some(mut temps) = stage(repo, wt.git_dir(), checkout, steps) else {
        return Ok(false);
    };
    let window = crate::signals::RollbackWindow::open(|| {});
    window.enter();
    let mut done = Vec::new();
    let written = files(checkout, steps, &mut temps, &mut done)
        .and_then(|stats| entries(&mut index, steps, &stats, checkout, repo.object_hash()))
        .and_then(|()| {
            crate::crash::point("land-after-files");
            commit(&index, lock)
        });
    let outcome = match written {
        Ok(()) => Ok(true),
        Err(e) => restore(repo, &done, &e).map(|()| false),
    };
    drop(temps);
    window.leave();
    outcome
}

/// Step 1: every new file's content in a temporary file beside the index,
/// on the filesystem of its destination. `None`: it could not be (nothing
/// is left behind).
fn stage(repo: &gix::Repository, git_dir: &Path, checkout: &Path, steps: &[Step]) -> Option<Temps> {
    let mut temps = Temps(Vec::new());
    let dev = git_dir.symlink_metadata().ok()?.dev();
    for (n, step) in steps.iter().enumerate() {
        let Some((id, executable)) = step.is else {
            temps.0.push(None);
            continue;
        };
        let dest = checkout.join(gix::path::from_bstr(step.path.as_bstr()).ok()?);
        let (near, meta) = nearest_dir(&dest)?;
        if meta.dev() != dev {
            return None;
        }
        let blob = repo.find_blob(id).ok()?;
        let temp = git_dir.join(format!("loop-land-{}-{n}.tmp", std::process::id()));
        crate::signals::track_temp(&temp);
        let mode = if executable { 0o777 } else { 0o666 };
        let file = unnamed_then_linked(&near, &temp, mode, &blob.data)
            .or_else(|| named(&temp, mode, &blob.data));
        let Some(file) = file else {
            crate::signals::untrack_temp(&temp);
            return None;
        };
        temps.0.push(Some(Staged {
            temp: Some(temp),
            file,
        }));
    }
    Some(temps)
}

/// A file made unnamed (`O_TMPFILE`) in `dir`, the directory it goes to
/// (or the nearest one above it that exists), with `mode` less the umask,
/// holding `data`, then linked at `temp`. Its inode is the filesystem's to
/// place near `dir`, as for a file git writes there; made in the git
/// directory instead, every written file's inode would crowd that
/// directory's block group, which ext4 without a journal searches past
/// each recently deleted inode to allocate the next. Nothing is left
/// behind if it stops before the link. `None` when the filesystem or the
/// kernel cannot (then [`named`]).
fn unnamed_then_linked(dir: &Path, temp: &Path, mode: u32, data: &[u8]) -> Option<std::fs::File> {
    use rustix::fs::{AtFlags, CWD, linkat};
    use std::os::fd::AsRawFd;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(rustix::fs::OFlags::TMPFILE.bits() as i32)
        .mode(mode)
        .open(dir)
        .ok()?;
    file.write_all(data).ok()?;
    // Linked by descriptor where allowed, else through `/proc`.
    let by_fd = linkat(&file, "", CWD, temp, AtFlags::EMPTY_PATH);
    let linked = by_fd.or_else(|_| {
        let proc = format!("/proc/self/fd/{}", file.as_raw_fd());
        linkat(CWD, proc.as_str(), CWD, temp, AtFlags::SYMLINK_FOLLOW)
    });
    linked.ok().map(|()| file)
}

/// A file made at `temp` (which must not exist), with `mode` less the
/// umask, holding `data`.
fn named(temp: &Path, mode: u32, data: &[u8]) -> Option<std::fs::File> {
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .open(temp)
        .ok()?;
    if file.write_all(data).is_err() {
        drop(file);
        let _ = std::fs::remove_file(temp);
        return None;
    }
    Some(file)
}

/// The nearest existing directory at or above `path`'s parent, and its
/// metadata.
fn nearest_dir(path: &Path) -> Option<(PathBuf, std::fs::Metadata)> {
    let mut dir = path.parent();
    while let Some(d) = dir {
        if let Ok(meta) = d.symlink_metadata() {
            return meta.is_dir().then(|| (d.to_path_buf(), meta));
        }
        dir = d.parent();
    }
    None
}

/// Step 2: deletions, then each staged file renamed into place; the stat of
/// each written file, by step (`None` for a deletion).
fn files(
    checkout: &Path,
    steps: &[Step],
    temps: &mut Temps,
    done: &mut Vec<Done>,
) -> std::io::Result<Vec<Option<Stat>>> {
    let path = |step: &Step| -> std::io::Result<PathBuf> {
        let rel = gix::path::from_bstr(step.path.as_bstr()).map_err(std::io::Error::other)?;
        Ok(checkout.join(rel))
    };
    for step in steps.iter().filter(|s| s.is.is_none()) {
        let (abs, was) = (path(step)?, step.was.expect("a deletion had a file"));
        crate::crash::fail_point("land-checkout-delete")?;
        std::fs::remove_file(&abs)?;
        done.push(Done::Replaced(abs.clone(), was));
        let mut dir = abs.parent();
        while let Some(d) = dir.filter(|d| *d != checkout) {
            if std::fs::remove_dir(d).is_err() {
                break;
            }
            dir = d.parent();
        }
    }
    let mut stats = vec![None; steps.len()];
    for (n, step) in steps.iter().enumerate() {
        if step.is.is_none() {
            continue;
        }
        let abs = path(step)?;
        if let Some(parent) = abs.parent() {
            make_dirs(parent, checkout, done)?;
        }
        crate::crash::fail_point("land-checkout-write")?;
        let staged = temps.0[n].as_mut().expect("a written path was staged");
        let temp = staged.temp.take().expect("staged once");
        if let Err(e) = std::fs::rename(&temp, &abs) {
            staged.temp = Some(temp);
            return Err(e);
        }
        crate::signals::untrack_temp(&temp);
        done.push(match step.was {
            Some(was) => Done::Replaced(abs, was),
            None => Done::Added(abs),
        });
        let meta = gix::index::fs::Metadata::from_file(&staged.file)?;
        stats[n] = Some(Stat::from_fs(&meta).map_err(std::io::Error::other)?);
    }
    Ok(stats)
}

/// `dir` and the directories above it, up to `checkout`, made where
/// missing (recorded, to be removed again by [`restore`]).
fn make_dirs(dir: &Path, checkout: &Path, done: &mut Vec<Done>) -> std::io::Result<()> {
    if dir == checkout || dir.symlink_metadata().is_ok_and(|m| m.is_dir()) {
        return Ok(());
    }
    if let Some(parent) = dir.parent() {
        make_dirs(parent, checkout, done)?;
    }
    std::fs::create_dir(dir)?;
    done.push(Done::Made(dir.to_path_buf()));
    Ok(())
}

/// Step 3, in memory: the entries of the changed paths, the cache-tree
/// invalidated along them, racy entries smudged.
fn entries(
    index: &mut gix::index::File,
    steps: &[Step],
    stats: &[Option<Stat>],
    checkout: &Path,
    hash: gix::hash::Kind,
) -> std::io::Result<()> {
    let stamp = index.timestamp();
    let stamp = (stamp.unix_seconds(), stamp.nanoseconds());
    // Entries pushed go after the sorted ones until the sort at the end:
    // lookups stay below them.
    let sorted = index.entries().len();
    let mut pushed = false;
    for (step, stat) in steps.iter().zip(stats) {
        let path = step.path.as_bstr();
        if let (Some((id, executable)), Some(stat)) = (step.is, stat) {
            let mode = if executable {
                Mode::FILE_EXECUTABLE
            } else {
                Mode::FILE
            };
            match index.entry_index_by_path_and_stage_bounded(path, Stage::Unconflicted, sorted) {
                Some(i) => {
                    let entry = &mut index.entries_mut()[i];
                    (entry.id, entry.mode, entry.stat) = (id, mode, *stat);
                }
                None => {
                    index.dangerously_push_entry(*stat, id, Flags::empty(), mode, path);
                    pushed = true;
                }
            }
        }
        if let Some(tree) = index.tree_mut() {
            invalidate(tree, path);
        }
    }
    let gone: std::collections::HashSet<&BStr> = steps
        .iter()
        .filter(|s| s.is.is_none())
        .map(|s| s.path.as_bstr())
        .collect();
    if !gone.is_empty() {
        index.remove_entries(|_, path, _| gone.contains(path));
    }
    // Not `len() > sorted`: the removals above may have taken back as
    // many entries as were pushed.
    if pushed {
        index.sort_entries();
    }
    smudge_racy(index, stamp, checkout, hash);
    Ok(())
}

/// The cache-tree's root and every directory on the way to `path`
/// marked invalid (git's `cache_tree_invalidate_path`).
fn invalidate(tree: &mut gix::index::extension::Tree, path: &BStr) {
    tree.num_entries = None;
    let Some(slash) = path.find_byte(b'/') else {
        return;
    };
    let (dir, rest) = (&path[..slash], &path[slash + 1..]);
    if let Some(child) = tree.children.iter_mut().find(|c| c.name.as_slice() == dir) {
        invalidate(child, rest.as_bstr());
    }
}

/// git's `ce_smudge_racily_clean_entry`, for every entry: one whose mtime
/// is not before `stamp` (the index as it was read) and whose file does
/// not hold its blob (or cannot be read) gets a cached size of 0, so git
/// compares its content instead of trusting its stat.
fn smudge_racy(
    index: &mut gix::index::File,
    stamp: (i64, u32),
    checkout: &Path,
    hash: gix::hash::Kind,
) {
    for (entry, path) in index.entries_mut_with_paths() {
        let m = entry.stat.mtime;
        if (i64::from(m.secs), m.nsecs) < stamp || entry.mode == Mode::COMMIT {
            continue;
        }
        if entry.mode == Mode::SYMLINK {
            entry.stat.size = 0;
            continue;
        }
        let holds = gix::path::from_bstr(path)
            .ok()
            .and_then(|rel| std::fs::read(checkout.join(rel)).ok())
            .is_some_and(|bytes| {
                gix::objs::compute_hash(hash, gix::objs::Kind::Blob, &bytes)
                    .is_ok_and(|id| id == entry.id)
            });
        if !holds {
            entry.stat.size = 0;
        }
    }
}

/// The index written to `lock` and renamed over the index.
fn commit(index: &gix::index::File, lock: gix::lock::File) -> std::io::Result<()> {
    crate::crash::fail_point("land-checkout-index")?;
    // Serialized, then hashed in one pass (`File::write_to` hashes field by
    // field); the same bytes: the trailer is the SHA-1 of all before it.
    let mut bytes = Vec::with_capacity(index.entries().len() * 96 + 1024);
    gix::index::State::write_to(index, &mut bytes, gix::index::write::Options::default())
        .map_err(std::io::Error::other)?;
    let mut hasher = gix::hash::hasher(index.object_hash());
    hasher.update(&bytes);
    let checksum = hasher.try_finalize().map_err(std::io::Error::other)?;
    bytes.extend_from_slice(checksum.as_slice());
    let mut lock = lock;
    std::io::Write::write_all(&mut lock, &bytes)?;
    let lock_path = lock.lock_path().to_path_buf();
    lock.commit().map_err(|e| e.error)?;
    crate::signals::untrack_temp(&lock_path);
    Ok(())
}

/// Every file step 2 changed put back as it was, newest first. `Err`: some
/// could not be, named with what stopped the update.
fn restore(repo: &gix::Repository, done: &[Done], why: &std::io::Error) -> Result<()> {
    let mut left = Vec::new();
    for step in done.iter().rev() {
        let back = match step {
            Done::Added(abs) => std::fs::remove_file(abs),
            Done::Made(dir) => std::fs::remove_dir(dir),
            Done::Replaced(abs, (id, executable)) => rewrite(repo, abs, *id, *executable),
        };
        if let Err(e) = back {
            let what = match step {
                Done::Added(p) | Done::Made(p) | Done::Replaced(p, _) => p,
            };
            left.push(format!("{} ({e})", what.display()));
        }
    }
    if left.is_empty() {
        return Ok(());
    }
    Err(Error::PartWay(format!(
        "updating the checkout failed ({why}) and these paths could not be put back as they \
         were: {}; `git status` there shows them",
        left.join(", ")
    )))
}

/// `abs` written anew with the blob `id` (git's mode for it), where the
/// update had written over or deleted it.
fn rewrite(
    repo: &gix::Repository,
    abs: &Path,
    id: ObjectId,
    executable: bool,
) -> std::io::Result<()> {
    let blob = repo.find_blob(id).map_err(std::io::Error::other)?;
    match std::fs::remove_file(abs) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    if let Some(parent) = abs.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(if executable { 0o777 } else { 0o666 })
        .open(abs)?
        .write_all(&blob.data)
}
