//! What became of one run: landed (with what became of its worktree and
//! branch), or skipped with its code.

use gix::ObjectId;

use super::gate::GateRun;
use crate::git::merged::MergedBy;

/// Why a run did not land: the codes of docs/cli.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    /// No target: its base is not a local branch and no `--into` was given.
    NoTarget,
    /// Its branch `loop/<id>` does not exist.
    NoBranch,
    /// Its worktree has uncommitted changes (or untracked files, with
    /// `land.require-clean`).
    Dirty,
    /// Its worktree has a merge, rebase, cherry-pick… in progress.
    OperationInProgress,
    /// No commits of its own over the target.
    Empty,
    Conflict,
    /// `--strategy ff` and the target is not an ancestor of the run.
    NotFastForward,
    /// `--strategy rebase` and the run's merge commits bring content the
    /// replay of its other commits would drop.
    HasMerges,
    GateFailed,
    /// The target is not at the tip the landing was built on.
    TargetMoved,
    /// The target's checkout has local changes in paths the landing changes.
    TargetDirty,
    /// Files the target's checkout does not track (ignored ones) stand
    /// where the landing writes.
    TargetIgnored,
    /// The target's checkout has an operation in progress.
    TargetBusy,
}

impl Code {
    pub fn as_str(self) -> &'static str {
        match self {
            Code::NoTarget => "no-target",
            Code::NoBranch => "no-branch",
            Code::Dirty => "dirty",
            Code::OperationInProgress => "operation-in-progress",
            Code::Empty => "empty",
            Code::Conflict => "conflict",
            Code::NotFastForward => "not-fast-forward",
            Code::HasMerges => "has-merges",
            Code::GateFailed => "gate-failed",
            Code::TargetMoved => "target-moved",
            Code::TargetDirty => "target-dirty",
            Code::TargetIgnored => "target-ignored",
            Code::TargetBusy => "target-busy",
        }
    }
}

/// A run that did not land, and why.
#[derive(Debug)]
pub struct Skipped {
    /// The branch it was to land in, when known.
    pub into: Option<String>,
    pub code: Code,
    pub message: String,
    /// The paths in question (a conflict's, the target checkout's).
    pub paths: Vec<String>,
    /// The gate, when it ran.
    pub gate: Option<GateRun>,
}

/// What became of a landed run's worktree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorktreeFate {
    Removed,
    /// `--keep`.
    Kept,
    /// It had none.
    None,
    /// Removal's rules kept it: their skip code and reason.
    Skipped {
        code: String,
        reason: String,
    },
    /// A dry run: nothing was removed.
    DryRun,
}

/// What became of a landed run's branch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BranchFate {
    Deleted {
        merged_by: Option<MergedBy>,
        trash_ref: String,
    },
    /// Kept, with why (`--keep`, the kernel's reason).
    Kept {
        reason: String,
    },
    DryRun,
}

/// Where a landing was pushed (`--push`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushedTo {
    pub remote: String,
    /// The branch there, `refs/heads/<b>`.
    pub remote_ref: String,
    /// git's word for the remote's update: `<old>..<new>`, `[new branch]`.
    pub summary: String,
    /// How many times the landing was built again on the remote's tip,
    /// which had moved.
    pub rebuilds: usize,
}

/// A run landed (in a dry run: that would land).
#[derive(Debug)]
pub struct Landed {
    pub into: String,
    /// The target's tip it was built on.
    pub from: ObjectId,
    /// The target's tip now (in a dry run: the commit built in memory).
    pub to: ObjectId,
    pub commits: usize,
    pub gate: Option<GateRun>,
    pub worktree: WorktreeFate,
    pub branch: BranchFate,
    /// `--push`: whether the upstream took the landing.
    pub pushed: bool,
    /// `--push` and it was not pushed (`not-pushed`): why.
    pub not_pushed: Option<String>,
    /// `--push` and it was pushed: where, and how.
    pub pushed_to: Option<PushedTo>,
    /// What failed after the target moved (the landing stands).
    pub problems: Vec<String>,
    /// The command that finishes what the landing left (a worktree kept
    /// because the command ran inside it, or for its untracked files).
    pub next: Option<String>,
}
