//! The manifest mutex (`.loop-worktrees/.manifest.mutex`).
//!
//! As docs/cli.md ("Files") says: created with exclusive create; an existing mutex whose
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
//!   A writer also checks its token right before it renames the new manifest
//!   into place ([`crate::manifest::ManifestFile::write`]): a holder whose
//!   mutex was broken fails with `mutex-lost` instead of overwriting what the
//!   breaker wrote.
//! - **One breaker at a time.** Breaking a stale mutex happens under a second
//!   exclusive-create file, `.manifest.mutex.break`, and re-checks under it that
//!   the mutex still carries the stale token that was observed. Two waiters that
//!   both saw the same stale mutex therefore cannot both remove "it": the second
//!   finds the first one's fresh mutex and waits. The breaker is held for a few
//!   system calls; one older than 10 s belongs to a dead process and is removed.
//!
//! A mutex file that is a symlink or not a regular file (say, one a clone
//! brought along) is refused with an error naming it: it is never read
//! through, renamed or removed. The same holds for the breaker. Tokens are read
//! without following a symlink.

use std::fs::{self, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use super::{jitter, unique_suffix};
use crate::error::{Error, Result};

pub const MUTEX_FILE: &str = ".manifest.mutex";
pub const STALE_AFTER: Duration = Duration::from_secs(30);
pub const DEADLINE: Duration = Duration::from_secs(30);
const BREAKER_STALE_AFTER: Duration = Duration::from_secs(10);
/// A token is one short line; anything larger is not a mutex git-loop wrote.
const TOKEN_CAP: u64 = 4096;

/// The token in the mutex file at `path`; `None` when it is absent, a
/// symlink, not a regular file, or unreadable (never read through a link).
fn read_token(path: &Path) -> Option<String> {
    let bytes = crate::fsx::read_regular(path, TOKEN_CAP).ok()??;
    String::from_utf8(bytes).ok()
}

fn age(path: &Path) -> Option<Duration> {
    let modified = fs::symlink_metadata(path).ok()?.modified().ok()?;
    Some(
        SystemTime::now()
            .duration_since(modified)
            .unwrap_or_default(),
    )
}

/// Refuse `path` if it exists as a symlink or anything but a regular file:
/// git-loop's own mutex files are only ever regular files, so such a thing
/// came from elsewhere (a clone) and is neither read through nor removed.
fn refuse_foreign(path: &Path) -> Result<()> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Err(Error::UnsafePath {
            path: path.to_path_buf(),
            reason: "it is a symlink, not a mutex git-loop created; remove it by hand if no git-loop is running".into(),
        }),
        Ok(meta) if !meta.is_file() => Err(Error::UnsafePath {
            path: path.to_path_buf(),
            reason: "it is not a regular file, so not a mutex git-loop created; remove it by hand".into(),
        }),
        _ => Ok(()),
    }
}

/// Remove the mutex at `path` only if it carries `token`. Also the release
/// [`crate::signals`] runs on Ctrl-C/SIGTERM (it is handed this function with
/// the path and token, so that module needs nothing from this one).
fn remove_if_owned(path: &Path, token: &str) {
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
    /// When it was taken (for `GIT_LOOP_TEST_MUTEX_TRACE`).
    since: Instant,
}

impl ManifestMutex {
    /// Take the mutex in `loop_dir`, which must exist.
    pub fn acquire(loop_dir: &Path) -> Result<ManifestMutex> {
        let path = loop_dir.join(MUTEX_FILE);
        let token = format!("git-loop pid {} {}\n", std::process::id(), unique_suffix());
        let start = Instant::now();
        let mut backoff = Duration::from_millis(2);
        loop {
            crate::signals::track_mutex(&path, &token, remove_if_owned);
            // O_CREAT|O_EXCL never follows a symlink: it fails with EEXIST.
            match crate::fsx::nofollow(OpenOptions::new().write(true).create_new(true)).open(&path)
            {
                Ok(mut file) => {
                    file.write_all(token.as_bytes())
                        .map_err(|e| Error::io("could not write", &path, e))?;
                    crate::crash::point("holding-mutex");
                    clear_leftovers(loop_dir);
                    return Ok(ManifestMutex {
                        path,
                        token,
                        since: Instant::now(),
                    });
                }
                Err(e) if e.kind() == ErrorKind::AlreadyExists => {
                    crate::signals::untrack_mutex(&token);
                    refuse_foreign(&path)?;
                    // `>=`: a waiter that started right after the holder died
                    // reaches the stale age no later than its own deadline.
                    if age(&path).is_some_and(|a| a >= STALE_AFTER) {
                        break_stale(&path)?;
                        continue;
                    }
                    if start.elapsed() >= DEADLINE {
                        return Err(Error::MutexTimeout { path });
                    }
                    std::thread::sleep(backoff + jitter());
                    backoff = (backoff * 2).min(Duration::from_millis(100));
                }
                Err(e) => {
                    crate::signals::untrack_mutex(&token);
                    return Err(Error::io("could not create", &path, e));
                }
            }
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the mutex file still carries this holder's token: false once
    /// another process broke it as stale (this one ran past 30 s).
    pub fn is_held(&self) -> bool {
        read_token(&self.path).as_deref() == Some(self.token.as_str())
    }
}

/// Remove what killed processes left behind: temp manifests and the files
/// a release or a stale break renames aside. Only a mutex holder writes a temp
/// manifest, so while this process holds the mutex any such file belongs to a
/// process that died (or whose mutex was broken as stale: before its rename
/// it finds its token gone and fails, rather than a write being lost silently).
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

impl Drop for ManifestMutex {
    fn drop(&mut self) {
        remove_if_owned(&self.path, &self.token);
        crate::signals::untrack_mutex(&self.token);
        crate::crash::trace_mutex_hold(self.since.elapsed());
    }
}

/// Remove the stale mutex at `path`, unless another waiter already did.
fn break_stale(path: &Path) -> Result<()> {
    let breaker = path.with_file_name(format!("{MUTEX_FILE}.break"));
    match crate::fsx::nofollow(OpenOptions::new().write(true).create_new(true)).open(&breaker) {
        Ok(_) => {}
        Err(e) if e.kind() == ErrorKind::AlreadyExists => {
            refuse_foreign(&breaker)?;
            if age(&breaker).is_some_and(|a| a > BREAKER_STALE_AFTER) {
                let _ = fs::remove_file(&breaker);
            } else {
                std::thread::sleep(Duration::from_millis(5));
            }
            return Ok(());
        }
        Err(e) => return Err(Error::io("could not create", &breaker, e)),
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
    Ok(())
}
