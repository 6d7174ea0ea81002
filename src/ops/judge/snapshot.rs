//! What `git status` would see of an attempt's worktree, read with gix, so
//! `judge` can tell whether the gate changed it (it may: that is reported
//! as `wroteToWorktree`, never undone).
//!
//! A [`Snapshot`] is: the commit its `HEAD` names; the bytes of its index
//! file (a gate that stages, or a `git status` that refreshes the index,
//! changes them); for every file the index tracks, its `lstat` (size, mode,
//! inode, mtime to the nanosecond), or that it is missing; and the same for
//! every untracked file that is not ignored, each listed by itself. Ignored
//! files are not part of it (`__pycache__/`, `target/`: what a test run
//! leaves where the repository said it may), as `git status` does not show
//! them. Two snapshots that are equal mean `git status --porcelain=v2`,
//! the index and the tracked files' mtimes are as they were; a file
//! rewritten with the same bytes counts as a change (its mtime moved).

use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use gix::bstr::BString;

use crate::error::{Error, Result};

fn repo_err(e: impl std::fmt::Display) -> Error {
    Error::Repository(e.to_string())
}

/// One file's `lstat`, as far as a change would show in it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stat {
    size: u64,
    mode: u32,
    ino: u64,
    mtime: (i64, i64),
}

/// An attempt's worktree as `git status` sees it (see the module doc).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    head: Option<gix::ObjectId>,
    index: Vec<u8>,
    /// Tracked and untracked (not ignored) files; `None`: tracked, missing.
    files: BTreeMap<BString, Option<Stat>>,
    /// Tracked changes, staged or not, or untracked files.
    pub dirty: bool,
}

/// Read the snapshot of the worktree at `dir`.
pub fn take(dir: &Path) -> Result<Snapshot> {
    let repo = crate::git::repo::open_worktree(dir)?;
    let head = (crate::git::refs::head(&repo).ok()).and_then(|v| crate::git::refs::peel(&repo, &v));
    let index_path = repo.index_path();
    let index_bytes = match std::fs::read(&index_path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(Error::io("could not read", index_path, e)),
    };
    let index = repo.index_or_empty().map_err(repo_err)?;
    let mut files = BTreeMap::new();
    for entry in index.entries() {
        let rel: BString = entry.path(&index).to_owned();
        files.insert(rel.clone(), stat(dir, &rel));
    }
    let untracked = untracked(&repo, &index)?;
    let dirty = !untracked.is_empty() || crate::git::repo::tracked_changes(&repo)?;
    for rel in untracked {
        let st = stat(dir, &rel);
        files.insert(rel, st);
    }
    Ok(Snapshot {
        head,
        index: index_bytes,
        files,
        dirty,
    })
}

fn stat(dir: &Path, rel: &BString) -> Option<Stat> {
    let rel = gix::path::from_bstr(gix::bstr::BStr::new(rel.as_slice())).ok()?;
    let meta = std::fs::symlink_metadata(dir.join(rel)).ok()?;
    Some(Stat {
        size: meta.len(),
        mode: meta.mode(),
        ino: meta.ino(),
        mtime: (meta.mtime(), meta.mtime_nsec()),
    })
}

/// The untracked files git does not ignore, each by itself.
fn untracked(repo: &gix::Repository, index: &gix::index::State) -> Result<Vec<BString>> {
    let options = repo
        .dirwalk_options()
        .map_err(repo_err)?
        .emit_untracked(gix::dir::walk::EmissionMode::Matching)
        .emit_ignored(None)
        .emit_tracked(false)
        .emit_pruned(false);
    let mut collect = gix::dir::walk::delegate::Collect::default();
    let none: [&gix::bstr::BStr; 0] = [];
    repo.dirwalk(
        index,
        none,
        &std::sync::atomic::AtomicBool::new(false),
        options,
        &mut collect,
    )
    .map_err(repo_err)?;
    let mut out: Vec<BString> = collect
        .unorded_entries
        .into_iter()
        .filter(|(e, _)| e.status == gix::dir::entry::Status::Untracked)
        .map(|(e, _)| e.rela_path)
        .collect();
    out.sort();
    Ok(out)
}
