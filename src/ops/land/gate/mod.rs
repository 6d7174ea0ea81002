//! The gate: a command run in a scratch checkout of the landed commit.
//!
//! The gate (`land.gate`, or `--gate`, which is the user's own: see
//! [`ConfiguredCommand::given`]) is looked up with the hooks' trust rules
//! ([`crate::configured_command::lookup`] with [`Kind::LandGate`]
//! refuses an untrusted one before anything changes) and runs:
//! - in a **scratch checkout**: a worktree detached at the landed commit,
//!   at `.loop-worktrees/.land-gate/<pid>-<n>` (`git worktree add
//!   --no-checkout --detach` under the worktree-operation lock, then git's
//!   own checkout, `reset --hard`, outside it: filters apply, no
//!   `post-checkout` hook runs), never the user's checkout and never the
//!   run's worktree. Like a warm pool member it is not a run: no manifest
//!   entry, and `list`, `reconcile`, `cleanup` and `pool` never see it
//!   (they look only at the direct children of `.loop-worktrees/` whose names
//!   are run ids, and at `.pool/`). Before the command is spawned, the files
//!   a trusted repository gate names are checked again in the scratch
//!   checkout (the landed commit's own `check.sh` is the one that runs);
//! - with the time limit `timeout` ([`TIMEOUT`], 10 minutes, for `land`;
//!   no setting): at the limit its whole process group is killed
//!   ([`crate::configured_command::run_with_timeout`]), and the gate fails;
//! - with `env` (the landed run's `GIT_LOOP_ID`, `GIT_LOOP_ROOT`,
//!   `GIT_LOOP_PATH` (its worktree, not the scratch), `GIT_LOOP_BRANCH`)
//!   and [`COMMIT_ENV`], the landed commit; its output goes to stderr as it
//!   comes, and its tail is kept for the report. On a terminal (and
//!   neither `--json` nor `--quiet`: [`Place::progress`]) a status line
//!   under that output, redrawn in place ([`crate::output::live`]), says
//!   whose gate runs (`2 of 5` when several land), for how long, and its
//!   last line; it is erased when the gate ends.
//!
//! Afterwards, pass or fail, the scratch checkout is removed through the
//! safety kernel ([`crate::safety::scratch`]): its files are the commit's
//! and the gate's output, nobody's work, so they are deleted, then `git
//! worktree remove` (never `--force`) unregisters the missing directory
//! under the worktree-operation lock, and `.land-gate/` itself goes when
//! this process made it and it is empty: a landing, refused or not,
//! leaves nothing behind, not even an ignored directory. One the kernel will not let go (a
//! process the gate left working in it, a commit made in it) is left where
//! it is and named in [`GateRun::scratch_left`]: nothing is ever lost.
//!
//! Ctrl-C or SIGTERM while the gate runs (it is in a process group of its
//! own, so the terminal's Ctrl-C does not reach it): the gate's group is
//! killed and the scratch checkout removed by the same rules, then git-loop
//! says what did and did not happen ([`Place::interrupted`]: `interrupted:
//! landed a, b; c's gate stopped, nothing of c changed; d, e not started`)
//! and exits with 128 + the signal (a [`RollbackWindow`]; during a git
//! child, the checkout or the removal, the signal waits for it to return).
//!
//! Locks: the worktree-operation lock is taken twice, briefly (the add and
//! the unregister), never while the gate runs; the caller must hold no
//! lock of the lock order then (it is the outermost, see [`crate::lock`]).

use std::ffi::OsStr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use gix::ObjectId;

use crate::configured_command::ConfiguredCommand;
#[cfg(doc)]
use crate::configured_command::Kind;
use crate::error::{Error, Result};
use crate::git::cmd::Git;
use crate::git::repo::Repo;
use crate::lock::OpsLock;
use crate::safety::scratch;
use crate::signals::RollbackWindow;

mod place;

pub use place::Place;

/// How long `land` lets a gate run before it kills it (not a setting).
pub const TIMEOUT: Duration = Duration::from_secs(10 * 60);

/// The variable that names the landed commit (full hex) to the gate.
pub const COMMIT_ENV: &str = "GIT_LOOP_LAND_COMMIT";

/// How a gate ended.
#[derive(Debug, Clone, PartialEq)]
pub struct GateRun {
    pub command: String,
    pub passed: bool,
    /// `None` when it died of a signal or was killed at the timeout.
    pub exit_code: Option<i32>,
    pub timed_out: bool,
    pub seconds: f64,
    /// The last lines of its output (stdout and stderr together).
    pub tail: String,
    /// The scratch checkout, when it could not be removed: its path and
    /// why (it is left as it is).
    pub scratch_left: Option<String>,
}

