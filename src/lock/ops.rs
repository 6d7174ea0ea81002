//! The worktree-operation lock (a `flock` on `.loop-worktrees/` itself).
//!
//! `git worktree add` is not safe to run in parallel in one repository (one add
//! can read another's half-created `.git/worktrees/<id>/` and fail with
//! `failed to read .git/worktrees/<id>/commondir`), and `git worktree remove`
//! can read a half-deleted one the same way. git-loop therefore runs its own
//! `worktree add`/`remove` calls one at a time under an advisory `flock` on the
//! `.loop-worktrees` directory, opened `O_RDONLY|O_DIRECTORY|O_NOFOLLOW`. There
//! is no lock file: nothing persists, nothing a clone carries is opened (a
//! `.worktree-ops.lock` left by older versions, or committed as a symlink, is
//! never opened), and the kernel releases the lock when its holder dies, so it
//! can never go stale.
//!
//! Waiting is bounded, because a live holder can still hold it for ever (a
//! `git loop cleanup` stopped with Ctrl-Z). A waiter polls with `try_lock` and
//! backoff, and:
//! - finds the holder in `/proc/locks` (the line whose device and inode are the
//!   directory's) and its command line in `/proc/<pid>/cmdline`, and says once
//!   on stderr whom it waits for ("another git-loop process" when unknown, e.g.
//!   off Linux);
//! - gives up after [`STOPPED_GRACE`] when the holder is stopped (state `T` or
//!   `t` in `/proc/<pid>/stat`), saying how to resume it (`fg`,
//!   `kill -CONT <pid>`);
//! - otherwise gives up after [`OPS_DEADLINE`] (10 minutes: a cleanup holds the
//!   lock for its whole run, so this is generous). Tests shorten it with
//!   `GIT_LOOP_TEST_OPS_DEADLINE_SECS` (see [`crate::crash`]).
//!
//! Both give-ups exit 1 with `lock-timeout`, naming the directory and the
//! holder. It is the outermost lock (see the lock order in [`super`]).

use std::fs::{self, File, OpenOptions};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::Path;
use std::time::{Duration, Instant};

use super::jitter;
use crate::error::{Error, Result};

/// How long a waiter waits for the worktree-operation lock held by a live
/// process before giving up.
pub const OPS_DEADLINE: Duration = Duration::from_secs(600);
/// How long a waiter waits for the worktree-operation lock while its holder is
/// stopped (Ctrl-Z) before giving up.
pub const STOPPED_GRACE: Duration = Duration::from_secs(3);

/// The held worktree-operation lock (an advisory flock on the
/// `.loop-worktrees` directory). Dropping releases it.
#[derive(Debug)]
pub struct OpsLock {
    _dir: File,
    /// Another process held it when this one asked: creates are queuing.
    pub contended: bool,
}

impl OpsLock {
    /// Wait for the lock on `loop_dir`, which must exist. `on_wait` is called
    /// once, with a line saying who holds it, if another process holds it.
    pub fn acquire(loop_dir: &Path, on_wait: impl FnOnce(&str)) -> Result<OpsLock> {
        let dir = open_dir(loop_dir)?;
        if try_take(&dir, loop_dir)? {
            return Ok(OpsLock {
                _dir: dir,
                contended: false,
            });
        }
        let key = flock_key(&dir, loop_dir)?;
        let deadline = crate::crash::ops_deadline().unwrap_or(OPS_DEADLINE);
        let start = Instant::now();
        let holder = Holder::find(key);
        on_wait(&format!(
            "waiting for the worktree-operation lock on {}/, held by {}…",
            loop_dir.display(),
            Holder::describe(holder.as_ref())
        ));
        wait(&dir, loop_dir, key, holder, start, deadline)?;
        Ok(OpsLock {
            _dir: dir,
            contended: true,
        })
    }
}

/// One `try_lock`: whether it was taken (`false`: another process holds it).
fn try_take(dir: &File, loop_dir: &Path) -> Result<bool> {
    match dir.try_lock() {
        Ok(()) => Ok(true),
        Err(fs::TryLockError::WouldBlock) => Ok(false),
        Err(fs::TryLockError::Error(e)) => Err(Error::io("could not lock", loop_dir, e)),
    }
}

/// The directory's `(major, minor, inode)`, as `/proc/locks` names it.
fn flock_key(dir: &File, loop_dir: &Path) -> Result<(u64, u64, u64)> {
    let meta = dir
        .metadata()
        .map_err(|e| Error::io("could not read", loop_dir, e))?;
    Ok((dev_major(meta.dev()), dev_minor(meta.dev()), meta.ino()))
}

