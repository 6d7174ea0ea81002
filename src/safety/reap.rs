//! May this process be terminated (`remove`/`cleanup --reap`)? Only a
//! process left working in a run's worktree that nobody sits at:
//!
//! - its working directory, as the kernel reports it (`/proc/<pid>/cwd`,
//!   resolved), is the worktree's canonical path or below it. A process
//!   found in the worktree only by (device, inode) — through a bind mount,
//!   from a container — is never reaped: its view of the path cannot be
//!   checked from here;
//! - it has no controlling terminal (`tty_nr` of `/proc/<pid>/stat` is 0),
//!   and neither has its session's leader: a person's shell, an editor, a
//!   `tmux` pane — anything a person may be typing into — is left alone
//!   and the run stays `in-use`;
//! - it is not git-loop itself, nor one of its ancestors (the shell or
//!   agent that ran it), nor pid 1, nor a zombie (already gone).
//!
//! The [`Permit`] names the process by pid *and* start time
//! (`/proc/<pid>/stat` field 22), and [`super::exec::signal_process`]
//! re-reads the start time before each signal: a pid that was reused by
//! another process meanwhile is never signalled.

use std::path::Path;

use super::{Permit, Target};

/// A process as `/proc/<pid>/stat` describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stat {
    pub state: char,
    pub ppid: u32,
    pub session: u32,
    pub tty_nr: i64,
    /// Clock ticks since boot when it started (tells a reused pid apart).
    pub start: u64,
}

/// `/proc/<pid>/stat`, read now; `None` once the process is gone.
pub fn stat(pid: u32) -> Option<Stat> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command (field 2) is in parentheses and may hold anything:
    // fields are counted after its last `)`.
    let rest = &text[text.rfind(')')? + 1..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    Some(Stat {
        state: f.first()?.chars().next()?,
        ppid: f.get(1)?.parse().ok()?,
        session: f.get(3)?.parse().ok()?,
        tty_nr: f.get(4)?.parse().ok()?,
        start: f.get(19)?.parse().ok()?,
    })
}

/// Its command line (`/proc/<pid>/cmdline`, arguments joined by spaces,
/// cut at 200 characters), or its name when that is empty.
pub fn command(pid: u32) -> String {
    let line = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    let mut text: String = String::from_utf8_lossy(&line)
        .split('\0')
        .filter(|a| !a.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    if text.is_empty() {
        text = std::fs::read_to_string(format!("/proc/{pid}/comm"))
            .unwrap_or_default()
            .trim()
            .to_owned();
    }
    if text.chars().count() > 200 {
        text = text.chars().take(200).collect::<String>() + "…";
    }
    text
}

/// git-loop's own pid and those of its ancestors (the shell, the agent or
/// the script that ran it), up to pid 1.
fn own_line() -> Vec<u32> {
    let mut line = vec![std::process::id()];
    let mut pid = std::process::id();
    for _ in 0..1024 {
        let Some(parent) = stat(pid).map(|s| s.ppid).filter(|&p| p > 1) else {
            break;
        };
        if line.contains(&parent) {
            break;
        }
        line.push(parent);
        pid = parent;
    }
    line
}

/// Leave to send `pid` SIGTERM and then SIGKILL, a process working in the
/// worktree at `worktree` (see the module doc). `Err`: why it must be left
/// alone (and the worktree kept, `in-use`).
pub fn permit(pid: u32, worktree: &Path) -> std::result::Result<Permit, String> {
    if pid <= 1 || own_line().contains(&pid) {
        return Err(format!("pid {pid} is git-loop or one of its callers"));
    }
    let Some(st) = stat(pid) else {
        return Err(format!("pid {pid} could not be read"));
    };
    if st.state == 'Z' {
        return Err(format!("pid {pid} has already exited"));
    }
    let leader_tty = stat(st.session).map_or(0, |s| s.tty_nr);
    if st.tty_nr != 0 || leader_tty != 0 {
        return Err(format!(
            "pid {pid} ({}) is attached to a terminal: not reaped",
            command(pid)
        ));
    }
    let root = worktree
        .canonicalize()
        .map_err(|e| format!("{}: {e}", worktree.display()))?;
    let cwd = std::fs::read_link(format!("/proc/{pid}/cwd")).ok();
    if !cwd.as_deref().is_some_and(|c| c.starts_with(&root)) {
        return Err(format!(
            "pid {pid} ({}) works in it through another mount: not reaped",
            command(pid)
        ));
    }
    Ok(Permit {
        what: Target::Process(pid, st.start),
        kept: Vec::new(),
    })
}
