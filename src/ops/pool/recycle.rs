//! `cleanup --recycle` (`cleanup.recycle`): a worktree cleanup would remove
//! goes back into the pool instead, while the pool holds fewer than
//! `pool.size` members.
//!
//! Only a worktree the removal rules would remove, and not sparse, is
//! recycled: its verdict is [`remove_worktree`]'s own dry run (registered, not locked, nothing at
//! risk — no operation in progress, no commit only its HEAD holds, no nested
//! repository, no process working in it — and clean as `git worktree
//! remove` judges it). Its ignored files are then pruned (below), it is
//! detached at its run's base (`git switch --detach`, hooks off: only files
//! that differ are written) and moved to
//! `.loop-worktrees/.pool/<base>-<suffix>` (`git worktree move`). The run's
//! branch is kept, as always. Anything that goes wrong on the way falls back
//! to the usual removal. Runs under cleanup's worktree-operation lock.
//!
//! **What the next run inherits.** Only the ignored files `pool.keep` names
//! (gitignore patterns; by default the warm build and dependency
//! directories `target/`, `node_modules/`, `.venv/`, `build/`, `.gradle/`).
//! Every other ignored file — an `.env`, a log, a secret, build output
//! elsewhere — is removed first, as a plain removal would remove it; the
//! `create.copy` / `.worktreeinclude` selection is not kept either, since
//! `create` copies it fresh from the main worktree (and never overwrites, so
//! a kept copy would shadow the fresh one). The ignored files are listed by
//! gix's walk with the worktree's own ignore rules, as `git status
//! --ignored` lists them (an ignored directory as one entry, which a pattern
//! matches as a whole). Pruning never removes a file the index tracks or an
//! untracked file that is not ignored (the walk lists neither, and each
//! entry is checked against the index again), never follows a symlink (a
//! link is removed as a link, and no entry below a symlinked directory is
//! touched), and removes nothing at all when the worktree holds a nested
//! repository (the removal verdict refuses those already; a directory
//! holding a `.git` met while removing stops the pruning). If any of it
//! fails, the worktree is removed the usual way instead.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::ctx::Ctx;
use crate::error::Result;
use crate::manifest::Entry;
use crate::worktree::{Removal, Remover, remove_worktree};

/// What recycling needs, shared by cleanup's worker threads.
pub struct Recycler {
    /// Free places in the pool, taken one at a time.
    slots: AtomicUsize,
    /// Each selected run's base, resolved before the threads start (a
    /// `gix::Repository` is not `Sync`).
    bases: HashMap<String, gix::ObjectId>,
    /// `pool.keep`: the ignored files a recycled worktree keeps.
    keep: Vec<String>,
}

impl Recycler {
    /// For the runs `selected`, with `pool.size` places less the members
    /// there are. Creates `.loop-worktrees/.pool/` when it recycles at all.
    pub fn new(ctx: &Ctx, selected: &[Entry]) -> Result<Recycler> {
        let settings = ctx.settings()?;
        let size = settings.pool_size.value;
        let keep = settings.pool_keep.value.clone();
        let have = super::members(&ctx.repo)?.len();
        let bases = selected
            .iter()
            .filter_map(|e| Some((e.id.to_string(), ctx.repo.resolve_commit(&e.base_branch)?)))
            .collect();
        let slots = size.saturating_sub(have);
        if slots > 0 {
            let dir = ctx.loop_dir().join(super::POOL_DIR);
            if std::fs::symlink_metadata(&dir).is_err() {
                let _ = std::fs::create_dir(&dir);
            }
        }
        Ok(Recycler {
            slots: AtomicUsize::new(slots),
            bases,
            keep,
        })
    }

    fn take_slot(&self) -> bool {
        self.slots
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok()
    }

    fn give_back(&self) {
        self.slots.fetch_add(1, Ordering::SeqCst);
    }

    /// Recycle the run `id` into the pool when it would be removed and there
    /// is room; otherwise remove it as [`remove_worktree`] does.
    pub fn recycle(&self, r: &Remover<'_>, id: &str) -> Result<Removal> {
        recycle(r, self, id)
    }
}

fn recycle(r: &Remover<'_>, recycler: &Recycler, id: &str) -> Result<Removal> {
    let pool_dir = r.loop_dir.join(super::POOL_DIR);
    // A sparse worktree keeps its patterns (in its admin dir) when moved:
    // a member made of it would hand a later create a sparse checkout.
    let sparse = r
        .registration(id)
        .is_some_and(|wt| wt.admin_dir.join("info/sparse-checkout").exists());
    let fit = !sparse
        && matches!(remove_worktree(r, id, true)?, Removal::Removed(_))
        && r.loop_dir.join(id).is_dir()
        && pool_dir.is_dir()
        && !pool_dir.is_symlink();
    let base = recycler.bases.get(id).copied();
    let (Some(base), true) = (base, fit) else {
        return remove_worktree(r, id, false);
    };
    if !recycler.take_slot() {
        return remove_worktree(r, id, false);
    }
    let abs = r.loop_dir.join(id);
    let hex = base.to_string();
    // The safety kernel's leave to delete its ignored files: checked again
    // now (the dry run above may be a moment old).
    let permit = match r.registration(id) {
        Some(wt) => crate::safety::worktree::prune_permit(&r.checks, id, wt, &abs)?,
        None => None,
    };
    if let Some(permit) = permit
        && prune_ignored(&abs, &recycler.keep, &permit).is_ok()
        && let Ok(Ok(())) = r.git.switch_quietly(&abs, None, &hex)
    {
        let name = super::new_name(base);
        let to = super::rel_path(&name);
        if let Ok(Ok(())) = r.git.worktree_move(&crate::runid::rel_path(id), &to) {
            return Ok(Removal::Removed(Some(format!(
                "recycled into the pool as {to}"
            ))));
        }
    }
    recycler.give_back();
    remove_worktree(r, id, false)
}

