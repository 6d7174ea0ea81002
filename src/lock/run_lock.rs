//! The run lock: an exclusive `flock` held by a removal of one run's worktree
//! and by `mark` of that run (why: [`crate::worktree`]'s doc, "The run lock";
//! its place in the lock order: [`super`]).
//!
//! It is a file in the git common dir, `<common>/git-loop/runs/<id>.lock`,
//! not the worktree directory itself: a mark that arrives while git is
//! deleting the directory must still wait until the removal is over *and
//! logged*, and the directory may already be gone by then. The file exists
//! only while the lock is held: the holder unlinks it before releasing. A
//! waiter that opened the old file checks, once it holds the lock, that the
//! path still names the file it locked, and tries again otherwise — so two
//! processes never both "hold" a lock on different inodes. A file left by a
//! killed process is harmless: the next locker takes it and removes it.

use std::fs::{File, OpenOptions};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::error::{Error, Result};

/// An exclusive lock on one run. Dropping it removes the file and releases it.
#[derive(Debug)]
pub struct RunLock {
    path: PathBuf,
    file: Option<File>,
}

/// How long `mark` (or a removal) waits for the other to finish.
pub const RUN_LOCK_DEADLINE: Duration = Duration::from_secs(60);

fn same_file(file: &File, path: &Path) -> bool {
    match (file.metadata(), std::fs::symlink_metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

impl RunLock {
    /// Lock run `id` of the repository whose git common dir is `common_dir`.
    pub fn acquire(common_dir: &Path, id: &str, deadline: Duration) -> Result<RunLock> {
        let dir = common_dir.join("git-loop").join("runs");
        std::fs::create_dir_all(&dir).map_err(|e| Error::io("could not create", &dir, e))?;
        let path = dir.join(format!("{id}.lock"));
        let start = Instant::now();
        let mut backoff = Duration::from_millis(1);
        loop {
            let file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
                .open(&path)
                .map_err(|e| Error::io("could not open", &path, e))?;
            match file.try_lock() {
                Ok(()) if same_file(&file, &path) => {
                    return Ok(RunLock {
                        path,
                        file: Some(file),
                    });
                }
                // The holder removed it between our open and our lock.
                Ok(()) => continue,
                Err(std::fs::TryLockError::WouldBlock) => {}
                Err(std::fs::TryLockError::Error(e)) => {
                    return Err(Error::io("could not lock", &path, e));
                }
            }
            if start.elapsed() >= deadline {
                return Err(Error::RunBusy {
                    path,
                    waited: deadline.as_secs(),
                });
            }
            std::thread::sleep(backoff);
            backoff = (backoff * 2).min(Duration::from_millis(50));
        }
    }
}

impl Drop for RunLock {
    fn drop(&mut self) {
        // Unlink while holding the lock, then release: a waiter that opened
        // this inode sees it is no longer at the path and opens a new one.
        let _ = std::fs::remove_file(&self.path);
        drop(self.file.take());
    }
}
