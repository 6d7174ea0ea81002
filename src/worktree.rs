//! What a worktree holds that `git worktree remove` does not protect, and the
//! per-run lock that keeps `mark` and a removal from crossing.
//!
//! `git worktree remove` (without `--force`) refuses modified and untracked
//! files, locks and submodules. It does not refuse, and git-loop therefore
//! checks before every removal (and `list --long` shows):
//! - **an operation in progress** (`operation-in-progress`): a rebase, merge,
//!   cherry-pick, revert, `am` or bisect. Its state lives in the worktree's
//!   admin dir (`rebase-merge/`, `MERGE_HEAD`, …) and dies with it; mid-rebase,
//!   HEAD is detached on rewritten commits no branch holds yet.
//! - **commits no ref holds** (`unreachable-commits`): a detached HEAD whose
//!   commits are not contained in any branch, tag or remote-tracking branch
//!   (or a `refs/loop/` ref). The worktree's HEAD is then the last reference to
//!   them; removing the registration makes them unreachable. This holds for a
//!   registration whose directory is already gone too: reconcile keeps such a
//!   registration (and its entry) and reports it instead of dropping it.
//! - **a nested repository** (`nested-repo`): a directory below the top level
//!   holding a `.git` (a clone inside `vendor/`, ignored or not). Its own
//!   history may exist nowhere else; git would delete an ignored one silently.
//!
//! Commits reachable only from the worktree's HEAD *reflog* (made detached,
//! then left by checking a branch out again) are not checked: the branch
//! reflogs survive removal, the worktree's HEAD reflog does not. See the
//! README's limits.
//!
//! # The run lock
//!
//! `cleanup` decides which runs to remove under the manifest mutex, but runs
//! git outside it; a `git loop mark <id> active` in between must win. Before
//! removing a run's worktree, cleanup takes an exclusive `flock` on the
//! worktree *directory itself* (no file is created) and re-reads the manifest:
//! the run must still be selected (same id and `createdAt`, status still in the
//! set) or it is skipped with code `active` (or the new status). `mark` takes the
//! same lock (when the directory exists) before it takes the mutex, and holds
//! it until its write is done. So a mark that exits 0 either happened before
//! the re-check (which then sees it) or waited until the removal was over (the
//! worktree was already gone when it ran; mark says so). Lock order: ops lock,
//! run lock, manifest mutex.

use std::fs::{File, OpenOptions};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::error::{Error, Result};

/// The in-progress operation recorded in a worktree's admin dir, if any.
pub fn operation_in_progress(admin_dir: &Path) -> Option<&'static str> {
    const MARKERS: [(&str, &str); 8] = [
        ("rebase-merge", "rebase"),
        ("rebase-apply", "rebase"),
        ("MERGE_HEAD", "merge"),
        ("CHERRY_PICK_HEAD", "cherry-pick"),
        ("REVERT_HEAD", "revert"),
        ("BISECT_LOG", "bisect"),
        ("BISECT_START", "bisect"),
        ("sequencer", "cherry-pick or revert"),
    ];
    MARKERS
        .iter()
        .find(|(file, _)| admin_dir.join(file).symlink_metadata().is_ok())
        .map(|(_, what)| *what)
}

/// Directories below `dir` (relative, `/`-separated) that hold a `.git`, up to
/// `limit` of them. Symlinks are not followed; a nested repository is not
/// descended into. The top level's own `.git` is not one.
pub fn nested_repos(dir: &Path, limit: usize) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack: Vec<PathBuf> = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(dir.join(&rel)) else {
            continue;
        };
        let mut subdirs = Vec::new();
        let mut is_repo = false;
        for entry in entries.flatten() {
            let name = entry.file_name();
            if name == ".git" {
                is_repo = true;
                continue;
            }
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                subdirs.push(rel.join(name));
            }
        }
        if is_repo && !rel.as_os_str().is_empty() {
            found.push(rel.to_string_lossy().into_owned());
            if found.len() >= limit {
                break;
            }
            continue;
        }
        stack.extend(subdirs);
    }
    found.sort();
    found
}

