//! The manifest mutex and the worktree-operation lock.
//!
//! # The manifest mutex (`.loop-worktrees/.manifest.mutex`)
//!
//! As the contract says: created with exclusive create; an existing mutex whose
//! mtime is more than 30 s old is stale and is removed; otherwise retry with
//! backoff until a 30 s deadline, then fail naming the path. It is removed when
//! the mutation ends: on success, on error (by `Drop`), and on Ctrl-C/SIGTERM
//! (by [`crate::signals`]). Pure reads take no mutex.
//!
//! It protects exactly one thing: a read-modify-write of `manifest.json`. It is
//! never held while git checks out or deletes files — a checkout of a large
//! repository can take longer than the 30 s deadline, and 16 agents creating at
//! once would time each other out. Commands therefore decide under the mutex,
//! run git outside it, and re-take it to apply the outcome only to the entry
//! they observed (same id and `createdAt`).
//!
//! Two refinements keep the mutex honest under races:
//! - **Owner token.** The holder writes a unique token into the file. Release
//!   first checks the token, then renames the file aside and checks again, so a
//!   process never deletes a mutex that another process holds (which could
//!   happen if its own mutex was broken as stale while it was still running).
//! - **One breaker at a time.** Breaking a stale mutex happens under a second
//!   exclusive-create file, `.manifest.mutex.break`, and re-checks under it that
//!   the mutex still carries the stale token that was observed. Two waiters that
//!   both saw the same stale mutex therefore cannot both remove "it": the second
//!   finds the first one's fresh mutex and waits. The breaker is held for a few
//!   system calls; one older than 10 s belongs to a dead process and is removed.
//!
//! # The worktree-operation lock (`.loop-worktrees/.worktree-ops.lock`)
//!
//! `git worktree add` is not safe to run in parallel in one repository (one add
//! can read another's half-created `.git/worktrees/<id>/` and fail with
//! `failed to read .git/worktrees/<id>/commondir`), and `git worktree remove`
//! can read a half-deleted one the same way. git-loop therefore runs its own
//! `worktree add`/`remove` calls one at a time under an advisory `flock` on this
//! file. The kernel releases a flock when its process dies, so it can never go
//! stale; the file itself is left in place (deleting a flock file races with
//! the next locker). Lock order is always: worktree-ops lock, then the mutex.

use std::fs::{self, File, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime};

use crate::error::{Error, Result};

pub const MUTEX_FILE: &str = ".manifest.mutex";
pub const OPS_LOCK_FILE: &str = ".worktree-ops.lock";
pub const STALE_AFTER: Duration = Duration::from_secs(30);
pub const DEADLINE: Duration = Duration::from_secs(30);
const BREAKER_STALE_AFTER: Duration = Duration::from_secs(10);

/// A suffix unique within this machine for this process's lifetime.
pub fn unique_suffix() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    format!("{nanos:x}-{}", COUNTER.fetch_add(1, Ordering::Relaxed))
}

fn read_token(path: &Path) -> Option<String> {
    let mut text = String::new();
    File::open(path).ok()?.read_to_string(&mut text).ok()?;
    Some(text)
}

fn age(path: &Path) -> Option<Duration> {
    let modified = fs::symlink_metadata(path).ok()?.modified().ok()?;
    Some(
        SystemTime::now()
            .duration_since(modified)
            .unwrap_or_default(),
    )
}

/// Remove the mutex at `path` only if it carries `token`.
pub(crate) fn remove_if_owned(path: &Path, token: &str) {
    if read_token(path).as_deref() != Some(token) {
        return;
    }
    let aside = path.with_file_name(format!("{MUTEX_FILE}.release-{}", unique_suffix()));
    if fs::rename(path, &aside).is_err() {
        return;
    }
    if read_token(&aside).as_deref() != Some(token) {
        // Someone else's mutex slipped in between the check and the rename:
        // put it back (hard_link fails rather than overwrite a newer one).
        let _ = fs::hard_link(&aside, path);
    }
    let _ = fs::remove_file(&aside);
}

/// The held manifest mutex. Dropping it releases it.
#[derive(Debug)]
pub struct ManifestMutex {
    path: PathBuf,
    token: String,
}

