//! The checkout arguments of `create`: git's parallel checkout
//! (`checkout.workers`) and `--sparse` (cone mode).
//!
//! What git does by itself, relied on here (git 2.36 and later): `git
//! worktree add` run in a sparse worktree copies that worktree's
//! sparse-checkout patterns and its `core.sparseCheckout*` settings into the
//! new worktree. git-loop always runs it in the main worktree, so a new run
//! of a sparse main worktree is sparse the same way, with nothing to do here.

use std::path::Path;

use crate::error::{Error, Result};
use crate::git::cmd::Git;

/// `checkout.workers` for a new worktree's checkout: `0` (one worker per
/// core) unless git's configuration sets `checkout.workers` itself, which is
/// then left to decide. git checks out sequentially below
/// `checkout.thresholdForParallelism` files (100 by default), so a small
/// repository pays nothing for it.
pub(super) fn workers(repo: &gix::Repository) -> Option<u32> {
    let configured = repo.config_snapshot().string("checkout.workers").is_some();
    (!configured).then_some(0)
}

/// `--sparse <DIR>…`: write the new worktree's cone patterns before it is
/// checked out (it was added with `--no-checkout`). Under the
/// worktree-operation lock, see [`Git::sparse_checkout_set`].
pub(super) fn set_sparse(git: &Git, worktree: &Path, rel: &str, dirs: &[String]) -> Result<()> {
    if dirs.is_empty() {
        return Ok(());
    }
    git.sparse_checkout_set(worktree, dirs)?
        .map_err(|failure| Error::Checkout {
            path: rel.to_owned(),
            reason: format!("git sparse-checkout set: {}", failure.reason()),
        })
}
