//! Finishing a worktree that an interrupted git-loop (or git) left behind.
//!
//! Two leftovers are common and harmless, yet `git worktree remove` refuses
//! both without `--force`:
//! - a **never-checked-out** worktree: `git worktree add --no-checkout` ran,
//!   the checkout did not (a create interrupted between the two). With no
//!   checkout, every file of HEAD looks deleted, so git calls it dirty;
//! - a **half-deleted** worktree: `git worktree remove` was interrupted while
//!   deleting files. Some files are gone (dirty again), and when its `.git`
//!   file went first git cannot even validate it (`'.git' does not exist`).
//!
//! [`finish_if_only_git`] removes such a worktree only when it provably holds
//! nothing that is not in git, judged conservatively and without `--force`:
//! - the registration's HEAD resolves to a commit; a detached HEAD must be
//!   contained in some branch or tag (otherwise the commit would be lost);
//! - it is not locked and no operation is in progress (rebase, merge,
//!   cherry-pick, revert, bisect, sequencer);
//! - its index, if any, stages nothing: every entry is unconflicted and names
//!   the blob HEAD's tree has at that path;
//! - every entry of the directory (walked with `std::fs`, never following a
//!   symlink; only the top-level `.git` *file* is skipped) is a directory, or
//!   a regular file or symlink whose content hashes to the blob HEAD's tree
//!   has at that path (a symlink only where HEAD has one). Anything else —
//!   an extra file, a changed one, a `.git` below the top, a FIFO — refuses.
//!
//! Then exactly the verified files are deleted (each re-checked just before:
//! a file that changed since it was hashed stops the removal), directories
//! are removed bottom-up with `rmdir` (which fails on anything that appeared
//! meanwhile: stop and report), then the `.git` file and the worktree
//! directory, and finally the registration with `git worktree remove --
//! <path>` on the now missing directory (never `git worktree prune`). The
//! branch is never deleted here. Whatever was deleted before a stop was, by
//! the checks above, identical to a commit that is kept.
//!
//! The checks live in the submodule `verify`; the removal is here. Like
//! every removal, it needs the safety kernel's [`crate::safety::Permit`]
//! (which kept the worktree's own refs in the trash first); the files it
//! deletes itself are only those verified identical to a kept commit.
//!
//! A third leftover, a **half-removed** run (git deleted the registration
//! after failing to delete a file), is recognised and finished by
//! [`finish_half_removed`] (see the submodule `half`).

mod half;
mod verify;

pub use half::recognise as half_removed;

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use crate::error::Result;
use crate::git::cmd::Git;
use verify::{Stamp, Verified, only_git};

/// How [`finish_if_only_git`] ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finish {
    /// Removed and unregistered; a truthful one-line account of what it was.
    Removed(String),
    /// Left as it is (or, after a stop mid-way, with only files identical to
    /// git's removed): why.
    Refused(String),
}

/// Remove `<loop_dir>/<id>` (registered with `admin_dir`) if it holds nothing
/// that is not in git; see the module doc. `repo` is the main repository.
/// Refusals are returned as [`Finish::Refused`]; `Err` only for a failure to
/// read the repository itself.
pub fn finish_if_only_git(
    repo: &gix::Repository,
    git: &Git,
    loop_dir: &Path,
    id: &str,
    admin_dir: &Path,
    permit: &crate::safety::Permit,
) -> Result<Finish> {
    let dir = loop_dir.join(id);
    let only_git = match only_git(repo, &dir, id, admin_dir)? {
        Ok(verdict) => verdict,
        Err(why) => return Ok(Finish::Refused(why)),
    };
    // Delete exactly what was verified; stop at the first surprise.
    let stop = delete_files(&only_git.files, &dir)
        .or_else(|| remove_dirs(only_git.dirs, &dir))
        .or_else(|| remove_dot_git_and_dir(&dir));
    if let Some(why) = stop {
        return Ok(Finish::Refused(why));
    }
    let rel = crate::runid::rel_path(id);
    if let Err(refusal) = crate::safety::exec::worktree_remove(git, &rel, permit)? {
        return Ok(Finish::Refused(format!(
            "its files are removed, but git did not unregister it: {}",
            refusal.reason()
        )));
    }
    let n = only_git.files.len();
    Ok(Finish::Removed(what_it_was(
        only_git.has_index,
        n,
        only_git.head,
    )))
}

/// The one-line account of a finished leftover: never checked out, an
/// interrupted checkout, or an interrupted removal (`n` files, all `head`'s).
fn what_it_was(has_index: bool, n: usize, head: gix::ObjectId) -> String {
    if !has_index && n == 0 {
        "never checked out: nothing in it but its .git file".to_owned()
    } else if !has_index {
        format!(
            "an interrupted checkout: {n} file{}, all identical to {}",
            plural(n),
            short(head)
        )
    } else {
        format!(
            "finished an interrupted removal: {n} file{}, all identical to {}",
            plural(n),
            short(head)
        )
    }
}

