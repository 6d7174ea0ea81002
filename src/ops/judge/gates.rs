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
//! On a terminal (neither `--json` nor `--quiet`), a status line redrawn in
//! place ([`crate::output::live`]) says how many gates passed, failed and
//! run, for how long, and the last line an attempt's gate wrote to its log
//! (with its id); it is erased when the last gate ends.
//!
//! Ctrl-C or SIGTERM: the gates are in process groups of their own (the
//! terminal's Ctrl-C does not reach them), so the one [`RollbackWindow`]
//! of the whole judge — not one per gate — kills every group still running
//! (`running`; a gate that starts as it does is killed at once, and no
//! other starts), says what did and did not happen when the signal came (`interrupted: judge of
//! fix stopped: fix.1 passed; fix.2's gate stopped; fix.3 not started;
//! nothing recorded`), then git-loop exits with 128 + the signal. Nothing
//! else is to undo: judge changes no state until the events are logged.

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

/// Where each attempt's gate is.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Stage {
    Waiting,
    Running,
    Passed,
    Failed,
}

/// The process groups of the gates running; `None` once a signal stopped
/// them: a gate that starts then is killed at once.
type Running = Arc<Mutex<Option<HashSet<u32>>>>;

fn lock_running(running: &Running) -> std::sync::MutexGuard<'_, Option<HashSet<u32>>> {
    running.lock().unwrap_or_else(|p| p.into_inner())
}

/// Every attempt's id and [`Stage`], in the jobs' order.
type Stages = Arc<Mutex<Vec<(String, Stage)>>>;

fn lock_stages(all: &Stages) -> std::sync::MutexGuard<'_, Vec<(String, Stage)>> {
    all.lock().unwrap_or_else(|p| p.into_inner())
}

/// The status line's words: `judge fix: 1 passed, 1 failed, 2 running of
/// 5: 12s: fix.3: <its last line>`.
fn words(task: &str, all: &Stages) -> crate::output::live::Words {
    let (task, all) = (crate::style::escape(task).into_owned(), Arc::clone(all));
    Box::new(move |spent, last| {
        let all = lock_stages(&all);
        let count = |s: Stage| all.iter().filter(|(_, at)| *at == s).count();
        let mut said = format!(
            "judge {task}: {} passed, {} failed, {} running of {}: {}s",
            count(Stage::Passed),
            count(Stage::Failed),
            count(Stage::Running),
            all.len(),
            spent.as_secs()
        );
        if !last.is_empty() {
            said.push_str(": ");
            said.push_str(last);
        }
        said
    })
}

/// What an interrupt leaves, in words: `judge of fix stopped: fix.1
/// passed; fix.2's gate stopped; fix.3 not started; nothing recorded`.
fn interrupted(task: &str, all: &Stages) -> String {
    let all = lock_stages(all);
    let ids = |s: Stage| -> Vec<String> {
        all.iter()
            .filter(|(_, at)| *at == s)
            .map(|(id, _)| crate::style::escape(id).into_owned())
            .collect()
    };
    let mut said = Vec::new();
    for (stage, how) in [(Stage::Passed, "passed"), (Stage::Failed, "failed")] {
        let ids = ids(stage);
        if !ids.is_empty() {
            said.push(format!("{} {how}", ids.join(", ")));
        }
    }
    let stopped = ids(Stage::Running);
    match stopped.len() {
        0 => {}
        1 => said.push(format!("{}'s gate stopped", stopped[0])),
        _ => said.push(format!("the gates of {} stopped", stopped.join(", "))),
    }
    let waiting = ids(Stage::Waiting);
    if !waiting.is_empty() {
        said.push(format!("{} not started", waiting.join(", ")));
    }
    said.push("nothing recorded (no judge event logged)".to_owned());
    format!(
        "judge of {} stopped: {}",
        crate::style::escape(task),
        said.join("; ")
    )
}

/// Run `gate` for every job of `task`, `jobs` at a time; the results in
/// the jobs' order. The first error (a gate that could not be started, a
/// worktree that could not be read) is returned once every gate has ended.
/// `progress`: the status line (see the module doc).
pub fn run_all(
    gate: &ConfiguredCommand<'_>,
    (root, task): (&Path, &str),
    all: &[Job],
    (jobs, timeout): (usize, Duration),
    progress: bool,
) -> Result<Vec<Ran>> {
    let running: Running = Arc::new(Mutex::new(Some(HashSet::new())));
    let stages: Stages = Arc::new(Mutex::new(
        all.iter().map(|j| (j.id.clone(), Stage::Waiting)).collect(),
    ));
    let live = if progress {
        crate::output::live::Live::start(words(task, &stages)).map(Arc::new)
    } else {
        None
    };
    let window = {
        let running = Arc::clone(&running);
        let (live, stages, task) = (live.clone(), Arc::clone(&stages), task.to_owned());
        RollbackWindow::open(move || {
            // What was so when the signal came (the gates killed next
            // would read as failed).
            let said = interrupted(&task, &stages);
            // No gate starts after this (see `run_one`).
            let groups = lock_running(&running).take().unwrap_or_default();
            for pgid in groups {
                crate::configured_command::timed::kill_group(pgid);
            }
            if let Some(live) = live {
                live.finish();
            }
            crate::signals::say(&format!("git-loop: interrupted: {said}"));
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
                    if lock_running(&running).is_none() {
                        break;
                    }
                    lock_stages(&stages)[i].1 = Stage::Running;
                    let ran = run_one(gate, root, job, timeout, (&running, live.as_ref()));
                    let passed = matches!(&ran, Ok(r) if r.passed);
                    lock_stages(&stages)[i].1 = if passed { Stage::Passed } else { Stage::Failed };
                    results.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(ran);
                }
            });
        }
    });
    if let Some(live) = &live {
        live.finish();
    }
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
    (running, live): (&Running, Option<&Arc<crate::output::live::Live>>),
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
        Some(match live {
            Some(live) => Box::new(crate::output::live::Teed {
                inner: log,
                live: Arc::clone(live),
                prefix: format!("{}: ", crate::style::escape(&job.id)),
            }),
            None => Box::new(log),
        }),
        |pid| {
            started = Some(pid);
            match lock_running(running).as_mut() {
                Some(groups) => {
                    groups.insert(pid);
                }
                // Started as a signal stopped the others: stopped too.
                None => crate::configured_command::timed::kill_group(pid),
            }
        },
    );
    if let (Some(pid), Some(groups)) = (started, lock_running(running).as_mut()) {
        groups.remove(&pid);
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
