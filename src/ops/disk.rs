//! How much disk each run's worktree takes (`git loop list --disk`), and how
//! much of it is its own. Read-only: nothing is opened for writing, no lock
//! is taken.
//!
//! **On disk** (`diskBytes`) is what `du -s` counts: the allocated blocks
//! (`st_blocks` × 512) of every regular file, directory and symlink (the
//! link itself) below the worktree's directory, each inode once (hard
//! links inside the worktree are counted once). Nothing is skipped: ignored
//! files (`node_modules`, `target/`) and a nested repository's or
//! submodule's `.git` count. The walk never follows a symlink (a link to
//! outside the worktree costs its own few bytes, never its target's) and
//! never leaves the worktree's filesystem (a mount inside it is not
//! counted, as `du -x`).
//!
//! **Unique** (`uniqueBytes`) is what removing the worktree would give
//! back: its blocks less the extents the filesystem flags shared
//! (`FIEMAP_EXTENT_SHARED`), which a reflink copy (`cp --reflink`,
//! `create.copy`'s copy-on-write copies) shares with the main checkout, the
//! pool or another worktree, and which stay allocated while any other user
//! holds them. Only filesystems that share extents are asked (XFS, btrfs,
//! bcachefs, ZFS, …: one `FS_IOC_FIEMAP` per file that has blocks); on
//! ext2/3/4 and tmpfs, which never share, unique is the size on disk
//! without a further call, and on a filesystem that cannot say (FIEMAP
//! unsupported) it is the size on disk too: a file is never assumed shared.
//! A file that cannot be opened to ask (no permission) counts as its own.
//!
//! **Speed.** All worktrees are walked at once by one thread per core
//! taking directories from one shared queue (a large worktree is not left
//! to a single thread), with one `statx` (`fstatat`, no symlinks followed)
//! per entry; measured against `du -s` of each worktree in
//! `benches/disk.rs`.

use std::collections::HashSet;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// `list --disk`: the size of the worktree of each run (`(id, present)`),
/// all walked at once; `None` for one whose directory is gone.
pub fn of_runs<'a>(
    ctx: &crate::ctx::Ctx,
    runs: impl Iterator<Item = (&'a str, bool)>,
) -> Vec<Option<Usage>> {
    let (paths, present): (Vec<PathBuf>, Vec<bool>) = runs
        .map(|(id, present)| (ctx.worktree_path(id), present))
        .unzip();
    usages(&paths)
        .into_iter()
        .zip(present)
        .map(|(usage, present)| usage.filter(|_| present))
        .collect()
}

/// What a worktree takes on disk.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    /// Allocated bytes of everything in it (`du -s`).
    pub disk: u64,
    /// Those not shared with another file by reflink.
    pub unique: u64,
}

impl std::ops::AddAssign for Usage {
    fn add_assign(&mut self, other: Usage) {
        self.disk += other.disk;
        self.unique += other.unique;
    }
}

/// Whether the filesystem of `path` can share extents between files, so
/// that FIEMAP is worth asking. ext2/3/4 and tmpfs never share; any other
/// filesystem is asked (one that cannot answer counts all as unique).
fn may_share(path: &Path) -> bool {
    const EXT: i64 = 0xEF53;
    const TMPFS: i64 = 0x0102_1994;
    match rustix::fs::statfs(path) {
        #[allow(clippy::unnecessary_cast)]
        Ok(st) => !matches!(st.f_type as i64, EXT | TMPFS),
        Err(_) => true,
    }
}

/// The bytes of the regular file `path` (`allocated` of them) that the
/// filesystem flags shared with another file, capped at `allocated`.
/// `None`: FIEMAP cannot tell on this filesystem (or for this file).
fn shared_bytes(path: &Path, allocated: u64) -> Option<u64> {
    use std::os::unix::fs::OpenOptionsExt;
    // O_NOFOLLOW: the entry was a regular file a moment ago; if it became a
    // symlink since, nothing is followed. O_NONBLOCK: never wait on a FIFO
    // that took its place.
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .ok()?;
    let mut shared = 0u64;
    for extent in fiemap::Fiemap::new(&file) {
        let extent = extent.ok()?;
        if extent.fe_flags.contains(fiemap::FiemapExtentFlags::SHARED) {
            shared = shared.saturating_add(extent.fe_length);
        }
    }
    Some(shared.min(allocated))
}

