//! May this scratch checkout go? The land gate's scratch checkouts (see
//! `ops::land::gate`) are worktrees git-loop makes for a moment: detached
//! at a landed commit under `.loop-worktrees/.land-gate/<pid>-<n>`, a gate
//! command run in them, then removed. Nothing in one is the user's work:
//! its files are the commit's (which the object database holds) and what
//! the gate wrote (build output, test files: untracked or ignored, or a
//! tracked file it changed), so once [`permit`] has checked that it is
//! still exactly the scratch this process made, its files are deleted
//! ([`clear`]) and its registration removed with `git worktree remove` of
//! the then missing directory — never `--force`, never `git worktree prune`.
//!
//! The permit is refused (the scratch is left where it is, and its path
//! reported) unless all of these hold:
//! - its path is `<root>/.loop-worktrees/.land-gate/<pid>-<n>` with this
//!   process's pid (a scratch only its maker removes), a directory, not a
//!   symlink, and not the main worktree;
//! - git has it registered at that path, unlocked, its `.git` file leads to
//!   that registration, and its HEAD is detached at the commit it was made
//!   at (a commit the gate made there would have no other ref: kept, not
//!   lost);
//! - no operation is in progress in it and no process works in it (one the
//!   gate left that escaped its process group);
//! - its own refs (`refs/worktree/*`, `refs/bisect/*`) that alone hold
//!   commits are kept in the trash first, as for any worktree.

use std::path::{Path, PathBuf};

use super::{Permit, Target};
use crate::error::Result;
use crate::git::repo::Worktree;

/// The directory of the scratch checkouts, inside `.loop-worktrees/`.
pub const SCRATCH_DIR: &str = ".land-gate";

/// A scratch checkout's name for this process: `<pid>-<n>`.
pub fn name(n: u64) -> String {
    format!("{}-{n}", std::process::id())
}

/// Its path relative to the repository root (what `git worktree` is given
/// and what a permit covers).
pub fn rel_path(name: &str) -> String {
    format!("{}/{SCRATCH_DIR}/{name}", crate::runid::LOOP_DIR)
}

/// Whether `name` is one this process makes (`<our pid>-<digits>`).
fn ours(name: &str) -> bool {
    name.strip_prefix(&format!("{}-", std::process::id()))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Leave to delete the scratch checkout `name` (at `abs`, registered as
/// `wt`) that this process made at `made_at`; `Err(why)` when it must stay
/// (see the module doc). `root` is the main worktree.
pub fn permit(
    repo: &gix::Repository,
    root: &Path,
    name: &str,
    abs: &Path,
    wt: &Worktree,
    made_at: gix::ObjectId,
) -> Result<std::result::Result<Permit, String>> {
    let refuse = |why: String| Ok(Err(why));
    if !ours(name) {
        return refuse(format!("{name} is not a scratch checkout of this process"));
    }
    let expected = root.join(rel_path(name));
    if abs != expected || abs == root || wt.path != abs {
        return refuse(format!("{} is not where it was made", abs.display()));
    }
    match std::fs::symlink_metadata(abs) {
        Ok(m) if m.is_dir() => {}
        _ => return refuse(format!("{} is not a directory", abs.display())),
    }
    if let Some(reason) = &wt.locked {
        return refuse(format!("it is locked ({reason})"));
    }
    if wt.detached_head != Some(made_at) {
        return refuse(format!(
            "its HEAD is no longer detached at {made_at} (a commit made in it is kept there)"
        ));
    }
    if !dot_git_leads_to(abs, &wt.admin_dir) {
        return refuse("its .git file does not lead to its registration".to_owned());
    }
    if let Some((_, what)) = super::operation_in_progress(&wt.admin_dir) {
        return refuse(format!("a {what} is in progress in it"));
    }
    let in_use = super::risk::Processes::scan().inside(abs);
    if let Some(pid) = in_use.first() {
        return refuse(format!("a process is working in it (pid {pid})"));
    }
    let mut kept = Vec::new();
    if !super::worktree::own_refs(&wt.admin_dir)?.is_empty() {
        let tips = super::risk::RefTips::read(repo)?;
        let id = format!("land-gate-{name}");
        kept = super::worktree::keep_refs(repo, &id, &wt.admin_dir, &|tip| {
            tips.unreachable_from(repo, tip, 1)
        })?;
    }
    Ok(Ok(Permit {
        what: Target::Worktree(rel_path(name)),
        kept,
    }))
}

/// Whether `<abs>/.git` is a file saying `gitdir: <admin_dir>`.
fn dot_git_leads_to(abs: &Path, admin_dir: &Path) -> bool {
    let Ok(Some(bytes)) = crate::fsx::read_regular(&abs.join(".git"), 4096) else {
        return false;
    };
    let text = String::from_utf8_lossy(&bytes);
    let Some(dir) = text.trim().strip_prefix("gitdir:") else {
        return false;
    };
    let dir = PathBuf::from(dir.trim());
    let dir = if dir.is_absolute() {
        dir
    } else {
        abs.join(dir)
    };
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    same(&dir, admin_dir)
}

/// Delete every file of the scratch checkout at `abs` (`.loop-worktrees/
/// .land-gate/<name>`, the permit's), then the directory itself. Symlinks
/// are deleted, never followed. `Err(why)` at the first thing that cannot
/// be deleted (the rest is left as it is).
pub fn clear(abs: &Path, permit: &Permit) -> std::result::Result<(), String> {
    let name = abs.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let covered = abs
        .parent()
        .and_then(Path::file_name)
        .is_some_and(|p| p == SCRATCH_DIR)
        && permit.covers_worktree(&rel_path(name));
    if !covered {
        return Err(format!("internal: no permit to delete {}", abs.display()));
    }
    let entries = std::fs::read_dir(abs).map_err(|e| format!("{}: {e}", abs.display()))?;
    // The `.git` file goes last: until then git still knows the directory.
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", abs.display()))?;
        if entry.file_name() == ".git" {
            continue;
        }
        let path = entry.path();
        let kind = entry
            .file_type()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let gone = if kind.is_dir() {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
        gone.map_err(|e| format!("could not delete {}: {e}", path.display()))?;
    }
    let dot_git = abs.join(".git");
    match std::fs::remove_file(&dot_git) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(format!("could not delete {}: {e}", dot_git.display())),
    }
    std::fs::remove_dir(abs).map_err(|e| format!("could not remove {}: {e}", abs.display()))
}