/// Poll for the lock with backoff until it is taken; give up (see the
/// module doc) when its holder has been stopped for [`STOPPED_GRACE`], or
/// when `deadline` has passed since `start`.
fn wait(
    dir: &File,
    loop_dir: &Path,
    key: (u64, u64, u64),
    mut holder: Option<Holder>,
    start: Instant,
    deadline: Duration,
) -> Result<()> {
    // The holder seen stopped, and since when.
    let mut stopped_since: Option<(u32, Instant)> = None;
    let mut backoff = Duration::from_millis(10);
    loop {
        std::thread::sleep(backoff + jitter());
        backoff = (backoff * 2).min(Duration::from_millis(250));
        if try_take(dir, loop_dir)? {
            return Ok(());
        }
        if let Some(now) = Holder::find(key) {
            holder = Some(now);
        }
        match &holder {
            Some(h) if h.is_stopped() => {
                let since = match stopped_since {
                    Some((pid, since)) if pid == h.pid => since,
                    _ => Instant::now(),
                };
                stopped_since = Some((h.pid, since));
                if since.elapsed() >= STOPPED_GRACE {
                    return Err(stopped_holder(loop_dir, h));
                }
            }
            _ => stopped_since = None,
        }
        if start.elapsed() >= deadline {
            return Err(still_held(loop_dir, holder.as_ref(), deadline));
        }
    }
}

/// The give-up when the holder is stopped: how to resume it.
fn stopped_holder(loop_dir: &Path, h: &Holder) -> Error {
    Error::LockTimeout {
        path: loop_dir.to_path_buf(),
        reason: format!(
            "its holder, {}, is stopped (suspended, e.g. by Ctrl-Z)",
            Holder::describe(Some(h))
        ),
        help: format!(
            "resume it with `fg` in the shell that stopped it, or with `kill -CONT {}`; then run this command again",
            h.pid
        ),
    }
}

/// The give-up after the deadline, naming the holder.
fn still_held(loop_dir: &Path, holder: Option<&Holder>, deadline: Duration) -> Error {
    Error::LockTimeout {
        path: loop_dir.to_path_buf(),
        reason: format!(
            "still held by {} after {}s",
            Holder::describe(holder),
            deadline.as_secs()
        ),
        help: "another git-loop is adding or removing worktrees (a cleanup holds this lock for its whole run); let it finish, then run this command again".into(),
    }
}

/// Open `loop_dir` itself for locking: a directory, never through a symlink.
fn open_dir(loop_dir: &Path) -> Result<File> {
    OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(loop_dir)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ELOOP) => Error::UnsafePath {
                path: loop_dir.to_path_buf(),
                reason: "it is a symlink; git-loop keeps its worktrees and manifest inside the repository".into(),
            },
            Some(libc::ENOTDIR) => Error::UnsafePath {
                path: loop_dir.to_path_buf(),
                reason: "it is not a directory".into(),
            },
            _ => Error::io("could not open", loop_dir, e),
        })
}

/// glibc's `gnu_dev_major`, for the device numbers `/proc/locks` prints.
fn dev_major(dev: u64) -> u64 {
    ((dev & 0x0000_0000_000f_ff00) >> 8) | ((dev & 0xffff_f000_0000_0000) >> 32)
}

/// glibc's `gnu_dev_minor`.
fn dev_minor(dev: u64) -> u64 {
    (dev & 0xff) | ((dev & 0x0000_0fff_fff0_0000) >> 12)
}

/// The process holding a flock, as far as `/proc` tells.
#[derive(Debug)]
struct Holder {
    pid: u32,
    /// Its command line, shortened and made printable; `None` if unreadable.
    command: Option<String>,
}

impl Holder {
    /// The process holding a flock on the inode `(major, minor, ino)`.
    fn find(key: (u64, u64, u64)) -> Option<Holder> {
        // The kernel's own table, not a file in the work tree.
        let locks = fs::read("/proc/locks").ok()?;
        let pid = holder_pid(&String::from_utf8_lossy(&locks), key)?;
        Some(Holder {
            pid,
            command: command_line(pid),
        })
    }

    /// "pid 1234 (git-loop cleanup)", or "another git-loop process".
    fn describe(holder: Option<&Holder>) -> String {
        match holder {
            Some(Holder {
                pid,
                command: Some(command),
            }) => format!("pid {pid} ({command})"),
            Some(Holder { pid, command: None }) => format!("pid {pid}"),
            None => "another git-loop process".into(),
        }
    }

    /// Stopped by a signal (`T`) or by a debugger (`t`), per `/proc/<pid>/stat`.
    fn is_stopped(&self) -> bool {
        let Ok(stat) = fs::read(format!("/proc/{}/stat", self.pid)) else {
            return false;
        };
        process_state(&String::from_utf8_lossy(&stat)).is_some_and(|s| s == 'T' || s == 't')
    }
}

