//! A clean worktree proved by one walk of its directories, without the
//! status pass: the common case of [`super::cleanliness`] (a run's worktree
//! right after its last commit), in a fraction of the pass's time.
//!
//! [`certainly_clean`] says `true` only when git would say clean without
//! reading a file, judged more strictly than git judges it; anything else is
//! *unsure*, and the status pass decides, as before:
//! - the index: not sparse, not split, not case-insensitive; every entry at
//!   stage 0, a file, an executable or a symlink (no submodule), with no
//!   flag (skip-worktree, intent-to-add, assume-unchanged);
//! - the index against `HEAD`: `HEAD`'s tree, read object by object, holds
//!   exactly the index's paths, modes and blobs, in the index's order (this
//!   is `git diff --cached` finding nothing; git's cache-tree is not
//!   trusted for it; [`super::head`]);
//! - the files against the index: every tracked path is there, of its type
//!   and executable bit, and its `lstat` (made relative to its directory,
//!   `fstatat`, not by its whole path) equals the entry's cached stat in
//!   every field (see [`super::super::stat_matches`]). An entry that is
//!   racy (its cached mtime not before the index was written, to the
//!   nanosecond: a change in the same tick would not show in the stat) is
//!   read, and must hash to its blob, as git reads it (the bytes as they
//!   are, no filter: equal bytes are the committed content itself);
//! - nothing untracked: every name in a directory that holds tracked files
//!   is tracked, a directory of tracked files, `.git` at the top, or
//!   ignored (an ignored directory is not entered, as git does not). An
//!   untracked name that is not ignored, even an empty directory, is
//!   unsure: the pass says whether it counts.

use std::ops::Range;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::PermissionsExt;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use gix::index::entry::{Flags, Mode, Stage};

/// `true`: the worktree at `root` (whose index is `index`, of `repo`) is
/// certainly clean, nothing modified, staged or untracked; `false`: unsure
/// (see the module doc).
pub(super) fn certainly_clean(
    repo: &gix::Repository,
    root: &Path,
    index: &gix::index::File,
) -> bool {
    if !plain(repo, root, index) {
        return false;
    }
    let head = crate::git::refs::head_tree(repo);
    if !super::head::index_is_tree(repo, head, index) {
        return false;
    }
    walk(repo, root, index)
}

/// Nothing in the index or the repository that the walk does not judge.
fn plain(repo: &gix::Repository, root: &Path, index: &gix::index::File) -> bool {
    let config = repo.config_snapshot();
    if config.boolean("core.ignoreCase").unwrap_or(false) || super::super::case_insensitive(root) {
        return false;
    }
    if index.is_sparse() || index.link().is_some() {
        return false;
    }
    let flagged = Flags::SKIP_WORKTREE | Flags::INTENT_TO_ADD | Flags::ASSUME_VALID;
    index.entries().iter().all(|e| {
        e.stage() == Stage::Unconflicted
            && !e.flags.intersects(flagged)
            && matches!(e.mode, Mode::FILE | Mode::FILE_EXECUTABLE | Mode::SYMLINK)
    })
}

/// What every thread of the walk reads: the index (its entries sorted by
/// path, as [`super::head::index_is_tree`] proved: a directory's entries
/// are one run of them), and when it was written (an entry cached at or
/// after is racy).
struct Tracked<'a> {
    index: &'a gix::index::File,
    stamp: (i64, u32),
    hash: gix::hash::Kind,
}

/// A directory to read: where it is, its path in the worktree (empty at
/// the top), and its run of the index's entries.
type Dir = (PathBuf, Vec<u8>, Range<usize>);

/// The walk's shared state: whether a name already said "unsure", the
/// tracked files found as cached, and the untracked names (judged against
/// the ignore rules afterwards, on one thread).
#[derive(Default)]
struct Work {
    unsure: AtomicBool,
    seen: AtomicUsize,
    untracked: Mutex<Vec<(Vec<u8>, bool)>>,
}

