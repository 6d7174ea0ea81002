//! What a worktree holds that `git worktree remove` does not protect: an
//! operation in progress, commits only its detached HEAD holds, nested
//! repositories, what git could not delete (see the parent module's doc) —
//! and who is in it: a running process whose working directory is the
//! worktree or below it (`in-use`).
//!
//! # In use
//!
//! A shell `cd`'d into a run's worktree, an editor, a build or an agent still
//! working there: removing the directory pulls it out from under them (their
//! next write fails, or lands in a directory nobody can reach). On Linux every
//! `/proc/<pid>/cwd` is read once per command ([`Processes::scan`]); processes
//! whose cwd cannot be read (another user's, gone since) are skipped. The
//! invoking process counts too (`std::env::current_dir()`), and elsewhere that
//! is the only check. A process is in the worktree when its cwd is the
//! worktree or below it by path (the fast path) or by device and inode (a
//! process working in it through a bind mount); see [`Processes`] (the
//! `processes` module) for how, what it costs and what it cannot see. A
//! process that enters the worktree after the scan is not seen: the check
//! narrows the window, it cannot close it.
//!
//! `in-use` is reported last, after operation-in-progress, unreachable-commits
//! and nested-repo: those are facts about what the worktree holds and stay
//! until someone acts, while `in-use` says only that someone is there now and
//! ends by itself when they leave. Reported first, a passing reason would hide
//! a lasting one (the user would leave the directory, clean up again, and only
//! then learn of the rebase they left in it).

use std::path::{Path, PathBuf};

use super::skip::{Skip, SkipCode};
use crate::error::{Error, Result};

mod scan;
pub use scan::{TreeScan, scan_tree};
mod processes;
pub use processes::Processes;

/// The in-progress operation recorded in a worktree's admin dir, if any.
/// (The one list of markers is the safety kernel's.)
pub fn operation_in_progress(admin_dir: &Path) -> Option<&'static str> {
    crate::safety::operation_in_progress(admin_dir).map(|(_, what)| what)
}

/// Index entries of the worktree at `dir` flagged assume-unchanged or
/// skip-worktree whose file is there and differs from the entry (raw bytes
/// against the blob: a file that a filter would convert counts as changed).
/// Absent files (a sparse checkout's) are fine. Up to `limit` paths.
pub fn hidden_changes(dir: &Path, limit: usize) -> Vec<String> {
    use gix::index::entry::{Flags, Mode};
    use std::os::unix::ffi::OsStrExt;
    // No readable `.git` or index: git's own removal fails on it too, and a
    // leftover is finished only when its files equal its commit's.
    let Ok(repo) = gix::open(dir) else {
        return Vec::new();
    };
    let Ok(index) = repo.index_or_empty() else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for e in index.entries() {
        if !e
            .flags
            .intersects(Flags::ASSUME_VALID | Flags::SKIP_WORKTREE)
        {
            continue;
        }
        let rel = e.path(&index);
        let Ok(rel_path) = gix::path::from_bstr(rel) else {
            found.push(rel.to_string());
            continue;
        };
        let path = dir.join(rel_path);
        let Ok(meta) = path.symlink_metadata() else {
            continue;
        };
        let bytes = if e.mode == Mode::SYMLINK && meta.file_type().is_symlink() {
            std::fs::read_link(&path)
                .ok()
                .map(|t| t.as_os_str().as_bytes().to_vec())
        } else if meta.is_file() && e.mode != Mode::SYMLINK && e.mode != Mode::COMMIT {
            std::fs::read(&path).ok()
        } else {
            None
        };
        let same = bytes.is_some_and(|b| {
            gix::objs::compute_hash(repo.object_hash(), gix::objs::Kind::Blob, &b)
                .is_ok_and(|id| id == e.id)
        });
        if !same {
            found.push(rel.to_string());
            if found.len() >= limit {
                break;
            }
        }
    }
    found
}

/// The tips of every ref that keeps a commit alive for good (the safety
/// kernel's set, [`crate::safety::holding_prefixes`]: branches, tags,
/// remote-tracking branches and git-loop's own `refs/loop/` but its trash,
/// whose entries expire; tags peeled to their commit). Read once per command.
pub struct RefTips {
    tips: Vec<gix::ObjectId>,
    set: std::collections::HashSet<gix::ObjectId>,
}

