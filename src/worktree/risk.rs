//! What a worktree holds that `git worktree remove` does not protect: an
//! operation in progress, commits only its detached HEAD holds, nested
//! repositories (see the parent module's doc).

use std::path::{Path, PathBuf};

use super::{Skip, SkipCode};
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
        None
    }
}
