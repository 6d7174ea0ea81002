//! The manifest mutex and the worktree-operation lock.
//!
//! - [`ManifestMutex`] (submodule `mutex`): the exclusive-create file
//!   `.loop-worktrees/.manifest.mutex` that guards each read-modify-write of
//!   `manifest.json`, with an owner token and stale breaking.
//! - [`OpsLock`] (submodule `ops`): an advisory `flock` on `.loop-worktrees/` that
//!   runs git-loop's `git worktree add`/`remove` calls one at a time, with a
//!   bounded wait that names its holder.
//!
//! Lock order is always: worktree-operation lock, then the mutex.
//!
//! # Dependencies
//!
//! This module uses [`crate::signals`], never the other way round: when a
//! mutex is taken, [`crate::signals::track_mutex`] is handed the path, the
//! token and the `fn` that releases the mutex only if it still carries that
//! token, and the signal thread calls that `fn` on Ctrl-C/SIGTERM. So the
//! release logic lives here alone, and `signals` knows nothing of mutexes
//! beyond "a path, a token and how to let go of them".

mod mutex;
mod ops;

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

pub use mutex::ManifestMutex;
pub use ops::OpsLock;

/// A suffix unique within this machine for this process's lifetime.
pub fn unique_suffix() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    format!("{nanos:x}-{}", COUNTER.fetch_add(1, Ordering::Relaxed))
}

/// Up to 2 ms, so waiters do not retry in lockstep.
fn jitter() -> Duration {
    Duration::from_micros(u64::from(
        SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap_or_default()
            .subsec_nanos()
            % 2000,
    ))
}