impl RefTips {
    pub fn read(repo: &gix::Repository) -> Result<RefTips> {
        let mut set = std::collections::HashSet::new();
        for prefix in crate::safety::holding_prefixes() {
            for (name, value) in crate::git::refs::prefixed(repo, prefix)? {
                if !crate::safety::holds_for_good(&name) {
                    continue;
                }
                let Some(id) = crate::git::refs::peel(repo, &value) else {
                    continue;
                };
                if prefix == "refs/tags/" {
                    // A tag may point at a tree or blob: only commits count.
                    let is_commit = repo
                        .find_header(id)
                        .is_ok_and(|h| h.kind() == gix::object::Kind::Commit);
                    if !is_commit {
                        continue;
                    }
                }
                set.insert(id);
            }
        }
        Ok(RefTips {
            tips: set.iter().copied().collect(),
            set,
        })
    }

    /// How many commits reachable from `head` no ref contains (0 when
    /// `head` is held), counting at most `limit`.
    pub fn unreachable_from(
        &self,
        repo: &gix::Repository,
        head: gix::ObjectId,
        limit: usize,
    ) -> Result<usize> {
        if self.set.contains(&head) {
            return Ok(0);
        }
        let walk = repo
            .rev_walk([head])
            .with_hidden(self.tips.iter().copied())
            .all()
            .map_err(|e| Error::Repository(e.to_string()))?;
        let mut n = 0;
        for info in walk {
            info.map_err(|e| Error::Repository(e.to_string()))?;
            n += 1;
            if n >= limit {
                break;
            }
        }
        Ok(n)
    }
}

/// What, besides what git itself refuses, makes a worktree unsafe to remove.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AtRisk {
    pub operation: Option<&'static str>,
    /// Commits only the worktree's detached HEAD holds (at most 1000 counted).
    pub unreachable_commits: usize,
    /// Its `HEAD` could not be read (neither a branch nor a commit): what
    /// only it holds cannot be checked.
    pub head_unknown: bool,
    pub nested_repos: Vec<String>,
    /// The first entry `git worktree remove` could not delete (see
    /// [`scan_tree`]): asking git would strand a half-removed run.
    pub undeletable: Option<String>,
    /// Tracked files flagged assume-unchanged or skip-worktree whose file
    /// differs from the index: git does not see the change, and `git
    /// worktree remove` would delete it (at most 10 named).
    pub hidden_changes: Vec<String>,
    /// Processes whose working directory is the worktree or inside it,
    /// ascending (see the module doc).
    pub in_use: Vec<u32>,
}

impl AtRisk {
    /// What the files alone tell: an operation in progress, nested
    /// repositories, what git could not delete (`unreachable_commits` is
    /// left at 0, `in_use` empty).
    pub fn read_files(wt: &crate::git::repo::Worktree, abs: &Path) -> AtRisk {
        let operation = operation_in_progress(&wt.admin_dir);
        // Submodules (their repositories under `<admin>/modules`) keep the
        // worktree anyway: git refuses it, with its own code and help.
        let submodules = wt.admin_dir.join("modules").is_dir();
        let scan = if abs.is_dir() && !submodules {
            scan_tree(abs, 10)
        } else {
            TreeScan::default()
        };
        AtRisk {
            operation,
            unreachable_commits: 0,
            head_unknown: false,
            nested_repos: scan.nested_repos,
            undeletable: scan.undeletable,
            hidden_changes: if abs.is_dir() {
                hidden_changes(abs, 10)
            } else {
                Vec::new()
            },
            in_use: Vec::new(),
        }
    }

    /// What `list --long` shows of it: an operation in progress and the
    /// nested repositories (found as [`AtRisk::read_files`] finds them,
    /// without asking what git could not delete: [`scan::nested_repos`]).
    pub fn read_for_list(wt: &crate::git::repo::Worktree, abs: &Path) -> AtRisk {
        let submodules = wt.admin_dir.join("modules").is_dir();
        AtRisk {
            operation: operation_in_progress(&wt.admin_dir),
            nested_repos: if abs.is_dir() && !submodules {
                scan::nested_repos(abs, 10)
            } else {
                Vec::new()
            },
            ..AtRisk::default()
        }
    }