/// The pid of the granted FLOCK on `(major, minor, ino)` in `/proc/locks`
/// text, whose lines read `1: FLOCK  ADVISORY  WRITE 12345 08:01:1234567 0 EOF`
/// (blocked requests, marked `->`, are skipped).
fn holder_pid(locks: &str, (major, minor, ino): (u64, u64, u64)) -> Option<u32> {
    locks.lines().find_map(|line| {
        let mut fields = line.split_whitespace().skip(1);
        if fields.next()? != "FLOCK" {
            return None;
        }
        let (_advisory, _mode, pid, id) = (
            fields.next()?,
            fields.next()?,
            fields.next()?,
            fields.next()?,
        );
        let mut parts = id.split(':');
        let (maj, min, inode) = (parts.next()?, parts.next()?, parts.next()?);
        (u64::from_str_radix(maj, 16).ok()? == major
            && u64::from_str_radix(min, 16).ok()? == minor
            && inode.parse::<u64>().ok()? == ino)
            .then(|| pid.parse::<u32>().ok())
            .flatten()
            .filter(|&pid| pid != 0)
    })
}

/// The state letter of `/proc/<pid>/stat` text: `pid (comm) S …`, where comm
/// may itself hold spaces and parentheses.
fn process_state(stat: &str) -> Option<char> {
    let after = &stat[stat.rfind(')')? + 1..];
    after.trim_start().chars().next()
}

/// `/proc/<pid>/cmdline` as one printable line: the program's file name, then
/// its arguments, at most 100 characters.
fn command_line(pid: u32) -> Option<String> {
    let raw = fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    let mut args = raw
        .split(|b| *b == 0)
        .filter(|a| !a.is_empty())
        .map(|a| String::from_utf8_lossy(a).into_owned());
    let program = args.next()?;
    let program = Path::new(&program)
        .file_name()
        .map_or(program.clone(), |n| n.to_string_lossy().into_owned());
    let line: String = std::iter::once(program)
        .chain(args)
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    const MAX: usize = 100;
    Some(if line.chars().count() > MAX {
        let mut short: String = line.chars().take(MAX - 1).collect();
        short.push('…');
        short
    } else {
        line
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_numbers_decode_like_glibc() {
        // glibc's gnu_dev_makedev.
        let makedev = |major: u64, minor: u64| {
            (minor & 0xff)
                | ((major & 0xfff) << 8)
                | ((minor & !0xff) << 12)
                | ((major & !0xfff) << 32)
        };
        assert_eq!((dev_major(0x801), dev_minor(0x801)), (8, 1));
        assert_eq!((dev_major(0xfe00), dev_minor(0xfe00)), (0xfe, 0));
        for (major, minor) in [(259, 65537), (4097, 3), (0, 0)] {
            let dev = makedev(major, minor);
            assert_eq!((dev_major(dev), dev_minor(dev)), (major, minor));
        }
    }

    #[test]
    fn holder_pid_matches_device_and_inode() {
        let locks = "1: POSIX  ADVISORY  WRITE 11 fe:00:42 0 EOF\n\
                     2: FLOCK  ADVISORY  WRITE 22 fe:01:42 0 EOF\n\
                     3: FLOCK  ADVISORY  WRITE 33 fe:00:42 0 EOF\n\
                     3: -> FLOCK  ADVISORY  WRITE 44 fe:00:42 0 EOF\n";
        assert_eq!(holder_pid(locks, (0xfe, 0, 42)), Some(33));
        assert_eq!(holder_pid(locks, (0xfe, 0, 43)), None);
    }

    #[test]
    fn process_state_skips_odd_command_names() {
        assert_eq!(process_state("12 (a) b) T 1 2"), Some('T'));
        assert_eq!(process_state("12 (git-loop) S 1"), Some('S'));
        assert_eq!(process_state("garbage"), None);
    }

    #[test]
    fn ops_lock_is_a_flock_on_the_directory_and_names_this_process() {
        let dir = tempfile::tempdir().unwrap();
        let held = OpsLock::acquire(dir.path(), |_| {}).unwrap();
        let meta = fs::metadata(dir.path()).unwrap();
        let key = (dev_major(meta.dev()), dev_minor(meta.dev()), meta.ino());
        if Path::new("/proc/locks").exists() {
            let holder = Holder::find(key).expect("found in /proc/locks");
            assert_eq!(holder.pid, std::process::id());
            assert!(!holder.is_stopped());
        }
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0, "no lock file");
        drop(held);
    }
}