/// Every directory of tracked files under `root` read (on as many threads
/// as the machine has cores, up to four: the stats are most of the time,
/// as in git's preloaded index), and the untracked names ignored.
fn walk(repo: &gix::Repository, root: &Path, index: &gix::index::File) -> bool {
    let tracked = Tracked {
        index,
        stamp: (
            index.timestamp().unix_seconds(),
            index.timestamp().nanoseconds(),
        ),
        hash: repo.object_hash(),
    };
    let work = Work::default();
    let top = (root.to_path_buf(), Vec::new(), 0..index.entries().len());
    crate::fanout::drain(vec![top], crate::fanout::cores().min(4), |dir, subdirs| {
        work.read(&tracked, dir, subdirs);
    });
    if work.unsure.load(Ordering::SeqCst)
        || work.seen.load(Ordering::SeqCst) != index.entries().len()
    {
        return false;
    }
    let untracked = work.untracked.into_inner().expect("not poisoned");
    if untracked.is_empty() {
        return true;
    }
    let Ok(mut excludes) = repo.excludes(
        index,
        None,
        gix::worktree::stack::state::ignore::Source::WorktreeThenIdMappingIfNotSkipped,
    ) else {
        return false;
    };
    untracked.iter().all(|(path, is_dir)| {
        let Ok(rel) = gix::path::from_byte_slice(path) else {
            return false;
        };
        let mode = if *is_dir { Mode::DIR } else { Mode::FILE };
        excludes
            .at_path(rel, Some(mode))
            .is_ok_and(|platform| platform.is_excluded())
    })
}

/// A tracked name in a directory: a file (its entry), or a directory of
/// tracked files (its run of the entries).
enum Child<'a> {
    File(&'a gix::index::Entry),
    Dir(Range<usize>),
}

/// The tracked names of the directory whose entries are `range` of
/// `index`'s (each path starting with the directory's, `prefix` bytes
/// long with its `/`), sorted by name; `None` when a name comes twice
/// (an index not sorted as `head::index_is_tree` proved: unsure).
fn children(
    index: &gix::index::File,
    range: Range<usize>,
    prefix: usize,
) -> Option<Vec<(&[u8], Child<'_>)>> {
    let entries = index.entries();
    let mut out = Vec::new();
    let mut at = range.start;
    while at < range.end {
        let path: &[u8] = entries[at].path(index);
        let rest = path.get(prefix..)?;
        let Some(slash) = rest.iter().position(|&b| b == b'/') else {
            out.push((rest, Child::File(&entries[at])));
            at += 1;
            continue;
        };
        // The directory's entries: those after, under the same `name/`.
        let under = &path[..prefix + slash + 1];
        let start = at;
        at += 1;
        while at < range.end && entries[at].path(index).starts_with(under) {
            at += 1;
        }
        out.push((&rest[..slash], Child::Dir(start..at)));
    }
    out.sort_unstable_by(|a, b| a.0.cmp(b.0));
    out.windows(2).all(|w| w[0].0 != w[1].0).then_some(out)
}

impl Work {
    /// One directory taken from the walk's stack (none once a name said
    /// unsure: the rest are dropped unread); a reading that panicked is
    /// unsure.
    fn read(&self, tracked: &Tracked<'_>, (abs, rel, range): Dir, subdirs: &mut Vec<Dir>) {
        if self.unsure.load(Ordering::SeqCst) {
            return;
        }
        let read = std::panic::catch_unwind(AssertUnwindSafe(|| {
            self.dir(tracked, &abs, &rel, range, subdirs)
        }));
        if !matches!(read, Ok(true)) {
            subdirs.clear();
            self.unsure.store(true, Ordering::SeqCst);
        }
    }

