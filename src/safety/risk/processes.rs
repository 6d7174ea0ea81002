//! Who works in a worktree: the working directories of running processes,
//! read once per command (the `in-use` check of the parent module).
//!
//! A process is in the worktree when:
//! - **by path** (the fast path): the cwd the kernel reports (`readlink`,
//!   already resolved: no symlinks, no `..`) is the worktree's canonical path
//!   or below it; or
//! - **by identity**: the directory its cwd leads to, or one of its
//!   ancestors, has the worktree directory's (device, inode). A process that
//!   works in the worktree through a bind mount (a container's view of it,
//!   another mount namespace) reports a path elsewhere, but it is the same
//!   directory. `/proc/<pid>/cwd` is stat'ed through the link (which leads
//!   into the process's own mount namespace), and its ancestors through
//!   `/proc/<pid>/cwd/..`, `../..`, … — never by the path it reports.
//!
//! What this costs, and the trade-off: one `stat` of each process's cwd per
//! command (the device is needed to know whether to look further), through
//! the kernel's link rather than a path lookup; a cwd on a hung network
//! mount can still block that one `stat` (the process in it is then stuck
//! too). Only a cwd on the worktree's own filesystem is walked up, once per
//! command (the chain of (device, inode) is kept for every worktree
//! checked), and the walk stops where it leaves that filesystem, at the root
//! or after 256 levels: a process whose cwd is on another filesystem mounted
//! inside the worktree is found by path only. Only the worktree's own path
//! is canonicalized.

use std::path::{Path, PathBuf};

/// The working directories of running processes, read once per command
/// (see the module doc).
#[derive(Debug, Default)]
pub struct Processes {
    cwds: Vec<Cwd>,
}

/// One process's working directory: the path the kernel reports (resolved,
/// in the reader's view) and, on Linux, its `/proc/<pid>/cwd` link with the
/// (device, inode) of the directory it leads to.
#[derive(Debug)]
struct Cwd {
    pid: u32,
    path: Option<PathBuf>,
    link: Option<PathBuf>,
    id: Option<(u64, u64)>,
    /// (device, inode) of the directory and its ancestors on its
    /// filesystem, walked up through `link` once, when first needed.
    up: std::sync::OnceLock<Vec<(u64, u64)>>,
}

/// (device, inode) of what `path` leads to, links followed.
fn file_id(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

/// How many `..` the walk up from a process's working directory takes at
/// most (deeper directories are not followed further).
const MAX_DEPTH: usize = 256;

impl Cwd {
    /// The directory `link` leads to, or one of its ancestors, is `target`
    /// (see the module doc). Only a directory on `target`'s filesystem is
    /// walked up, and only while the walk stays on it.
    fn below(&self, target: (u64, u64)) -> bool {
        let (Some(link), Some(id)) = (&self.link, self.id) else {
            return false;
        };
        if id.0 != target.0 {
            return false;
        }
        self.up
            .get_or_init(|| {
                let mut chain = vec![id];
                let mut up = link.clone();
                for _ in 0..MAX_DEPTH {
                    up.push("..");
                    match file_id(&up) {
                        // Not the root (whose `..` is itself), still on
                        // the same filesystem.
                        Some(parent) if parent != chain[chain.len() - 1] && parent.0 == id.0 => {
                            chain.push(parent);
                        }
                        _ => break,
                    }
                }
                chain
            })
            .contains(&target)
    }
}

impl Processes {
    /// This process's working directory and, on Linux, every readable
    /// `/proc/<pid>/cwd` (its path and its directory's device and inode).
    pub fn scan() -> Processes {
        let own = std::process::id();
        let mut cwds = Vec::new();
        if let Ok(dir) = std::env::current_dir() {
            let link = cfg!(target_os = "linux").then(|| PathBuf::from("/proc/self/cwd"));
            cwds.push(Cwd {
                pid: own,
                id: file_id(&dir),
                path: Some(dir.canonicalize().unwrap_or(dir)),
                link,
                up: std::sync::OnceLock::new(),
            });
        }
        #[cfg(target_os = "linux")]
        if let Ok(entries) = std::fs::read_dir("/proc") {
            for entry in entries.flatten() {
                let name = entry.file_name();
                let Some(pid) = name.to_str().and_then(|n| n.parse::<u32>().ok()) else {
                    continue;
                };
                if pid == own {
                    continue;
                }
                let link = entry.path().join("cwd");
                let path = std::fs::read_link(&link).ok();
                // Through the link, in the process's own mount namespace:
                // one stat of the directory it is in (see the module doc).
                let id = file_id(&link);
                if path.is_some() || id.is_some() {
                    cwds.push(Cwd {
                        pid,
                        path,
                        link: Some(link),
                        id,
                        up: std::sync::OnceLock::new(),
                    });
                }
            }
        }
        Processes { cwds }
    }

    /// The pids whose working directory is `dir` or below it, ascending
    /// (none when `dir` does not exist): by path, or else by device and
    /// inode (through a bind mount, another mount namespace).
    pub fn inside(&self, dir: &Path) -> Vec<u32> {
        let Ok(dir) = dir.canonicalize() else {
            return Vec::new();
        };
        let target = file_id(&dir);
        let mut pids: Vec<u32> = self
            .cwds
            .iter()
            .filter(|cwd| {
                cwd.path.as_ref().is_some_and(|p| p.starts_with(&dir))
                    || target.is_some_and(|t| cwd.below(t))
            })
            .map(|cwd| cwd.pid)
            .collect();
        pids.sort_unstable();
        pids.dedup();
        pids
    }
}