/// Run `gate` for the run `id` in a scratch checkout of `commit` (which
/// must be in the object database), killing it after `timeout`; the
/// scratch checkout is gone afterwards (see the module doc).
pub fn check(
    repo: &Repo,
    gate: &ConfiguredCommand<'_>,
    (id, place): (&str, &Place),
    commit: ObjectId,
    timeout: Duration,
    env: &[(&str, &OsStr)],
) -> Result<GateRun> {
    let git = repo.git();
    let scratch = Scratch::add(repo, &git, commit)?;
    let running = Arc::new(AtomicU32::new(0));
    let pending = Arc::new(Mutex::new(Some(scratch.clone())));
    let live = if place.progress {
        crate::output::live::Live::start(place.words(id)).map(Arc::new)
    } else {
        None
    };
    let said = place.interrupted(id);
    let window = on_signal(repo, &running, &pending, (live.clone(), said));
    let hex = commit.to_string();
    let mut env = env.to_vec();
    env.push((COMMIT_ENV, OsStr::new(&hex)));
    let ran = window.child(|| scratch.check_out(&git)).and_then(|()| {
        let started = |pid| running.store(pid, Ordering::SeqCst);
        let ran = match &live {
            Some(live) => crate::configured_command::run_with_timeout_into(
                gate,
                &scratch.abs,
                &env,
                timeout,
                Some(Box::new(crate::output::live::Above(Arc::clone(live)))),
                started,
            ),
            None => crate::configured_command::run_with_timeout(
                gate,
                &scratch.abs,
                &env,
                timeout,
                // Echoed on git-loop's stderr, but not in this crate's
                // unit tests: a copy of the descriptor bypasses the test
                // harness's capture (the tests read the tail).
                cfg!(not(test)),
                started,
            ),
        };
        if let Some(live) = &live {
            live.finish();
        }
        running.store(0, Ordering::SeqCst);
        ran
    });
    let left = window.child(|| {
        let left = scratch.remove(repo, &git);
        pending.lock().unwrap_or_else(|p| p.into_inner()).take();
        left
    });
    drop(window);
    let ran = match (ran, &left) {
        (Ok(ran), _) => ran,
        (Err(e), None) => return Err(e),
        (Err(e), Some(left)) => {
            crate::signals::say(&format!("warning: {left}"));
            return Err(e);
        }
    };
    Ok(GateRun {
        command: ran.outcome.command,
        passed: ran.outcome.ok,
        exit_code: if ran.timed_out {
            None
        } else {
            ran.outcome.exit_code
        },
        timed_out: ran.timed_out,
        seconds: ran.elapsed.as_secs_f64(),
        tail: ran.tail,
        scratch_left: left,
    })
}

/// Ctrl-C or SIGTERM while the window is open: the gate's process group
/// (`running`, once it runs) killed — it is not in the terminal's
/// foreground group, so the terminal's SIGINT does not reach it — and the
/// scratch checkout (`pending`, until it is removed) removed, the status
/// line erased, then git-loop says `said` and exits (see [`RollbackWindow`]).
fn on_signal(
    repo: &Repo,
    running: &Arc<AtomicU32>,
    pending: &Arc<Mutex<Option<Scratch>>>,
    (live, said): (Option<Arc<crate::output::live::Live>>, String),
) -> RollbackWindow {
    let (running, pending) = (Arc::clone(running), Arc::clone(pending));
    let root = repo.root().to_path_buf();
    RollbackWindow::open(move || {
        let pgid = running.swap(0, Ordering::SeqCst);
        if pgid != 0 {
            crate::configured_command::timed::kill_group(pgid);
        }
        if let Some(live) = live {
            live.finish();
        }
        let scratch = pending.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let (Some(scratch), Ok(repo)) = (scratch, Repo::discover(&root))
            && let Some(left) = scratch.remove(&repo, &repo.git())
        {
            crate::signals::say(&format!("warning: {left}"));
        }
        crate::signals::say(&format!("git-loop: interrupted: {said}"));
    })
}

/// A scratch checkout this process made.
#[derive(Debug, Clone)]
struct Scratch {
    name: String,
    abs: PathBuf,
    commit: ObjectId,
    /// This process made `.land-gate/` for it: once the scratch checkout
    /// is gone, the directory goes too when nothing else is in it (a
    /// landing, refused or not, leaves no trace of its gate).
    made_dir: bool,
}

