//! Ctrl-C and SIGTERM while git-loop holds the manifest mutex, or while a
//! create has made a worktree it has not recorded yet.
//!
//! docs/cli.md says the mutex is removed when a mutation ends, "success or
//! failure" — an interrupt included. When the first mutex is taken, a thread is
//! started that waits for SIGINT/SIGTERM; on one it removes the temp files and
//! every mutex a thread of this process holds (each only if it still carries
//! that holder's token) and exits with 128 + the signal number. The manifest itself needs no
//! care: it is only ever replaced by an atomic rename, so it is the old or the
//! new one whenever the signal lands.
//!
//! This module depends on no other of the crate: the `lock` module hands
//! [`track_mutex`] the mutex's path, its token and the [`Release`] `fn` that
//! removes the mutex only if it still carries the token, so the signal thread
//! releases the mutex without knowing how (and `lock` -> `signals` is the
//! only direction of the dependency).
//!
//! # Rolling back an interrupted create
//!
//! From its `git worktree add` until the run is in the manifest, a create
//! holds a [`RollbackWindow`]: a signal then undoes what the create made (its
//! worktree and branch, see `ops::create`) before exiting, so nothing is
//! left that neither `create` nor `cleanup` would handle. Where the rollback
//! runs depends on whether a git child is running:
//! - **No child running** (the window is *idle*): the signal thread marks the
//!   window *rolling* and runs the rollback on a thread of its own, then
//!   exits. The main thread, should it reach its next git call or the
//!   manifest write meanwhile, stops there for good (it parks: the process is
//!   about to exit).
//! - **A child running** (*busy*: `git worktree add`, the checkout, the
//!   `post-checkout` hook, or the manifest write): deleting files under a
//!   running `git reset --hard` — which goes on when SIGTERM was sent to
//!   git-loop alone — would race it. The signal is only recorded (*pending*);
//!   the main thread, when the child returns, runs the rollback itself at
//!   that checkpoint ([`RollbackWindow::leave`]) and exits.
//! - **A second signal** while one is pending or a rollback runs exits at
//!   once (after removing the mutex and temp files, as always), leaving what
//!   is there for `reconcile` and `cleanup`, which finish such leftovers —
//!   unless it is the parent's echo of the first (below).
//!
//! # The echo of a parent that forwards signals
//!
//! Run as `git loop`, git-loop is git's child, and git marks a dashed
//! external "clean on exit": on SIGINT or SIGTERM, git's handler sends the
//! same signal to its child, waits for it, then dies of the signal itself.
//! Ctrl-C in a terminal signals the whole foreground process group, so
//! git-loop gets the terminal's SIGINT *and* git's copy of it — which,
//! counted as the user's second Ctrl-C, would exit in the middle of the
//! rollback and leave `loop/<id>` behind. Either copy may come first (git
//! may get and forward its own before the kernel has queued git-loop's:
//! seen in tests). So a signal counts as the second only if it is not the
//! other copy of the first: the same signal, within [`ECHO_WINDOW`] of it,
//! one of the two sent by git-loop's parent and the other not (the parent is
//! the one at the time the signal thread started; the sender's pid comes
//! from the signal's `siginfo`, signal-hook's `WithOrigin`). At most one
//! copy is ignored per first signal (git forwards once). A real second
//! Ctrl-C — from the terminal (the kernel, no sending process) after the
//! pair — still exits at once; so does a second `kill` from anyone but the
//! parent, a different signal, the parent's own second signal, or any
//! signal after the window. The one double it mistakes for a pair is a
//! `kill` of the parent alone followed within the window by Ctrl-C (or the
//! reverse); then one more Ctrl-C exits. Mistaking a real second signal
//! for a copy costs only time: the rollback, the safe outcome, runs on.
//! - The window closes when the manifest write succeeds (still *busy*, so no
//!   rollback can start between the write and the close): a signal after that
//!   leaves the recorded run in place.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

/// Removes the mutex at a path only if it carries a token (see
/// [`track_mutex`]).
pub type Release = fn(&Path, &str);

#[derive(Default)]
struct Held {
    /// Every mutex a thread of this process holds or is about to hold, by
    /// token: two threads (a landing and the removals behind it, cleanup's
    /// removal workers) may each be after one at once, and one's failed
    /// attempt must not untrack the other's.
    mutexes: Vec<(PathBuf, String, Release)>,
    temps: Vec<PathBuf>,
    /// Gives the terminal back (`watch`'s raw mode, alternate screen).
    terminal: Option<fn()>,
}

