//! git's refusal texts, read in one place (`LC_ALL=C` is set for every git
//! git-loop runs, so the English text is stable).

use crate::worktree::SkipCode;

/// The machine code for git's own refusal text (`git worktree remove`):
/// printed in JSON beside it (`"code"`) and used by summaries ("skipped 2
/// (dirty)"). git's message for modified and for untracked files is the same,
/// so both read as `dirty` here; the caller tells them apart with gix.
/// Skips git-loop decides itself carry their code from where they are made.
pub fn classify(reason: &str) -> SkipCode {
    if reason.contains("modified or untracked") {
        SkipCode::Dirty
    } else if reason.contains("locked") {
        SkipCode::Locked
    } else if reason.contains("submodule") {
        SkipCode::Submodules
    } else {
        SkipCode::GitRefused
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
