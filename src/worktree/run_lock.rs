//! The run lock: an exclusive `flock` on one run's worktree directory, taken
//! by a removal and by `mark` (see the parent module's doc).

use std::fs::{File, OpenOptions};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::error::{Error, Result};

/// An exclusive `flock` on a run's worktree directory (see the module doc).
/// Dropping it releases it; the kernel releases it if the process dies.
#[derive(Debug)]
pub struct RunLock {
    _dir: File,
}

/// How long `mark` waits for a removal of that run to finish.
pub const RUN_LOCK_DEADLINE: Duration = Duration::from_secs(60);

impl RunLock {
    /// Lock the worktree directory at `dir`. `Ok(None)` when it does not
    /// exist (or is not a real directory): there is nothing to protect.
    pub fn acquire(dir: &Path, deadline: Duration) -> Result<Option<RunLock>> {
        let file = match OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(dir)
        {
            Ok(f) => f,
            Err(_) => return Ok(None),
        };
        let start = Instant::now();
        let mut backoff = Duration::from_millis(2);
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(Some(RunLock { _dir: file })),
                Err(std::fs::TryLockError::WouldBlock) => {
                    if start.elapsed() >= deadline {
                        return Err(Error::RunBusy {
                            path: dir.to_path_buf(),
                            waited: deadline.as_secs(),
                        });
                    }
                    std::thread::sleep(backoff);
                    backoff = (backoff * 2).min(Duration::from_millis(50));
                }
                Err(std::fs::TryLockError::Error(e)) => {
                    return Err(Error::io("could not lock", dir, e));
                }
            }
        }
    }
}