    /// The skip this calls for, most specific first: an operation in
    /// progress (which usually also detaches HEAD), then unreachable commits,
    /// then nested repositories, hidden changes, something git cannot delete,
    /// then processes working in it (last: see the module doc).
    pub fn skip(&self) -> Option<Skip> {
        if let Some(op) = self.operation {
            return Some(Skip::new(
                format!(
                    "a {op} is in progress in it; finish or abort it first (its state would be lost with the worktree)"
                ),
                SkipCode::OperationInProgress,
            ));
        }
        if self.unreachable_commits > 0 {
            let n = self.unreachable_commits;
            let more = if n >= 1000 { "1000 or more" } else { "" };
            let count = if more.is_empty() {
                n.to_string()
            } else {
                more.to_owned()
            };
            return Some(Skip::new(
                format!(
                    "its detached HEAD holds {count} commit{} that no branch or tag contains; keep {} with `git branch <name> <commit>` (the worktree's HEAD) first",
                    if n == 1 { "" } else { "s" },
                    if n == 1 { "it" } else { "them" }
                ),
                SkipCode::UnreachableCommits,
            ));
        }
        if self.head_unknown {
            return Some(Skip::new(
                "its HEAD cannot be read (neither a branch nor a commit): commits only it holds could not be looked for; `git -C <worktree> status` says what git sees".to_owned(),
                SkipCode::Error,
            ));
        }
        if let Some(first) = self.nested_repos.first() {
            let others = self.nested_repos.len() - 1;
            return Some(Skip::new(
                format!(
                    "it contains a nested repository at {first}{}, whose history may exist nowhere else",
                    if others > 0 {
                        format!(" (and {others} more)")
                    } else {
                        String::new()
                    }
                ),
                SkipCode::NestedRepo,
            ));
        }
        if let Some(first) = self.hidden_changes.first() {
            return Some(Skip::new(
                format!(
                    "{first} is flagged assume-unchanged or skip-worktree and differs from the index: git does not see the change and would delete it; `git update-index --no-assume-unchanged --no-skip-worktree -- {first}` first"
                ),
                SkipCode::Dirty,
            ));
        }
        if let Some(why) = &self.undeletable {
            return Some(Skip::new(why.clone(), SkipCode::Undeletable));
        }
        if !self.in_use.is_empty() {
            return Some(Skip::new(in_use_reason(&self.in_use), SkipCode::InUse));
        }
        None
    }
}

/// "a process is working in it: sleep (pid 4242); …", naming at most ten.
fn in_use_reason(pids: &[u32]) -> String {
    const SHOWN: usize = 10;
    // git-loop itself, and the `git` that ran it (`git loop …`, git's own
    // alias expansion: each `git` up the chain), started from inside the
    // worktree: said once, as that, not as pids the user never saw (the
    // shell they typed in, also there, is named on its own).
    let ours = launchers();
    let mut named: Vec<String> = Vec::new();
    let mut said_ours = false;
    for &pid in pids.iter().take(SHOWN) {
        if ours.contains(&pid) {
            if !said_ours {
                named.push("this git-loop (it was run from inside it)".to_owned());
                said_ours = true;
            }
            continue;
        }
        named.push(match command_name(pid) {
            Some(comm) => format!("{comm} (pid {pid})"),
            None => format!("pid {pid}"),
        });
    }
    if pids.len() > SHOWN {
        named.push(format!("{} more", pids.len() - SHOWN));
    }
    let (who, them) = if pids.len() == 1 {
        ("a process is", "it")
    } else {
        ("processes are", "them")
    };
    format!(
        "{who} working in it: {}; removing it would pull the directory out from under {them}: leave it (cd elsewhere) or end {them}, then try again",
        named.join(", ")
    )
}

/// This process and the `git` processes up its chain of parents that ran
/// it (`git loop` runs `git-loop`; an alias may add a `git` more).
fn launchers() -> Vec<u32> {
    let mut ours = vec![std::process::id()];
    let mut parent = std::os::unix::process::parent_id();
    while parent > 1 && ours.len() < 8 && command_name(parent).as_deref() == Some("git") {
        ours.push(parent);
        parent = parent_of(parent).unwrap_or(0);
    }
    ours
}

/// The parent of `pid` (`/proc/<pid>/stat`'s fourth field), when readable.
fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name, in parentheses, may hold spaces: read after it.
    let rest = stat.rsplit_once(')')?.1;
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// The command name of `pid` (`/proc/<pid>/comm`), when it can be read.
fn command_name(pid: u32) -> Option<String> {
    let path = PathBuf::from(format!("/proc/{pid}/comm"));
    let bytes = crate::fsx::read_regular(&path, 64).ok()??;
    let name = String::from_utf8_lossy(&bytes).trim_end().to_owned();
    (!name.is_empty()).then_some(name)
}