/// One directory to read, and the worktree it belongs to.
struct Job {
    root: usize,
    dir: PathBuf,
}

/// What one worktree's walk found so far, and the filesystem it stays on.
struct Root {
    dev: u64,
    share: bool,
    usage: Mutex<Usage>,
    /// (inode) of files with more than one link already counted.
    linked: Mutex<HashSet<u64>>,
}

/// The size on disk of each of `roots` (see the module doc), in their
/// order; `None` for one that is not a directory that can be read.
pub fn usages(roots: &[PathBuf]) -> Vec<Option<Usage>> {
    let mut states = Vec::with_capacity(roots.len());
    let mut jobs = Vec::new();
    for (i, root) in roots.iter().enumerate() {
        let state = std::fs::symlink_metadata(root)
            .ok()
            .filter(|m| m.is_dir())
            .map(|m| Root {
                dev: m.dev(),
                share: may_share(root),
                usage: Mutex::new(Usage {
                    disk: m.blocks() * 512,
                    unique: m.blocks() * 512,
                }),
                linked: Mutex::new(HashSet::new()),
            });
        if state.is_some() {
            jobs.push(Job {
                root: i,
                dir: root.clone(),
            });
        }
        states.push(state);
    }
    crate::fanout::drain(jobs, crate::fanout::cores(), |job, more| {
        let root = states[job.root].as_ref().expect("a job's root was read");
        let (found, subdirs) = read_dir(&job.dir, root);
        more.extend(subdirs.into_iter().map(|dir| Job {
            root: job.root,
            dir,
        }));
        *root.usage.lock().unwrap_or_else(|e| e.into_inner()) += found;
    });
    states
        .into_iter()
        .map(|s| s.map(|s| s.usage.into_inner().unwrap_or_else(|e| e.into_inner())))
        .collect()
}

/// The usage of the entries of `dir` (not `dir` itself), and its
/// subdirectories on the root's filesystem, to be read next.
fn read_dir(dir: &Path, root: &Root) -> (Usage, Vec<PathBuf>) {
    let mut usage = Usage::default();
    let mut subdirs = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return (usage, subdirs);
    };
    for entry in entries.flatten() {
        // `DirEntry::metadata` does not follow a symlink (fstatat with
        // AT_SYMLINK_NOFOLLOW, relative to the open directory).
        let Ok(meta) = entry.metadata() else {
            continue;
        };
        if meta.dev() != root.dev {
            continue;
        }
        let kind = meta.file_type();
        let allocated = meta.blocks() * 512;
        if kind.is_dir() {
            usage.disk += allocated;
            usage.unique += allocated;
            subdirs.push(entry.path());
            continue;
        }
        if meta.nlink() > 1
            && !root
                .linked
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(meta.ino())
        {
            continue;
        }
        usage.disk += allocated;
        let shared = if kind.is_file() && allocated > 0 && root.share {
            shared_bytes(&entry.path(), allocated).unwrap_or(0)
        } else {
            0
        };
        usage.unique += allocated - shared;
    }
    (usage, subdirs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_symlink_to_outside_is_not_followed_and_totals_are_per_root() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("big"), vec![7u8; 1 << 20]).unwrap();
        let a = tempfile::tempdir().unwrap();
        std::fs::create_dir(a.path().join("sub")).unwrap();
        std::fs::write(a.path().join("sub/f"), vec![1u8; 64 * 1024]).unwrap();
        std::os::unix::fs::symlink(outside.path(), a.path().join("out")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("big"), a.path().join("big")).unwrap();
        let got = usages(&[a.path().to_path_buf(), a.path().join("missing")]);
        let usage = got[0].expect("a directory");
        assert!(usage.disk >= 64 * 1024, "{usage:?}");
        assert!(usage.disk < 1 << 20, "a symlink was followed: {usage:?}");
        assert_eq!(got[1], None);
    }
}