/// Remove every ignored file of the worktree at `abs` that `keep` does not
/// select (see the module doc). `Err` (with why) stops at the first doubt:
/// the caller then removes the worktree the usual way.
fn prune_ignored(
    abs: &Path,
    keep: &[String],
    permit: &crate::safety::Permit,
) -> std::result::Result<(), String> {
    let rel = abs
        .file_name()
        .map(|n| crate::runid::rel_path(&n.to_string_lossy()))
        .unwrap_or_default();
    if !permit.covers_worktree(&rel) {
        return Err("no permit to prune it".into());
    }
    for rel in doomed(abs, keep)? {
        // Every directory on the way is a real directory of the worktree.
        let mut at = abs.to_path_buf();
        let parts: Vec<&str> = rel.split('/').collect();
        for part in &parts[..parts.len() - 1] {
            at.push(part);
            let meta = std::fs::symlink_metadata(&at).map_err(|e| e.to_string())?;
            if !meta.is_dir() {
                return Err(format!("{} is not a directory", at.display()));
            }
        }
        remove_tree(&abs.join(&rel)).map_err(|e| format!("{rel}: {e}"))?;
    }
    Ok(())
}

/// The ignored paths of the worktree at `abs` that `keep` does not select,
/// relative to it and sorted. `Err` at a nested repository, a path inside
/// `.git`, one the index tracks, or one that is not UTF-8.
fn doomed(abs: &Path, keep: &[String]) -> std::result::Result<Vec<String>, String> {
    use gix::bstr::ByteSlice;
    use gix::dir::entry::{Kind, Status};
    let repo = gix::open(abs).map_err(|e| e.to_string())?;
    let index = repo.index_or_empty().map_err(|e| e.to_string())?;
    let entries = walk_ignored(&repo, &index)?;
    let keep = gix::ignore::Search::from_overrides(
        keep.iter().map(std::ffi::OsString::from),
        gix::ignore::search::Ignore::default(),
    );
    let mut doomed = Vec::new();
    for entry in entries {
        let rela = entry.rela_path;
        if matches!(entry.disk_kind, Some(Kind::Repository)) {
            return Err(format!("{rela} is a nested repository"));
        }
        if !matches!(entry.status, Status::Ignored(_)) {
            continue;
        }
        if rela.split_str("/").next() == Some(b".git".as_slice()) {
            return Err(format!("{rela} is inside .git"));
        }
        let is_dir = match entry.disk_kind {
            Some(Kind::Directory) => true,
            Some(Kind::File | Kind::Symlink) => false,
            _ => continue, // gone meanwhile
        };
        let kept = keep
            .pattern_matching_relative_path(
                rela.as_bstr(),
                Some(is_dir),
                gix::glob::pattern::Case::Sensitive,
            )
            .is_some_and(|m| !m.pattern.is_negative());
        if kept {
            continue;
        }
        // Never a path the index tracks, nor a directory holding one.
        let tracked = index.entries().iter().any(|e| {
            let path = e.path(&index);
            path == rela || (path.starts_with(&rela) && path.get(rela.len()) == Some(&b'/'))
        });
        if tracked {
            return Err(format!("{rela} is tracked"));
        }
        let rel = rela
            .to_str()
            .map_err(|_| format!("{rela} is not UTF-8"))?
            .to_owned();
        doomed.push(rel);
    }
    doomed.sort();
    Ok(doomed)
}

/// gix's walk of the worktree with its own ignore rules, as `git status
/// --ignored` lists it: untracked and ignored entries (an ignored directory
/// as one), never recursing into a nested repository.
fn walk_ignored(
    repo: &gix::Repository,
    index: &gix::index::File,
) -> std::result::Result<Vec<gix::dir::Entry>, String> {
    use gix::dir::walk::EmissionMode;
    let options = repo
        .dirwalk_options()
        .map_err(|e| e.to_string())?
        .emit_untracked(EmissionMode::Matching)
        .emit_ignored(Some(EmissionMode::CollapseDirectory))
        .emit_tracked(false)
        .recurse_repositories(false)
        .emit_pruned(false);
    let mut collect = gix::dir::walk::delegate::Collect::default();
    let none: [&gix::bstr::BStr; 0] = [];
    repo.dirwalk(
        index,
        none,
        &std::sync::atomic::AtomicBool::new(false),
        options,
        &mut collect,
    )
    .map_err(|e| e.to_string())?;
    Ok(collect
        .unorded_entries
        .into_iter()
        .map(|(entry, _)| entry)
        .collect())
}

/// Remove `path`: a symlink or file as itself, a directory with what it
/// holds — refusing a directory that holds a `.git` (a repository).
fn remove_tree(path: &Path) -> std::io::Result<()> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    if !meta.is_dir() {
        return std::fs::remove_file(path);
    }
    for entry in std::fs::read_dir(path)? {
        let entry = entry?;
        if entry.file_name() == ".git" {
            return Err(std::io::Error::other(format!(
                "{} holds a repository",
                path.display()
            )));
        }
        remove_tree(&entry.path())?;
    }
    std::fs::remove_dir(path)
}
