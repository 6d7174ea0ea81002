//! The gate in every attempt's own worktree, `jobs` at a time.
//!
//! Each gate runs with [`crate::configured_command::run_with_timeout_into`]:
//! `sh -c` in its own process group, stdin closed, its whole output
//! (stdout and stderr in one pipe, in order) written to the attempt's log
//! file in the git common dir ([`log_path`]: never in a worktree, so the
//! log is not a change the attempt made), killed with all it started at
//! the timeout. Before and after, the worktree's [`Snapshot`] is read:
//! the one before says whether the attempt was `dirty`, the two together
//! whether the gate wrote into the worktree.
//!
//! Ctrl-C or SIGTERM: the gates are in process groups of their own (the
//! terminal's Ctrl-C does not reach them), so the one [`RollbackWindow`]
//! of the whole judge — not one per gate — kills every group still running
//! (`running`), then git-loop exits with 128 + the signal. Nothing else is
//! to undo: judge changes no state until the events are logged.

use std::collections::HashSet;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::snapshot::{self, Snapshot};
use crate::configured_command::ConfiguredCommand;
use crate::error::{Error, Result};
use crate::signals::RollbackWindow;

/// One attempt to run the gate in.
pub struct Job {
    pub id: String,
    pub dir: PathBuf,
    pub branch: String,
    /// The run's leased ports (`create.ports`), for its `GIT_LOOP_PORT*`.
    pub ports: Vec<u16>,
    pub log: PathBuf,
}

/// How one gate went.
#[derive(Debug, Clone)]
pub struct Ran {
    pub passed: bool,
    pub exit_code: Option<i32>,
    pub timed_out: bool,
    pub seconds: f64,
    pub dirty: bool,
    pub wrote_to_worktree: bool,
}

/// `<git common dir>/git-loop/judge/<task>/<id>.log`.
pub fn log_path(common_dir: &Path, task: &str, id: &str) -> PathBuf {
    common_dir
        .join("git-loop")
        .join("judge")
        .join(task)
        .join(format!("{id}.log"))
}

/// Run `gate` for every job, `jobs` at a time; the results in the jobs'
/// order. The first error (a gate that could not be started, a worktree
/// that could not be read) is returned once every gate has ended.
pub fn run_all(
    gate: &ConfiguredCommand<'_>,
    root: &Path,
    all: &[Job],
    jobs: usize,
    timeout: Duration,
) -> Result<Vec<Ran>> {
    let running: Arc<Mutex<HashSet<u32>>> = Arc::default();
    let window = {
        let running = Arc::clone(&running);
        RollbackWindow::open(move || {
            let groups: Vec<u32> = running
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .drain()
                .collect();
            for pgid in groups {
                crate::configured_command::timed::kill_group(pgid);
            }
        })
    };
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<Ran>>>> =
        Mutex::new((0..all.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, all.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(job) = all.get(i) else { break };
                    let ran = run_one(gate, root, job, timeout, &running);
                    results.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(ran);
                }
            });
        }
    });
    drop(window);
    results
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .into_iter()
        .map(|r| r.expect("every job ran"))
        .collect()
}

fn run_one(
    gate: &ConfiguredCommand<'_>,
    root: &Path,
    job: &Job,
    timeout: Duration,
    running: &Mutex<HashSet<u32>>,
) -> Result<Ran> {
    let before: Snapshot = snapshot::take(&job.dir)?;
    let dir = job.log.parent().expect("a log is in a directory");
    std::fs::create_dir_all(dir).map_err(|e| Error::io("could not create", dir, e))?;
    let log =
        std::fs::File::create(&job.log).map_err(|e| Error::io("could not write", &job.log, e))?;
    let env = crate::configured_command::env_for(&job.id, root, &job.dir, &job.branch, &job.ports);
    let env: Vec<(&str, &OsStr)> = env.iter().map(|(k, v)| (k.as_ref(), v.as_ref())).collect();
    let mut started = None;
    let ran = crate::configured_command::run_with_timeout_into(
        gate,
        &job.dir,
        &env,
        timeout,
        Some(log),
        |pid| {
            started = Some(pid);
            running
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .insert(pid);
        },
    );
    if let Some(pid) = started {
        running
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&pid);
    }
    let ran = ran?;
    let after = snapshot::take(&job.dir)?;
    Ok(Ran {
        passed: ran.outcome.ok,
        exit_code: if ran.timed_out {
            None
        } else {
            ran.outcome.exit_code
        },
        timed_out: ran.timed_out,
        seconds: ran.elapsed.as_secs_f64(),
        dirty: before.dirty,
        wrote_to_worktree: before != after,
    })
}