static HELD: Mutex<Held> = Mutex::new(Held {
    mutexes: Vec::new(),
    temps: Vec::new(),
    terminal: None,
});

fn held() -> std::sync::MutexGuard<'static, Held> {
    HELD.lock().unwrap_or_else(|p| p.into_inner())
}

/// How long after the first signal its other copy (the parent's echo, or
/// the copy the parent echoes) is taken for one (see the module doc). git
/// forwards from its signal handler, at once; the margin is for a loaded
/// machine.
const ECHO_WINDOW: std::time::Duration = std::time::Duration::from_secs(2);

fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        use signal_hook::consts::{SIGINT, SIGTERM};
        use signal_hook::iterator::SignalsInfo;
        use signal_hook::iterator::exfiltrator::WithOrigin;
        let Ok(mut signals) = SignalsInfo::<WithOrigin>::new([SIGINT, SIGTERM]) else {
            return;
        };
        let parent = std::os::unix::process::parent_id();
        std::thread::spawn(move || {
            for origin in signals.forever() {
                let from_parent = origin
                    .process
                    .is_some_and(|p| u32::try_from(p.pid) == Ok(parent));
                on_signal(origin.signal, from_parent);
            }
        });
    });
}

/// Remove this process's temp files and mutex, and exit with 128 + `sig`.
fn exit_now(sig: i32) -> ! {
    let state = held();
    if let Some(restore) = state.terminal {
        restore();
    }
    for tmp in &state.temps {
        let _ = std::fs::remove_file(tmp);
    }
    for (path, token, release) in &state.mutexes {
        release(path, token);
    }
    std::process::exit(128 + sig);
}

/// On the signal thread: see the module doc. `from_parent`: sent by the
/// process that was the parent when the signal thread started.
fn on_signal(sig: i32, from_parent: bool) {
    let mut w = window();
    if w.rolling || w.pending.is_some() {
        // The parent's echo of the first signal is ignored, once.
        let first = w.first.take();
        if first.is_some_and(|f| f.echoed_by(sig, from_parent)) {
            return;
        }
        exit_now(sig);
    }
    let Some(rollback) = w.rollback.take() else {
        exit_now(sig);
    };
    w.first = Some(First {
        sig,
        from_parent,
        at: std::time::Instant::now(),
    });
    if w.busy {
        w.rollback = Some(rollback);
        w.pending = Some(sig);
        return;
    }
    w.rolling = true;
    drop(w);
    // On a thread of its own, so that a second signal still exits at once.
    std::thread::spawn(move || {
        rollback();
        exit_now(sig);
    });
}

/// Write `line` to stderr from a rollback. Not through `std::io::stderr()`:
/// the main thread holds its lock for the whole command (its `Out`), and a
/// rollback on another thread would wait for it forever. A duplicate of the
/// descriptor needs no lock.
pub fn say(line: &str) {
    use std::io::Write;
    use std::os::fd::AsFd;
    if let Ok(fd) = std::io::stderr().as_fd().try_clone_to_owned() {
        let _ = std::fs::File::from(fd).write_all(format!("{line}\n").as_bytes());
    }
}

type Rollback = Box<dyn FnOnce() + Send>;

#[derive(Default)]
struct Window {
    rollback: Option<Rollback>,
    /// A git child (or the manifest write) is running on the main thread.
    busy: bool,
    /// A signal arrived while busy.
    pending: Option<i32>,
    /// A rollback has started: the process is about to exit.
    rolling: bool,
    /// The signal that started the rollback, until its echo has been
    /// ignored (see the module doc).
    first: Option<First>,
}

/// The signal that started a rollback: which, from whom, when.
#[derive(Clone, Copy)]
struct First {
    sig: i32,
    from_parent: bool,
    at: std::time::Instant,
}

impl First {
    /// `sig` is the other copy of this signal: the same signal, soon after,
    /// and one of the two (either: see the module doc) sent by the parent.
    fn echoed_by(self, sig: i32, from_parent: bool) -> bool {
        self.sig == sig && self.from_parent != from_parent && self.at.elapsed() < ECHO_WINDOW
    }
}

static WINDOW: Mutex<Window> = Mutex::new(Window {
    rollback: None,
    busy: false,
    pending: None,
    rolling: false,
    first: None,
});

fn window() -> std::sync::MutexGuard<'static, Window> {
    WINDOW.lock().unwrap_or_else(|p| p.into_inner())
}

/// While alive, a SIGINT/SIGTERM runs `rollback` before exiting (see the
/// module doc). One at a time per process.
pub struct RollbackWindow(());

