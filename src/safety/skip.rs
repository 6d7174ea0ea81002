//! Why a worktree was left alone: a machine code and a reason, the same in
//! cleanup, reconcile and their dry runs. The codes are a vocabulary
//! ([`crate::vocab`]): a new one is a line of [`SkipCode`]'s list and of
//! docs/cli.md's (`docs_sync` holds the two together).

use crate::manifest::Status;

crate::vocab::vocabulary! {
    /// The machine code on every skipped entry (`"code"` in JSON, kebab-case).
    pub enum SkipCode {
        /// Changes to tracked files, staged or not.
        Dirty = "dirty",
        /// Files git neither tracks nor ignores.
        Untracked = "untracked",
        Locked = "locked",
        /// Populated submodules: git removes such a worktree only with `--force`.
        Submodules = "submodules",
        /// Not a worktree of this repository (another clone's, a plain
        /// directory, a symlink).
        ForeignClone = "foreign-clone",
        /// An orphan under `--min-age`: a create may not have recorded it yet.
        TooYoung = "too-young",
        /// `cleanup.pre-command` exited non-zero.
        HookRefused = "hook-refused",
        /// Any other refusal of `git worktree remove`.
        GitRefused = "git-refused",
        /// A detached HEAD holds commits no ref contains.
        UnreachableCommits = "unreachable-commits",
        /// A rebase, merge, cherry-pick, revert, `am` or bisect in progress.
        OperationInProgress = "operation-in-progress",
        /// A repository nested inside the worktree.
        NestedRepo = "nested-repo",
        /// Something in it git could not delete (an immutable file, a directory
        /// the user may not delete from): asking git would leave it
        /// half-removed. Nothing was touched.
        Undeletable = "undeletable",
        /// A run's directory whose registration git already deleted (a removal
        /// that failed part way): what is left is kept unless provably
        /// disposable.
        HalfRemoved = "half-removed",
        /// A running process has its working directory in it (the invoking
        /// shell included).
        InUse = "in-use",
        /// A run the landing queue lands next (its status is in
        /// `land.queue-status`), kept by a cleanup that was not asked for that
        /// status (`--status` or `cleanup.status`).
        Queued = "queued",
        /// Its manifest entry was replaced after cleanup selected it.
        Changed = "changed",
        /// It could not be handled (the error is also the command's).
        Error = "error",
    }
    /// Marked with this status after cleanup selected it (`active` above
    /// all): the code is the status's name.
    carries Remarked(Status);
    description "Why an entry was left alone (a status name: it was marked so after it was selected)";
}

impl SkipCode {
    /// Whether the entry holds uncommitted work its owner should look at.
    pub fn is_uncommitted_work(self) -> bool {
        matches!(self, SkipCode::Dirty | SkipCode::Untracked)
    }
}

/// An entry cleanup or reconcile left alone, with git's (or git-loop's)
/// reason and a machine code.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct SkippedEntry {
    pub id: String,
    pub path: String,
    pub reason: String,
    pub code: SkipCode,
    /// What to check before removing it by hand (worktrees with submodules).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
}

/// What to check before removing a worktree with submodules by hand: git
/// will not remove it without `--force`, and `--force` deletes whatever the
/// submodules hold that exists nowhere else.
pub fn submodule_help(path: &str) -> String {
    format!(
        "git removes a worktree with submodules only with --force, which git-loop never uses. Before removing it by hand, check each submodule for uncommitted work and for commits not on any remote: `git -C {path} submodule foreach --recursive 'git status --short; git log --oneline --branches --not --remotes'`; when both print nothing, `git worktree remove --force {path}`"
    )
}

impl SkippedEntry {
    pub fn new(id: &str, skip: Skip) -> SkippedEntry {
        let path = crate::runid::rel_path(id);
        SkippedEntry {
            id: id.to_owned(),
            help: (skip.code == SkipCode::Submodules).then(|| submodule_help(&path)),
            path,
            code: skip.code,
            reason: skip.reason,
        }
    }

    /// The reason in git-loop's words, for human output. git's refusals end
    /// in advice for a tool git-loop is not ("use --force to delete it",
    /// "use 'remove -f -f' to override"): git-loop never forces, so the human
    /// line says what to do instead. JSON keeps git's own text in `reason`.
    pub fn human_reason(&self) -> String {
        let forced = self.reason.contains("--force") || self.reason.contains("-f -f");
        match self.code {
            SkipCode::Dirty if forced => format!(
                "it has uncommitted changes to tracked files; commit or stash them in {} (git-loop never forces a removal)",
                self.path
            ),
            SkipCode::Untracked if forced => format!(
                "it has untracked files; commit, move or delete them in {} (git-loop never forces a removal)",
                self.path
            ),
            SkipCode::Locked => {
                let why = self
                    .reason
                    .split_once("lock reason:")
                    .map(|(_, r)| r.split(';').next().unwrap_or("").trim())
                    .filter(|r| !r.is_empty())
                    .or_else(|| self.reason.strip_prefix("locked: "))
                    .map(|r| format!(" ({r})"))
                    .unwrap_or_default();
                format!(
                    "it is locked{why}; if nothing uses it any more, run `git worktree unlock {}` and clean up again",
                    self.path
                )
            }
            // Any other refusal: git's reason without its advice to force.
            _ if forced => format!(
                "{} (git-loop never forces a removal)",
                crate::git::refusal::without_force_advice(&self.reason)
            ),
            _ => self.reason.clone(),
        }
    }

    /// The human lines for this skip: `skipped <id>: <reason>`, then its help.
    pub fn write_human(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        let reason = crate::style::escape(&self.human_reason()).into_owned();
        writeln!(w, "skipped {}: {reason}", self.id)?;
        if let Some(help) = &self.help {
            writeln!(w, "  help: {}", crate::style::escape(help))?;
        }
        Ok(())
    }
}

/// Why one worktree was (or, in a dry run, would be) left alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skip {
    pub reason: String,
    pub code: SkipCode,
}

impl Skip {
    pub fn new(reason: impl Into<String>, code: SkipCode) -> Skip {
        Skip {
            reason: reason.into(),
            code,
        }
    }
}

/// What happened (or, in a dry run, would happen) to one worktree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Removal {
    /// Removed; with what git-loop had to finish itself (a worktree git
    /// refused that held nothing but git's files, see [`crate::worktree::leftover`]).
    Removed(Option<String>),
    Skipped(Skip),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_skip_code_reads_back_from_its_text_a_status_too() {
        let carried = Status::ALL.map(SkipCode::Remarked);
        assert_eq!(SkipCode::ALL.len(), SkipCode::FIXED.len() + carried.len());
        assert!(SkipCode::ALL.ends_with(&carried));
        for code in SkipCode::ALL {
            assert_eq!(SkipCode::parse(code.as_str()), Some(code), "{code}");
        }
        assert_eq!(
            SkipCode::parse("merged"),
            Some(SkipCode::Remarked(Status::Merged))
        );
        assert_eq!(SkipCode::parse("foreign"), None);
    }
}
