//! `cleanup --recycle` (`cleanup.recycle`): a worktree cleanup would remove
//! goes back into the pool instead, while the pool holds fewer than
//! `pool.size` members.
//!
//! Only a worktree the removal rules would remove, and not sparse, is
//! recycled: its verdict is [`remove_worktree`]'s own dry run (registered, not locked, nothing at
//! risk — no operation in progress, no commit only its HEAD holds, no nested
//! repository, no process working in it — and clean as `git worktree
//! remove` judges it). It is then detached at its run's base (`git switch
//! --detach`, hooks off: only files that differ are written, ignored files —
//! `target/`, `node_modules/` — stay as a warm cache) and moved to
//! `.loop-worktrees/.pool/<base>-<suffix>` (`git worktree move`). The run's
//! branch is kept, as always. Anything that goes wrong on the way falls back
//! to the usual removal. Runs under cleanup's worktree-operation lock.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::commands::Ctx;
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
}

impl Recycler {
    /// For the runs `selected`, with `pool.size` places less the members
    /// there are. Creates `.loop-worktrees/.pool/` when it recycles at all.
    pub fn new(ctx: &Ctx, selected: &[Entry]) -> Result<Recycler> {
        let size = ctx.settings()?.pool_size.value;
        let have = super::members(&ctx.repo)?.len();
        let bases = selected
            .iter()
            .filter_map(|e| Some((e.id.clone(), ctx.repo.resolve_commit(&e.base_branch)?)))
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
}

/// Recycle the run `id` into the pool when it would be removed and there is
/// room; otherwise remove it as [`remove_worktree`] does.
pub fn recycle(r: &Remover<'_>, recycler: &Recycler, id: &str) -> Result<Removal> {
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
    if let Ok(Ok(())) = r.git.switch_quietly(&abs, None, &hex) {
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
