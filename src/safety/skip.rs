//! Why a worktree was left alone: a machine code and a reason, the same in
//! cleanup, reconcile and their dry runs.

use serde::{Serialize, Serializer};

use crate::manifest::Status;

/// The machine code on every skipped entry (`"code"` in JSON, kebab-case).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkipCode {
    /// Changes to tracked files, staged or not.
    Dirty,
    /// Files git neither tracks nor ignores.
    Untracked,
    Locked,
    /// Populated submodules: git removes such a worktree only with `--force`.
    Submodules,
    /// Not a worktree of this repository (another clone's, a plain
    /// directory, a symlink).
    ForeignClone,
    /// An orphan under `--min-age`: a create may not have recorded it yet.
    TooYoung,
    /// `cleanup.pre-command` exited non-zero.
    HookRefused,
    /// Any other refusal of `git worktree remove`.
    GitRefused,
    /// A detached HEAD holds commits no ref contains.
    UnreachableCommits,
    /// A rebase, merge, cherry-pick, revert, `am` or bisect in progress.
    OperationInProgress,
    /// A repository nested inside the worktree.
    NestedRepo,
    /// Something in it git could not delete (an immutable file, a directory
    /// the user may not delete from): asking git would leave it
    /// half-removed. Nothing was touched.
    Undeletable,
    /// A run's directory whose registration git already deleted (a removal
    /// that failed part way): what is left is kept unless provably
    /// disposable.
    HalfRemoved,
    /// A running process has its working directory in it (the invoking
    /// shell included).
    InUse,
    /// A run the landing queue lands next (its status is in
    /// `land.queue-status`), kept by a cleanup that was not asked for that
    /// status (`--status` or `cleanup.status`).
    Queued,
    /// Marked with this status after cleanup selected it (`active` above
    /// all): the code is the status's name.
    Remarked(Status),
    /// Its manifest entry was replaced after cleanup selected it.
    Changed,
    /// It could not be handled (the error is also the command's).
    Error,
}

impl SkipCode {
    pub fn as_str(self) -> &'static str {
        match self {
            SkipCode::Dirty => "dirty",
            SkipCode::Untracked => "untracked",
            SkipCode::Locked => "locked",
            SkipCode::Submodules => "submodules",
            SkipCode::ForeignClone => "foreign-clone",
            SkipCode::TooYoung => "too-young",
            SkipCode::HookRefused => "hook-refused",
            SkipCode::GitRefused => "git-refused",
            SkipCode::UnreachableCommits => "unreachable-commits",
            SkipCode::OperationInProgress => "operation-in-progress",
            SkipCode::NestedRepo => "nested-repo",
            SkipCode::Undeletable => "undeletable",
            SkipCode::HalfRemoved => "half-removed",
            SkipCode::InUse => "in-use",
            SkipCode::Queued => "queued",
            SkipCode::Remarked(status) => status.as_str(),
            SkipCode::Changed => "changed",
            SkipCode::Error => "error",
        }
    }

    /// Every code, once each (a status's code once for its status), by a
    /// match that stops compiling when a variant is added.
    pub fn all() -> Vec<SkipCode> {
        use SkipCode::*;
        let listed = |c: SkipCode| match c {
            Dirty | Untracked | Locked | Submodules | ForeignClone | TooYoung | HookRefused
            | GitRefused | UnreachableCommits | OperationInProgress | NestedRepo | Undeletable
            | HalfRemoved | InUse | Queued | Remarked(_) | Changed | Error => c,
        };
        [
            Dirty,
            Untracked,
            Locked,
            Submodules,
            ForeignClone,
            TooYoung,
            HookRefused,
            GitRefused,
            UnreachableCommits,
            OperationInProgress,
            NestedRepo,
            Undeletable,
            HalfRemoved,
            InUse,
            Queued,
            Changed,
            Error,
        ]
        .into_iter()
        .chain(Status::ALL.map(Remarked))
        .map(listed)
        .collect()
    }

    /// The code written as `text`, if this version knows it.
    pub fn parse(text: &str) -> Option<SkipCode> {
        SkipCode::all().into_iter().find(|c| c.as_str() == text)
    }

    /// Whether the entry holds uncommitted work its owner should look at.
    pub fn is_uncommitted_work(self) -> bool {
        matches!(self, SkipCode::Dirty | SkipCode::Untracked)
    }
}

impl std::fmt::Display for SkipCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for SkipCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl schemars::JsonSchema for SkipCode {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "SkipCode".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let codes: Vec<&str> = SkipCode::all().into_iter().map(SkipCode::as_str).collect();
        schemars::json_schema!({
            "type": "string",
            "enum": codes,
            "description": "Why an entry was left alone (a status name: it was marked so after it was selected)"
        })
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
