//! Every lock git-loop takes between processes, and the one order they are
//! taken in.
//!
//! - [`OpsLock`] (submodule `ops`): an advisory `flock` on `.loop-worktrees/`
//!   that runs git-loop's `git worktree add`/`remove` calls one at a time,
//!   with a bounded wait that names its holder.
//! - [`RunLock`] (submodule `run`): an exclusive `flock` on one run, held by a
//!   removal of that run's worktree and by `mark` of that run, so a mark
//!   never crosses a removal.
//! - [`ManifestMutex`] (submodule `mutex`): the exclusive-create file
//!   `.loop-worktrees/.manifest.mutex` that guards each read-modify-write of
//!   `manifest.json`, with an owner token and stale breaking.
//!
//! # Lock order
//!
//! Outermost first: **the worktree-operation lock, then run locks, then the
//! manifest mutex.** A lock is waited for only while holding locks above it
//! in this list, never one below it, so two git-loop processes cannot wait
//! for each other:
//! - the ops lock is taken holding nothing (`create`, `reconcile`,
//!   `restore`, `branches`, `trash`, `pool`, a create's rollback; `cleanup`
//!   holds it for its whole run);
//! - a run lock is taken under the ops lock (each of cleanup's removal
//!   workers holds one run's at a time; `restore`) or holding nothing
//!   (`mark` takes those of every run it names, `mark --detect-merged` of
//!   every run it marks, one after another in id order, so two of them take
//!   them in the same order);
//! - the mutex is taken last, under whatever else is held, and for a short
//!   read-modify-write only: nothing waits for another lock while holding
//!   it (a create that writes `.gitignore` under the mutex lets go of it
//!   before it asks for the ops lock). Its breaker `.manifest.mutex.break`
//!   is held only while trying for the mutex, for a few system calls.
//!
//! Two locks have no place in the order because nothing waits for them
//! while holding another: a warm pool member's claim (a `flock` on the
//! member's directory, taken with `try_lock` or not at all) and, inside one
//! process, salvage's one-removal-at-a-time turn (taken under the run lock;
//! no lock is taken while it is held).
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
mod run_lock;

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

pub use mutex::ManifestMutex;
pub use ops::OpsLock;
pub use run_lock::{RUN_LOCK_DEADLINE, RunLock};

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