impl RollbackWindow {
    /// Arm `rollback`; the window starts idle.
    pub fn open(rollback: impl FnOnce() + Send + 'static) -> RollbackWindow {
        install();
        let mut w = window();
        w.rollback = Some(Box::new(rollback));
        w.busy = false;
        w.pending = None;
        w.first = None;
        RollbackWindow(())
    }

    /// A git child is about to run: a signal waits for [`Self::leave`].
    /// If a rollback is already running, this thread stops here.
    pub fn enter(&self) {
        let mut w = window();
        if w.rolling {
            drop(w);
            loop {
                std::thread::park();
            }
        }
        w.busy = true;
    }

    /// A signal arrived while busy: [`Self::leave`] will act on it.
    pub fn interrupted(&self) -> bool {
        window().pending.is_some()
    }

    /// The child returned: the checkpoint. A pending signal rolls back here
    /// (and exits).
    pub fn leave(&self) {
        let mut w = window();
        w.busy = false;
        if let Some(sig) = w.pending {
            let rollback = w.rollback.take();
            w.rolling = true;
            drop(w);
            if let Some(rollback) = rollback {
                rollback();
            }
            exit_now(sig);
        }
    }

    /// [`Self::enter`], `f`, [`Self::leave`].
    pub fn child<T>(&self, f: impl FnOnce() -> T) -> T {
        self.enter();
        let result = f();
        self.leave();
        result
    }

    /// Run `f` — the write that records the run — busy; if it succeeds the
    /// window closes before a pending signal is acted on, so a recorded run
    /// is never rolled back.
    pub fn commit<T, E>(
        &self,
        f: impl FnOnce() -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E> {
        self.enter();
        let result = f();
        if result.is_ok() {
            window().rollback = None;
        }
        self.leave();
        result
    }
}

impl Drop for RollbackWindow {
    /// Disarm. A signal that arrived while busy on a path that returns early
    /// (a failed `git worktree add`, which cleans up after itself) exits now;
    /// while a rollback runs, this thread stops here.
    fn drop(&mut self) {
        let mut w = window();
        if w.rolling {
            // A rollback runs on another thread and exits the process: do
            // not return (and exit) under it.
            drop(w);
            loop {
                std::thread::park();
            }
        }
        w.rollback = None;
        w.busy = false;
        if let Some(sig) = w.pending.take() {
            drop(w);
            exit_now(sig);
        }
    }
}

/// Record that this process is about to own the mutex at `path` with `token`;
/// on Ctrl-C/SIGTERM the signal thread calls `release(path, token)`.
pub fn track_mutex(path: &Path, token: &str, release: Release) {
    install();
    let mut held = held();
    if !held.mutexes.iter().any(|(_, t, _)| t == token) {
        held.mutexes
            .push((path.to_path_buf(), token.to_owned(), release));
    }
}

/// The mutex with `token` is let go (or was not had): no longer released
/// on a signal. Any other this process holds still is.
pub fn untrack_mutex(token: &str) {
    held().mutexes.retain(|(_, t, _)| t != token);
}

/// While the terminal is in a state a signal must not leave it in (raw
/// mode, the alternate screen: `watch`), SIGINT/SIGTERM call `restore`
/// before exiting.
pub fn track_terminal(restore: fn()) {
    install();
    held().terminal = Some(restore);
}

pub fn untrack_terminal() {
    held().terminal = None;
}

pub fn track_temp(path: &Path) {
    install();
    held().temps.push(path.to_path_buf());
}

pub fn untrack_temp(path: &Path) {
    held().temps.retain(|p| p != path);
}

#[cfg(test)]
mod tests {
    fn tracked(token: &str) -> bool {
        super::held().mutexes.iter().any(|(_, t, _)| t == token)
    }

    fn release(_: &std::path::Path, _: &str) {}

    /// One thread's attempt that fails (another thread holds the mutex)
    /// untracks its own token only: the holder's is still released on a
    /// signal.
    #[test]
    fn untracking_one_token_keeps_the_others() {
        let path = std::path::Path::new("/nonexistent/.manifest.mutex");
        super::track_mutex(path, "holder test token", release);
        super::track_mutex(path, "waiter test token", release);
        super::track_mutex(path, "waiter test token", release);
        super::untrack_mutex("waiter test token");
        assert!(tracked("holder test token"));
        assert!(!tracked("waiter test token"));
        super::untrack_mutex("holder test token");
        assert!(!tracked("holder test token"));
    }
}