/// The tips of every ref that keeps a commit alive for good: branches, tags,
/// remote-tracking branches and git-loop's own `refs/loop/` (tags peeled to
/// their commit). Read once per command.
pub struct RefTips {
    tips: Vec<gix::ObjectId>,
    set: std::collections::HashSet<gix::ObjectId>,
}

impl RefTips {
    pub fn read(repo: &gix::Repository) -> Result<RefTips> {
        let err = |e: &dyn std::fmt::Display| Error::Repository(e.to_string());
        let platform = repo.references().map_err(|e| err(&e))?;
        let mut set = std::collections::HashSet::new();
        for prefix in ["refs/heads/", "refs/tags/", "refs/remotes/", "refs/loop/"] {
            let iter = platform.prefixed(prefix).map_err(|e| err(&e))?;
            for r in iter {
                let Ok(mut r) = r else { continue };
                let Ok(id) = r.peel_to_id() else { continue };
                let id = id.detach();
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
    pub nested_repos: Vec<String>,
}

impl AtRisk {
    /// Read what is at risk in the worktree at `abs` (which may be gone)
    /// registered with `wt`.
    pub fn read(
        repo: &gix::Repository,
        tips: &RefTips,
        wt: &crate::git::repo::Worktree,
        abs: &Path,
    ) -> Result<AtRisk> {
        let mut risk = AtRisk::read_files(wt, abs);
        if let Some(head) = wt.detached_head {
            risk.unreachable_commits = tips.unreachable_from(repo, head, 1000)?;
        }
        Ok(risk)
    }

    /// What the files alone tell: an operation in progress, nested
    /// repositories (`unreachable_commits` is left at 0).
    pub fn read_files(wt: &crate::git::repo::Worktree, abs: &Path) -> AtRisk {
        let operation = operation_in_progress(&wt.admin_dir);
        // Submodules (their repositories under `<admin>/modules`) keep the
        // worktree anyway: git refuses it, with its own code and help.
        let submodules = wt.admin_dir.join("modules").is_dir();
        let nested_repos = if abs.is_dir() && !submodules {
            nested_repos(abs, 10)
        } else {
            Vec::new()
        };
        AtRisk {
            operation,
            unreachable_commits: 0,
            nested_repos,
        }
    }

    /// The skip this calls for, most specific first: an operation in
    /// progress (which usually also detaches HEAD), then unreachable commits,
    /// then nested repositories.
    pub fn skip(&self) -> Option<crate::commands::Skip> {
        use crate::commands::Skip;
        if let Some(op) = self.operation {
            return Some(Skip::new(
                format!(
                    "a {op} is in progress in it; finish or abort it first (its state would be lost with the worktree)"
                ),
                "operation-in-progress",
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
                "unreachable-commits",
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
                "nested-repo",
            ));
        }
        None
    }
}

/// An exclusive `flock` on a run's worktree directory (see the module doc).
/// Dropping it releases it; the kernel releases it if the process dies.
#[derive(Debug)]
pub struct RunLock {
    _dir: File,
}

/// How long `mark` waits for a removal of that run to finish.
pub const RUN_LOCK_DEADLINE: Duration = Duration::from_secs(60);

impl RunLock {
    /// Lock the worktree directory at `dir`. `Ok(None)` when it does not
    /// exist (or is not a real directory): there is nothing to protect.
    pub fn acquire(dir: &Path, deadline: Duration) -> Result<Option<RunLock>> {
        let file = match OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(dir)
        {
            Ok(f) => f,
            Err(_) => return Ok(None),
        };
        let start = Instant::now();
        let mut backoff = Duration::from_millis(2);
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(Some(RunLock { _dir: file })),
                Err(std::fs::TryLockError::WouldBlock) => {
                    if start.elapsed() >= deadline {
                        return Err(Error::RunBusy {
                            path: dir.to_path_buf(),
                            waited: deadline.as_secs(),
                        });
                    }
                    std::thread::sleep(backoff);
                    backoff = (backoff * 2).min(Duration::from_millis(50));
                }
                Err(std::fs::TryLockError::Error(e)) => {
                    return Err(Error::io("could not lock", dir, e));
                }
            }
        }
    }
}