    /// The directory `abs` (`rel` in the worktree, empty at the top; its
    /// entries `range`): every name in it as the module doc says; `false`
    /// at the first that is not. Its directories of tracked files go to
    /// `subdirs`, to queue.
    fn dir(
        &self,
        tracked: &Tracked<'_>,
        abs: &Path,
        rel: &[u8],
        range: Range<usize>,
        subdirs: &mut Vec<Dir>,
    ) -> bool {
        let Ok(names) = std::fs::read_dir(abs) else {
            return false;
        };
        // Each name's path in the worktree, built in one buffer.
        let mut path = rel.to_vec();
        if !rel.is_empty() {
            path.push(b'/');
        }
        let prefix = path.len();
        let Some(children) = children(tracked.index, range, prefix) else {
            return false;
        };
        let files = children
            .iter()
            .filter(|(_, c)| matches!(c, Child::File(_)))
            .count();
        let mut seen = 0;
        let mut untracked = Vec::new();
        for item in names {
            let Ok(item) = item else {
                return false;
            };
            let name = item.file_name();
            let name = name.as_bytes();
            path.truncate(prefix);
            path.extend_from_slice(name);
            let Ok(kind) = item.file_type() else {
                return false;
            };
            if name == b".git" {
                // The worktree's own `.git` (a file in a linked worktree);
                // one further down is a repository of its own: unsure.
                if rel.is_empty() {
                    continue;
                }
                return false;
            }
            let child = children
                .binary_search_by(|(tracked, _)| (*tracked).cmp(name))
                .ok()
                .map(|at| &children[at].1);
            match child {
                Some(Child::File(entry)) => {
                    if !unchanged(tracked, &item, entry) {
                        return false;
                    }
                    seen += 1;
                }
                Some(Child::Dir(range)) => {
                    if !kind.is_dir() {
                        return false;
                    }
                    subdirs.push((item.path(), path.clone(), range.clone()));
                }
                None => untracked.push((path.clone(), kind.is_dir())),
            }
        }
        if seen != files {
            // A tracked file is not there.
            return false;
        }
        self.seen.fetch_add(seen, Ordering::SeqCst);
        if !untracked.is_empty() {
            self.untracked
                .lock()
                .expect("not poisoned")
                .append(&mut untracked);
        }
        true
    }
}

/// The tracked file `item` is as its index `entry` says: its stat as
/// cached and, when that is racy, its blob.
fn unchanged(tracked: &Tracked<'_>, item: &std::fs::DirEntry, entry: &gix::index::Entry) -> bool {
    // `fstatat` on the directory's descriptor, by name.
    let Ok(meta) = item.metadata() else {
        return false;
    };
    if !as_cached(entry, &meta) {
        return false;
    }
    let cached = (i64::from(entry.stat.mtime.secs), entry.stat.mtime.nsecs);
    cached < tracked.stamp || holds_blob(tracked.hash, &item.path(), entry)
}

/// The racy entry's file (or symlink) at `abs` holds its blob, byte for
/// byte.
fn holds_blob(hash: gix::hash::Kind, abs: &Path, entry: &gix::index::Entry) -> bool {
    let bytes = if entry.mode == Mode::SYMLINK {
        std::fs::read_link(abs).map(|target| target.into_os_string().into_vec())
    } else {
        std::fs::read(abs)
    };
    let Ok(bytes) = bytes else {
        return false;
    };
    gix::objs::compute_hash(hash, gix::objs::Kind::Blob, &bytes).is_ok_and(|id| id == entry.id)
}

/// The file is of the entry's type (and executable bit) and its stat is
/// the entry's cached one.
fn as_cached(entry: &gix::index::Entry, meta: &std::fs::Metadata) -> bool {
    let kind = meta.file_type();
    let typed = match entry.mode {
        Mode::SYMLINK => kind.is_symlink(),
        Mode::FILE_EXECUTABLE => kind.is_file() && meta.permissions().mode() & 0o100 != 0,
        Mode::FILE => kind.is_file() && meta.permissions().mode() & 0o100 == 0,
        _ => false,
    };
    typed && super::super::stat_matches(&entry.stat, meta)
}
