//! git's refusal texts, read in one place (`LC_ALL=C` is set for every git
//! git-loop runs, so the English text is stable).

/// What git's refusal of `git worktree remove` says, in kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// "contains modified or untracked files": git says the same for both.
    ModifiedOrUntracked,
    Locked,
    Submodules,
    Other,
}

/// The machine code for git's own refusal text (`git worktree remove`):
/// printed in JSON beside it (`"code"`) and used by summaries ("skipped 2
/// (dirty)"). git's message for modified and for untracked files is the same,
/// so both read as `dirty` here; the caller tells them apart with gix.
/// Skips git-loop decides itself carry their code from where they are made.
pub(crate) fn classify(reason: &str) -> Refusal {
    if reason.contains("modified or untracked") {
        Refusal::ModifiedOrUntracked
    } else if reason.contains("locked") {
        Refusal::Locked
    } else if reason.contains("submodule") {
        Refusal::Submodules
    } else {
        Refusal::Other
    }
}

/// git 2.47 fails a `worktree remove` or `add` when another one deletes or
/// creates an entry of `.git/worktrees/` while it reads them ("Invalid path
/// '…/.git/worktrees/x'", "failed to read .git/worktrees/x/commondir"). Such
/// a failure says nothing about the worktree being removed.
pub fn is_transient(stderr: &str) -> bool {
    stderr.contains("/worktrees/")
        && (stderr.contains("Invalid path")
            || stderr.contains("failed to read")
            || stderr.contains("No such file or directory"))
}

/// Whether a refusal may be a leftover git-loop can finish
/// ([`crate::leftover`]): git saw changes (a never-checked-out or
/// half-deleted worktree looks modified), or could not validate it (`'.git'
/// does not exist`, `validation failed`).
pub(crate) fn may_be_leftover(kind: Refusal, reason: &str) -> bool {
    kind == Refusal::ModifiedOrUntracked
        || reason.contains("'.git' does not exist")
        || reason.contains("validation failed")
}