impl ManifestMutex {
    /// Take the mutex in `loop_dir`, which must exist.
    pub fn acquire(loop_dir: &Path) -> Result<ManifestMutex> {
        let path = loop_dir.join(MUTEX_FILE);
        let token = format!("git-loop pid {} {}\n", std::process::id(), unique_suffix());
        let start = Instant::now();
        let mut backoff = Duration::from_millis(2);
        loop {
            signals_track(&path, &token);
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(mut file) => {
                    file.write_all(token.as_bytes())
                        .map_err(|e| Error::io("could not write", &path, e))?;
                    crate::crash::point("holding-mutex");
                    clear_leftovers(loop_dir);
                    return Ok(ManifestMutex { path, token });
                }
                Err(e) if e.kind() == ErrorKind::AlreadyExists => {
                    crate::signals::untrack_mutex();
                    // `>=`: a waiter that started right after the holder died
                    // reaches the stale age no later than its own deadline.
                    if age(&path).is_some_and(|a| a >= STALE_AFTER) {
                        break_stale(&path);
                        continue;
                    }
                    if start.elapsed() >= DEADLINE {
                        return Err(Error::MutexTimeout { path });
                    }
                    // Backoff with jitter so waiters do not retry in lockstep.
                    let jitter = Duration::from_micros(u64::from(
                        SystemTime::now()
                            .duration_since(SystemTime::UNIX_EPOCH)
                            .unwrap_or_default()
                            .subsec_nanos()
                            % 2000,
                    ));
                    std::thread::sleep(backoff + jitter);
                    backoff = (backoff * 2).min(Duration::from_millis(100));
                }
                Err(e) => {
                    crate::signals::untrack_mutex();
                    return Err(Error::io("could not create", &path, e));
                }
            }
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Remove what killed processes left behind: temp manifests and the files
/// a release or a stale break renames aside. Only a mutex holder writes a temp
/// manifest, so while this process holds the mutex any such file belongs to a
/// process that died (or whose mutex was broken as stale: its rename then
/// fails and it reports an error, rather than a write being lost silently).
fn clear_leftovers(loop_dir: &Path) {
    let Ok(entries) = fs::read_dir(loop_dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if name.starts_with(".manifest.json.tmp-")
            || name.starts_with(".manifest.mutex.release-")
            || name.starts_with(".manifest.mutex.stale-")
        {
            let _ = fs::remove_file(entry.path());
        }
    }
}

fn signals_track(path: &Path, token: &str) {
    crate::signals::track_mutex(path, token);
}

impl Drop for ManifestMutex {
    fn drop(&mut self) {
        remove_if_owned(&self.path, &self.token);
        crate::signals::untrack_mutex();
    }
}

/// Remove the stale mutex at `path`, unless another waiter already did.
fn break_stale(path: &Path) {
    let breaker = path.with_file_name(format!("{MUTEX_FILE}.break"));
    match OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&breaker)
    {
        Ok(_) => {}
        Err(_) => {
            if age(&breaker).is_some_and(|a| a > BREAKER_STALE_AFTER) {
                let _ = fs::remove_file(&breaker);
            } else {
                std::thread::sleep(Duration::from_millis(5));
            }
            return;
        }
    }
    // Under the breaker: re-check that the mutex is still stale, and remove
    // exactly the file that was judged stale.
    if let Some(stale_token) = read_token(path)
        && age(path).is_some_and(|a| a >= STALE_AFTER)
    {
        let aside = path.with_file_name(format!("{MUTEX_FILE}.stale-{}", unique_suffix()));
        if fs::rename(path, &aside).is_ok() {
            if read_token(&aside).as_deref() != Some(stale_token.as_str()) {
                let _ = fs::hard_link(&aside, path);
            }
            let _ = fs::remove_file(&aside);
        }
    }
    let _ = fs::remove_file(&breaker);
}

/// The held worktree-operation lock (an advisory flock). Dropping releases it.
#[derive(Debug)]
pub struct OpsLock {
    _file: File,
    /// Another process held it when this one asked: creates are queuing.
    pub contended: bool,
}

impl OpsLock {
    /// Wait for the lock. `on_wait` is called once if another process holds it.
    pub fn acquire(loop_dir: &Path, on_wait: impl FnOnce()) -> Result<OpsLock> {
        let path = loop_dir.join(OPS_LOCK_FILE);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| Error::io("could not open", &path, e))?;
        let contended = match file.try_lock() {
            Ok(()) => false,
            Err(fs::TryLockError::WouldBlock) => {
                on_wait();
                file.lock()
                    .map_err(|e| Error::io("could not lock", &path, e))?;
                true
            }
            Err(fs::TryLockError::Error(e)) => return Err(Error::io("could not lock", &path, e)),
        };
        Ok(OpsLock {
            _file: file,
            contended,
        })
    }
}
