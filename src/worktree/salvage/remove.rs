//! The removal after a salvage, with git itself as the last check (see the
//! parent module's doc): the worktree's `HEAD` and index switched to the
//! salvage `W`, `git worktree remove`, never forced, and, from the switch
//! until the removal's outcome is handled, a rollback window that puts the
//! worktree back ([`super::put_back`]) on a SIGINT/SIGTERM or a failure.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::PutBack;
use crate::error::Result;
use crate::signals::RollbackWindow;
use crate::worktree::{Removal, Remover, SkipCode};

/// One salvage removal at a time per process: the signal machinery holds
/// one rollback (see [`crate::signals`]).
static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Remove the worktree, with git itself as the last check: its `HEAD`
/// (detached) and index are set to the salvage `W` — whose tree was just
/// verified to be its files — so `git worktree remove`, never forced, finds
/// it clean unless something changed since; then git refuses, and `HEAD`
/// and the index are put back as they were (the files were never touched).
/// From the switch on, a SIGINT/SIGTERM or a failure puts it back too (see
/// the parent module's doc, "Interrupted").
pub(super) fn remove_at(
    r: &Remover<'_>,
    id: &str,
    wt: &crate::git::repo::Worktree,
    put_back: PutBack,
) -> Result<Removal> {
    let _turn = TURN.lock().unwrap_or_else(|p| p.into_inner());
    // The safety kernel's leave: the salvage ref holds `W`, and the
    // worktree's own refs are kept in the trash.
    let permit = match crate::safety::worktree::salvaged_permit(&r.checks, id, wt, &put_back.w)? {
        Ok(permit) => permit,
        Err(skip) => return Ok(Removal::Skipped(skip)),
    };
    let put_back = Arc::new(put_back);
    // Whether git may have deleted files: from the start of the removal
    // until git refused it for a reason it checks before deleting anything.
    let deleting = Arc::new(AtomicBool::new(false));
    let window = arm_rollback(&put_back, &deleting);
    if let Err(e) = window.child(|| put_back.switch()) {
        window.child(|| put_back.apply(false))?;
        return Err(e);
    }
    crate::crash::point("salvage-switched");
    deleting.store(true, Ordering::SeqCst);
    window.enter();
    let removal = crate::worktree::remove::git_remove(r, id, &wt.admin_dir, &permit);
    let refused_first = refused_before_deleting(&removal);
    if refused_first {
        deleting.store(false, Ordering::SeqCst);
    }
    window.leave();
    match removal {
        Ok(Removal::Removed(note)) => {
            drop(window);
            crate::crash::point("after-salvage-removal");
            Ok(Removal::Removed(note))
        }
        Ok(Removal::Skipped(skip)) => {
            window.child(|| put_back.apply(!refused_first))?;
            Ok(Removal::Skipped(skip))
        }
        Err(e) => {
            window.child(|| put_back.apply(true))?;
            Err(e)
        }
    }
}

/// Arm the rollback a SIGINT/SIGTERM runs from the switch on: put the
/// worktree back (its files too while git may be `deleting`), and say so.
fn arm_rollback(put_back: &Arc<PutBack>, deleting: &Arc<AtomicBool>) -> RollbackWindow {
    let (put_back, deleting) = (put_back.clone(), deleting.clone());
    RollbackWindow::open(move || {
        let line = match put_back.apply(deleting.load(Ordering::SeqCst)) {
            Ok(()) => format!(
                "git-loop: interrupted; {} is as it was before the salvage (its work is also in {})",
                put_back.abs.display(),
                put_back.w
            ),
            Err(e) => format!("git-loop: interrupted; {e}"),
        };
        crate::signals::say(&line);
    })
}

/// git refused the removal for a reason it checks before deleting any file
/// (changes, lock, submodules), so the files are as they were.
fn refused_before_deleting(removal: &Result<Removal>) -> bool {
    matches!(
        removal,
        Ok(Removal::Skipped(s)) if matches!(
            s.code,
            SkipCode::Dirty | SkipCode::Untracked | SkipCode::Locked | SkipCode::Submodules
        )
    )
}
