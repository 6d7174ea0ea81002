//! `remove --reap` / `cleanup --reap`: the processes left working in a run's
//! worktree (a dev server, a watcher, an agent's background job) are
//! terminated before the worktree is removed, instead of keeping it
//! `in-use` for ever.
//!
//! Only when the worktree would otherwise be removed: nothing else at risk
//! (no operation in progress, no commits only it holds, no nested
//! repository) and, unless `--salvage` saves them first, no changes git
//! would refuse to remove. Each process the safety kernel allows
//! ([`crate::safety::reap::permit`]: inside the worktree by its own path,
//! no terminal, not git-loop or its callers) is sent `SIGTERM`; those still
//! there after [`GRACE`] get `SIGKILL`. A process on a terminal (a person's
//! shell) is never signalled: the run stays `in-use`, and the skip says
//! which process kept it. Each process terminated is logged (`reap` event:
//! pid, command, and whether it needed `SIGKILL`).

use std::time::{Duration, Instant};

use super::Remover;
use crate::error::Result;
use crate::safety::{exec, reap};

/// How long a process has to exit after `SIGTERM` before it gets `SIGKILL`.
pub const GRACE: Duration = Duration::from_secs(2);

/// One process `--reap` terminated.
#[derive(Debug, Clone)]
pub struct Reaped {
    pub pid: u32,
    pub command: String,
    /// It outlived the grace period and was sent `SIGKILL`.
    pub killed: bool,
}

impl Reaped {
    /// Its `reap` event for run `id`.
    pub fn event(&self, id: &str) -> crate::events::Event {
        let mut event = crate::events::Event::new(crate::events::EventKind::Reap, id);
        let signal = if self.killed { "SIGKILL" } else { "SIGTERM" };
        event.detail = Some(format!("pid {} ({}): {signal}", self.pid, self.command));
        event
    }
}

/// What reaping a worktree did: the processes terminated, and why the
/// others were left (each keeps the run `in-use`).
#[derive(Debug, Default)]
pub struct Reaping {
    pub reaped: Vec<Reaped>,
    pub left: Vec<String>,
}

/// Whether the process the permit is for is gone (exited, a zombie, or its
/// pid now another process's).
fn gone(pid: u32, start: u64) -> bool {
    reap::stat(pid).is_none_or(|s| s.start != start || s.state == 'Z')
}

/// Terminate the processes working in run `id`'s worktree when that is
/// all that keeps it (see the module doc); `salvage`: its changes will be
/// saved first, so they do not keep it.
pub fn reap_worktree(r: &Remover<'_>, id: &str, salvage: bool) -> Result<Reaping> {
    let mut done = Reaping::default();
    let abs = r.loop_dir.join(id);
    let Some(wt) = r.registration(id) else {
        return Ok(done);
    };
    let risk = r.at_risk(wt, &abs)?;
    if risk.in_use.is_empty() || !only_in_use(risk) {
        return Ok(done);
    }
    if !salvage {
        match crate::git::repo::cleanliness(&abs, &wt.admin_dir) {
            Ok(c) if !c.modified && !c.untracked && !c.submodules => {}
            _ => return Ok(done),
        }
    }
    let mut alive = Vec::new();
    for pid in crate::worktree::Processes::scan().inside(&abs) {
        match reap::permit(pid, &abs) {
            Ok(permit) => {
                let command = reap::command(pid);
                let start = permit.process_start(pid).expect("a permit for pid");
                if exec::signal_process(pid, false, &permit)? {
                    alive.push((pid, start, command, permit));
                }
            }
            Err(why) => done.left.push(why),
        }
    }
    wait_for(&mut alive, GRACE, &mut done, false);
    for (pid, _, _, permit) in &alive {
        exec::signal_process(*pid, true, permit)?;
    }
    wait_for(&mut alive, Duration::from_secs(2), &mut done, true);
    for (pid, _, command, _) in alive {
        done.left
            .push(format!("pid {pid} ({command}) did not exit after SIGKILL"));
    }
    let pids: Vec<u32> = done.reaped.iter().map(|p| p.pid).collect();
    r.checks.forget_processes(&pids);
    Ok(done)
}

/// Wait up to `limit` for the processes in `alive` to go; each one gone is
/// moved to `done` (`killed`: it was sent SIGKILL).
fn wait_for(
    alive: &mut Vec<(u32, u64, String, crate::safety::Permit)>,
    limit: Duration,
    done: &mut Reaping,
    killed: bool,
) {
    let until = Instant::now() + limit;
    loop {
        alive.retain(|(pid, start, command, _)| {
            if !gone(*pid, *start) {
                return true;
            }
            done.reaped.push(Reaped {
                pid: *pid,
                command: command.clone(),
                killed,
            });
            false
        });
        if alive.is_empty() || Instant::now() >= until {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Nothing but processes keeps the worktree (see [`super::AtRisk`]).
fn only_in_use(mut risk: super::AtRisk) -> bool {
    risk.in_use.clear();
    risk.skip().is_none()
}

/// The note of a removal that reaped: which processes it terminated.
pub fn note(reaped: &[Reaped], note: Option<String>) -> Option<String> {
    if reaped.is_empty() {
        return note;
    }
    let list: Vec<String> = reaped
        .iter()
        .map(|p| format!("pid {} ({})", p.pid, p.command))
        .collect();
    let text = format!("terminated the processes left in it: {}", list.join(", "));
    Some(match note {
        Some(n) => format!("{n}; {text}"),
        None => text,
    })
}
