//! Removing a run's worktree: the orchestration (the re-check under the
//! run lock that keeps `mark` and a removal from crossing, salvage, git's
//! refusals turned into skip codes) and [`leftover`], which finishes what
//! an interrupted removal left. The checks it runs and the leave to remove
//! are the safety kernel's ([`crate::safety`]: what a worktree holds that
//! `git worktree remove` does not protect, the skip codes), which sits
//! below this module; the locks are [`crate::lock`]'s.
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
//!   holding a `.git` (a clone inside `vendor/`, ignored or not; a gitfile
//!   too), or one that is a git directory itself (`HEAD`, `objects/`, `refs/`:
//!   a bare `build/store.git`). Its own history may exist nowhere else; git
//!   would delete an ignored one silently.
//! - **something git cannot delete** (`undeletable`): an immutable or
//!   append-only file, a directory the user may not delete entries from.
//!   `git worktree remove` deletes the files, then the registration even
//!   when a file stayed: the run would be left half-removed. Nothing is
//!   touched. A run left so by an earlier removal (its `.git` names an admin
//!   dir git deleted) is `half-removed`, and is finished only when every file
//!   left is in git (see [`leftover`]).
//! - **a change git does not see** (`dirty`): a tracked file flagged
//!   assume-unchanged or skip-worktree that differs from the index; `git
//!   worktree remove` judges the worktree clean and deletes it.
//!
//! Every status read (git's and gix's) runs with `core.ignoreCase=false`
//! unless the worktree is on a case-insensitive filesystem: a repository
//! copied from macOS keeps `core.ignorecase=true`, which on Linux hides an
//! untracked `A.TXT` beside a tracked `a.txt` (see
//! [`crate::git::repo::case_overrides`]).
//! - **a process working in it** (`in-use`): a running process whose current
//!   directory is the worktree or inside it (Linux: `/proc/*/cwd`; elsewhere
//!   the invoking process only), the shell that typed the command included.
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
//! removing a run's worktree, cleanup takes that run's lock (an exclusive
//! `flock` on `<git common dir>/git-loop/runs/<id>.lock`, a file that exists
//! only while it is held; see [`crate::lock::RunLock`]) and re-reads the
//! manifest: the run must still be selected (same id and `createdAt`, status
//! still in the set) or it is skipped with code `active` (or the new status).
//! It appends the `remove` event before releasing the lock. `mark` takes the
//! same lock before it takes the mutex, and holds it until its write and its
//! event are done. So a mark that exits 0 either happened before the
//! re-check (which then sees it) or waited until the removal was over and
//! logged (the worktree was already gone when it ran; mark says so), and the
//! event log orders them as they happened. The order of the run lock among
//! the other locks is [`crate::lock`]'s.

pub mod leftover;
pub mod reap;
mod remove;
pub mod salvage;

pub use crate::safety::risk::{AtRisk, Processes, RefTips};
pub use crate::safety::skip::{Removal, Skip, SkipCode, SkippedEntry};
pub use remove::{Remover, remove_worktree};
