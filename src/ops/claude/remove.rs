//! `WorktreeRemove`: the hook's own run at the worktree Claude Code is done
//! with, marked `stale` if active and removed as `remove` removes it; a path
//! that is not a git-loop run, or a run the hook did not make (see the
//! parent module's doc), is left alone.

use std::path::{Path, PathBuf};

use super::owner::owner_of;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::manifest::{Entry, Manifest, Status};
use crate::ops::reclaim::{self, Reclaimed};
use crate::output::Notes;
use crate::runid::RunId;

/// A `WorktreeRemove` event: the worktree Claude Code is done with.
#[derive(Debug)]
pub struct WorktreeRemove<'a> {
    /// `-C`: the repository, over the worktree's own.
    pub repo: Option<&'a Path>,
    /// The input's `cwd`: what a relative `worktree_path` is relative to.
    pub cwd: Option<&'a Path>,
    /// The input's `worktree_path`.
    pub worktree_path: &'a Path,
}

/// What became of the worktree.
pub enum Removal {
    /// Not the hook's own run: nothing marked or removed.
    LeftAlone(LeftAlone),
    /// The run's removal, as `remove` reports it (it may have failed part
    /// way, or skipped the run).
    Reclaimed(Reclaimed),
}

/// Why a worktree was left alone.
#[derive(Debug)]
pub enum LeftAlone {
    /// The path is no git-loop run: not under `.loop-worktrees/`, in no
    /// repository, or no manifest entry has it.
    NotARun { path: PathBuf, why: String },
    /// A run the hook did not make: another pattern, or no ownership record.
    NotMade {
        path: PathBuf,
        id: String,
        why: String,
    },
}

/// Remove the hook's own run at the event's worktree (see the module doc).
pub fn worktree_remove(event: &WorktreeRemove<'_>, out: &mut Notes<'_>) -> Result<Removal> {
    let (ctx, entry) = match own_run(event)? {
        Ok(own) => own,
        Err(left) => return Ok(Removal::LeftAlone(left)),
    };
    let id = entry.id.clone();
    // Claude Code is done with the run: an active run becomes stale (logged
    // as a mark), since removal never takes an active run.
    if entry.status == Status::Active {
        let run_id = RunId::parse(&id)?;
        crate::ops::mark::set_status(&ctx, &run_id, Status::Stale, out)?;
    }
    let choose = |manifest: &Manifest| Ok(manifest.find(&id).into_iter().cloned().collect());
    let options = reclaim::Options::default();
    let reclaimed = reclaim::reclaim(&ctx, &Status::ALL, options, choose, out)?;
    Ok(Removal::Reclaimed(reclaimed))
}

/// The hook's own run at the event's `worktree_path`, or why that is left
/// alone (see the parent module's doc).
fn own_run(event: &WorktreeRemove<'_>) -> Result<std::result::Result<(Ctx, Entry), LeftAlone>> {
    let given = event.worktree_path;
    let path = match event.cwd {
        Some(cwd) if given.is_relative() => cwd.join(given),
        _ => given.to_path_buf(),
    };
    let not_a_run = |path: PathBuf, why: &str| {
        Ok(Err(LeftAlone::NotARun {
            path,
            why: why.to_owned(),
        }))
    };
    let Some((root, id, path)) = locate(&path) else {
        return not_a_run(path, "not a worktree under .loop-worktrees/");
    };
    let ctx = match super::open(event.repo, Some(&root)) {
        Ok(ctx) => ctx,
        Err(e) => return not_a_run(path, &e.to_string()),
    };
    let entry = ctx.read_manifest()?.find(&id).cloned();
    let Some(entry) = entry.filter(|_| ctx.worktree_path(&id) == path) else {
        return not_a_run(path, "no run of the manifest has it");
    };
    let pattern = super::pattern(&ctx)?;
    let why = if entry.pattern != pattern {
        format!(
            "its pattern is {:?}, not {pattern:?} (claude.pattern)",
            entry.pattern
        )
    } else if owner_of(&ctx, &entry).is_none() {
        "claude-hook create did not make it (its worktree has no record of that)".to_owned()
    } else {
        return Ok(Ok((ctx, entry)));
    };
    Ok(Err(LeftAlone::NotMade {
        path,
        id: entry.id.to_string(),
        why,
    }))
}

/// `<root>/.loop-worktrees/<id>` split into the root and the id, with the
/// path, all resolved as the repository resolves its root.
fn locate(path: &Path) -> Option<(PathBuf, String, PathBuf)> {
    let id = path.file_name()?.to_str()?;
    let loop_dir = path.parent()?;
    if loop_dir.file_name()? != crate::runid::LOOP_DIR || crate::runid::problem(id).is_some() {
        return None;
    }
    let loop_dir = loop_dir.canonicalize().ok()?;
    let root = loop_dir.parent()?.to_path_buf();
    Some((root, id.to_owned(), loop_dir.join(id)))
}
