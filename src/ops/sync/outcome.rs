//! What became of one run: synced (from its old tip to the new one), or
//! skipped with its code.

use gix::ObjectId;

use crate::config::SyncStrategy;
use crate::ops::land::gate::GateRun;

crate::vocab::vocabulary! {
    /// Why a run was not synced: the codes of docs/cli.md.
    pub enum Code {
        /// Its base's tip is already in its branch: nothing to bring in
        /// (not a failure).
        UpToDate = "up-to-date",
        /// It records no base, or its base no longer resolves.
        NoBase = "no-base",
        /// Its branch `loop/<id>` does not exist.
        NoBranch = "no-branch",
        /// `rebase`, and its own commits include a merge commit.
        HasMerges = "has-merges",
        /// Its commits and the base's change the same lines: the paths.
        Conflict = "conflict",
        /// Its worktree has uncommitted changes in paths the sync changes.
        Dirty = "dirty",
        /// Files its worktree does not track (untracked or ignored) stand
        /// where the sync writes.
        Untracked = "untracked",
        /// Its worktree has a merge, rebase, cherry-pick… in progress, an
        /// unresolved conflict, or a sync left unfinished.
        OperationInProgress = "operation-in-progress",
        /// Its worktree is registered but its directory is gone.
        WorktreeMissing = "worktree-missing",
        GateFailed = "gate-failed",
        /// Its run lock is held (a removal, a landing, a mark of it).
        Locked = "locked",
        /// Its branch moved after it was read (an agent committed): the new
        /// commit kept, the run left for the next sync.
        BranchMoved = "branch-moved",
        /// An earlier run was skipped (without `--keep-going`), or the
        /// command failed before this run's turn.
        NotAttempted = "not-attempted",
    }
}

/// A run synced (in a dry run: that would sync).
#[derive(Debug)]
pub struct Synced {
    /// The base it was synced with, as recorded (`main`, `origin/main`).
    pub base: String,
    /// The branch's tip before.
    pub from: ObjectId,
    /// The branch's tip after (in a dry run: the commit built in memory).
    pub to: ObjectId,
    /// The base's tip brought in.
    pub onto: ObjectId,
    pub strategy: SyncStrategy,
    /// The trash entry that keeps `from` (`None` in a dry run).
    pub trash_ref: Option<String>,
    /// The gate, when one ran.
    pub gate: Option<GateRun>,
    /// What failed after the branch moved (the sync stands).
    pub problems: Vec<String>,
}

/// A run that was not synced, and why; nothing of it changed.
#[derive(Debug)]
pub struct Skipped {
    pub code: Code,
    pub reason: String,
    /// The paths in question (a conflict's, the worktree's changes in the
    /// way).
    pub paths: Vec<String>,
    /// Its base, when known.
    pub base: Option<String>,
    /// The gate, when it ran.
    pub gate: Option<GateRun>,
}

impl Skipped {
    pub fn new(code: Code, reason: impl Into<String>) -> Skipped {
        Skipped {
            code,
            reason: reason.into(),
            paths: Vec::new(),
            base: None,
            gate: None,
        }
    }
}

/// What became of one run.
#[derive(Debug)]
pub enum Fate {
    Synced(Box<Synced>),
    Skipped(Skipped),
}

impl Fate {
    /// Whether this stops the runs not yet started (without
    /// `--keep-going`): a skip other than `up-to-date`.
    pub fn stops(&self) -> bool {
        matches!(self, Fate::Skipped(s) if s.code != Code::UpToDate)
    }
}
