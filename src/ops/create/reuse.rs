//! `create --reuse` of an active run: checked, never changed.

use std::fs;

use super::{Created, Method};
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::manifest::Entry;
use crate::ops::create::CreateRequest;
use crate::output::Notes;

/// Reuse the active run `entry` as it is recorded (a different `--pattern`
/// is named in a warning, not applied): check it, log a `reuse` event, say so.
pub(super) fn reuse(
    ctx: &Ctx,
    args: &CreateRequest,
    entry: Entry,
    out: &mut Notes<'_>,
) -> Result<Created> {
    let id = entry.id.as_str();
    check_reusable(ctx, &entry)?;
    // Only a pattern typed is compared: the setting's default is no request.
    if let Some(pattern) = args.pattern.as_ref().filter(|p| **p != entry.pattern) {
        out.note(format_args!(
            "warning: reusing run {id} with its recorded pattern {:?}; --pattern {pattern:?} is not applied",
            entry.pattern
        ));
    }
    let mut tx = ctx.start_transaction()?;
    tx.log(crate::events::Event::new(
        crate::events::EventKind::Reuse,
        id,
    ));
    tx.commit(out)?;
    let ports = crate::ops::ports::of(ctx, &entry)?;
    let reused = Created {
        abs_path: ctx.worktree_path(id),
        entry,
        method: Method::Reused,
        upstream: None,
        copy: None,
        post_command: None,
        ports,
        error: None,
    };
    super::progress::say_done(&reused, out);
    Ok(reused)
}

/// `--reuse` (seed 002's ordered resolver): an active run is reused only if
/// its directory is present, is a worktree of *this* repository (registered
/// here, and its `.git` file points back into this repository's
/// `.git/worktrees/`), and has `loop/<id>` checked out. Nothing is changed.
fn check_reusable(ctx: &Ctx, entry: &Entry) -> Result<()> {
    let abs = ctx.worktree_path(&entry.id);
    let not = |reason: String| Error::NotReusable {
        id: entry.id.to_string(),
        reason,
    };
    match fs::symlink_metadata(&abs) {
        Err(_) => {
            return Err(Error::WorktreeMissing {
                id: entry.id.to_string(),
                path: entry.path(),
            });
        }
        Ok(meta) if !meta.is_dir() => {
            return Err(not(format!("{} is not a directory", entry.path())));
        }
        Ok(_) => {}
    }
    let registrations = ctx.repo.loop_worktrees()?;
    let Some((_, wt)) = registrations.iter().find(|(name, _)| *name == entry.id) else {
        return Err(not(format!(
            "{} is not a worktree registered with this repository",
            entry.path()
        )));
    };
    let dot_git = fs::read_to_string(abs.join(".git")).unwrap_or_default();
    let points_here = dot_git
        .strip_prefix("gitdir:")
        .map(|p| crate::git::repo::canonical_best_effort(std::path::Path::new(p.trim())))
        == Some(crate::git::repo::canonical_best_effort(&wt.admin_dir));
    if !points_here {
        return Err(not(format!(
            "{}/.git does not point into this repository",
            entry.path()
        )));
    }
    if wt.branch.as_deref() != Some(entry.branch().as_str()) {
        return Err(not(format!(
            "{} has {} checked out, not {}",
            entry.path(),
            wt.branch.as_deref().unwrap_or("a detached HEAD"),
            entry.branch()
        )));
    }
    Ok(())
}