impl Scratch {
    /// Register a new scratch checkout detached at `commit` (not checked
    /// out yet), under the worktree-operation lock.
    fn add(repo: &Repo, git: &Git, commit: ObjectId) -> Result<Scratch> {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        // `.loop-worktrees/` (an empty directory git does not show) holds
        // the lock; `.land-gate/` is made under it, so that another
        // landing's `remove` cannot take it away before this one uses it.
        let loop_dir = repo.loop_dir();
        ensure_dir(&loop_dir)?;
        let _lock = OpsLock::acquire(&loop_dir, crate::signals::say)?;
        let dir = loop_dir.join(scratch::SCRATCH_DIR);
        let made_dir = ensure_dir(&dir)?;
        // A name no directory has (one with this pid may be left from a
        // process long gone).
        let (name, abs) = loop {
            let name = scratch::name(NEXT.fetch_add(1, Ordering::Relaxed));
            let abs = dir.join(&name);
            if std::fs::symlink_metadata(&abs).is_err() {
                break (name, abs);
            }
        };
        let rel = scratch::rel_path(&name);
        let added = git.worktree_add_detached(&rel, &commit.to_string());
        if !matches!(added, Ok(Ok(()))) {
            remove_dir_made(&dir, made_dir);
        }
        if let Err(failure) = added? {
            return Err(Error::from(failure));
        }
        Ok(Scratch {
            name,
            abs,
            commit,
            made_dir,
        })
    }

    /// git's own checkout of the commit into it.
    fn check_out(&self, git: &Git) -> Result<()> {
        match git.checkout_new_worktree(&self.abs)? {
            Ok(()) => Ok(()),
            Err(failure) => Err(Error::from(failure)),
        }
    }

    /// Remove it through the kernel (see the module doc); `Some(why)`,
    /// naming its path, when it stays.
    fn remove(&self, repo: &Repo, git: &Git) -> Option<String> {
        let left = |why: String| {
            Some(format!(
                "the gate's scratch checkout {} is left in place: {why}",
                self.abs.display()
            ))
        };
        let wt = match repo.worktrees() {
            Ok(all) => all.into_iter().find(|wt| wt.path == self.abs),
            Err(e) => return left(e.to_string()),
        };
        let Some(wt) = wt else {
            return left("git does not have it registered".to_owned());
        };
        let permit = match scratch::permit(
            repo.gix(),
            repo.root(),
            &self.name,
            &self.abs,
            &wt,
            self.commit,
        ) {
            Ok(Ok(permit)) => permit,
            Ok(Err(why)) => return left(why),
            Err(e) => return left(e.to_string()),
        };
        if let Err(why) = scratch::clear(&self.abs, &permit) {
            return left(why);
        }
        let rel = scratch::rel_path(&self.name);
        let unregistered =
            OpsLock::acquire(&repo.loop_dir(), crate::signals::say).and_then(|_lock| {
                let removed = crate::safety::exec::worktree_remove(git, &rel, &permit);
                if matches!(removed, Ok(Ok(())))
                    && let Some(dir) = self.abs.parent()
                {
                    remove_dir_made(dir, self.made_dir);
                }
                removed
            });
        match unregistered {
            Ok(Ok(())) => None,
            Ok(Err(refusal)) => left(format!(
                "its files are deleted, but git did not unregister it: {}",
                refusal.reason()
            )),
            Err(e) => left(format!(
                "its files are deleted, but it is still registered: {e}"
            )),
        }
    }
}

/// `d` made when missing (`true` when this call made it), refusing a
/// symlink or a file in the way.
fn ensure_dir(d: &std::path::Path) -> Result<bool> {
    match std::fs::symlink_metadata(d) {
        Ok(meta) if meta.is_dir() => Ok(false),
        Ok(_) => Err(Error::UnsafePath {
            path: d.to_path_buf(),
            reason: "it is not a directory (a symlink or a file); the gate's scratch checkouts are made inside .loop-worktrees".into(),
        }),
        Err(_) => match std::fs::create_dir(d) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
            Err(e) => Err(Error::io("could not create", d, e)),
        },
    }
}

/// `.land-gate/` removed when this process made it and it is empty
/// (`remove_dir` removes only an empty directory: another landing's
/// scratch checkout, or anything else in it, keeps it); called under the
/// worktree-operation lock.
fn remove_dir_made(dir: &std::path::Path, made: bool) {
    if made {
        let _ = std::fs::remove_dir(dir);
    }
}

#[cfg(test)]
mod tests;