/// Delete each verified file, re-checked just before; the refusal that
/// stops at the first one that changed or cannot be deleted.
fn delete_files(files: &[Verified], dir: &Path) -> Option<String> {
    for file in files {
        match fs::symlink_metadata(&file.path) {
            Ok(meta) if Stamp::of(&meta) == file.stamp => {}
            _ => return Some(changed(&file.path, dir)),
        }
        if let Err(e) = fs::remove_file(&file.path) {
            return Some(format!("could not delete {}: {e}", shown(&file.path, dir)));
        }
    }
    None
}

/// `rmdir` the directories, deepest first; the refusal that stops at the
/// first one something appeared in.
fn remove_dirs(mut dirs: Vec<PathBuf>, dir: &Path) -> Option<String> {
    dirs.sort_by_key(|d| std::cmp::Reverse(d.components().count()));
    for d in &dirs {
        if let Err(e) = fs::remove_dir(d) {
            return Some(format!(
                "stopped: {} could not be removed ({e}); something appeared in it",
                shown(d, dir)
            ));
        }
    }
    None
}

/// Delete the top-level `.git` file (a refusal if it is anything else now),
/// then `rmdir` the worktree directory (already gone is fine).
fn remove_dot_git_and_dir(dir: &Path) -> Option<String> {
    let dot_git = dir.join(".git");
    match fs::symlink_metadata(&dot_git) {
        Ok(meta) if meta.is_file() => {
            if let Err(e) = fs::remove_file(&dot_git) {
                return Some(format!("could not delete .git: {e}"));
            }
        }
        Ok(_) => return Some(changed(&dot_git, dir)),
        Err(_) => {}
    }
    match fs::remove_dir(dir) {
        Ok(()) => None,
        Err(e) if e.kind() == ErrorKind::NotFound => None,
        Err(e) => Some(format!(
            "stopped: the directory could not be removed ({e}); something appeared in it"
        )),
    }
}

/// Finish the half-removed run at `<loop_dir>/<id>` (see [`half_removed`]):
/// delete what is left when every file's bytes are an object of the
/// repository, as [`finish_if_only_git`] deletes (each file re-checked just
/// before, directories with `rmdir`); with `dry_run` only the check. There is
/// no registration left to remove.
pub fn finish_half_removed(
    loop_dir: &Path,
    id: &str,
    dry_run: bool,
    permit: &crate::safety::Permit,
) -> Finish {
    if !permit.covers_worktree(&crate::runid::rel_path(id)) {
        return Finish::Refused("internal: no permit to finish it".into());
    }
    let Some(root) = loop_dir.parent() else {
        return Finish::Refused("no repository above .loop-worktrees".into());
    };
    let repo = match gix::open(root) {
        Ok(repo) => repo,
        Err(e) => return Finish::Refused(format!("the repository cannot be read: {e}")),
    };
    let dir = loop_dir.join(id);
    let (files, dirs) = match half::walk_disposable(&repo, &dir) {
        Ok(found) => found,
        Err(why) => return Finish::Refused(why),
    };
    let n = files.len();
    let message = format!(
        "finished a removal that failed part way: {n} file{} left, all in git",
        plural(n)
    );
    if dry_run {
        return Finish::Removed(message);
    }
    if let Some(why) = delete_files(&files, &dir).or_else(|| remove_dirs(dirs, &dir)) {
        return Finish::Refused(why);
    }
    let dot_git = dir.join(".git");
    if fs::symlink_metadata(&dot_git).is_ok_and(|m| m.is_file())
        && let Err(e) = fs::remove_file(&dot_git)
    {
        return Finish::Refused(format!("could not delete .git: {e}"));
    }
    match fs::remove_dir(&dir) {
        Ok(()) => Finish::Removed(message),
        Err(e) if e.kind() == ErrorKind::NotFound => Finish::Removed(message),
        Err(e) => Finish::Refused(format!(
            "stopped: the directory could not be removed ({e}); something appeared in it"
        )),
    }
}

/// [`finish_if_only_git`] for a caller without a repository at hand (it may
/// run on several threads): opens the main repository from `loop_dir`'s
/// parent; a failure to read it is a refusal.
pub fn finish(
    loop_dir: &Path,
    git: &Git,
    id: &str,
    admin_dir: &Path,
    permit: &crate::safety::Permit,
) -> Finish {
    let Some(root) = loop_dir.parent() else {
        return Finish::Refused("no repository above .loop-worktrees".into());
    };
    let repo = match gix::open(root) {
        Ok(repo) => repo,
        Err(e) => return Finish::Refused(format!("the repository cannot be read: {e}")),
    };
    finish_if_only_git(&repo, git, loop_dir, id, admin_dir, permit)
        .unwrap_or_else(|e| Finish::Refused(e.to_string()))
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn short(id: gix::ObjectId) -> String {
    id.to_hex_with_len(7).to_string()
}

fn shown(path: &Path, dir: &Path) -> String {
    path.strip_prefix(dir).unwrap_or(path).display().to_string()
}

fn changed(path: &Path, dir: &Path) -> String {
    format!(
        "stopped: {} changed while it was being removed",
        shown(path, dir)
    )
}
