//! `create`'s use of the pool: claim and check a member before the
//! worktree-operation lock ([`claim_for_create`]); under it, discard the
//! members that failed and move the chosen one into place
//! ([`Claimed::move_in`]); after it, switch the moved worktree to
//! `loop/<id>` at the base and run its `post-checkout` hook ([`Taken::switch`]).
//!
//! The result is what `git worktree add -b loop/<id>` makes: the branch at
//! the base, HEAD on it, the index and tracked files equal to the base's
//! tree (`git switch` writes only the files that differ from the member's
//! commit, and refuses rather than overwrite a change — there is none: the
//! member was checked clean), no untracked file that is not ignored, and the
//! hook run as `git worktree add` runs it (`<null> <commit> 1`). Only the
//! ignored files the member kept (its warm cache) differ. The checks, which
//! read every file, run before the lock; the lock covers the discards and one
//! `git worktree move` (a rename).

use super::check::{discard, unfit};
use super::{Claim, Member, POOL_DIR, members};
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::git::cmd::Git;
use crate::output::Notes;
use crate::signals::RollbackWindow;
use crate::worktree::Remover;

/// What a create claimed from the pool: the member it will take (if any
/// passed its checks), and the members that failed theirs, still claimed
/// where they could be, to be discarded under the lock.
pub struct Claimed {
    chosen: Option<(Member, Claim)>,
    unfit: Vec<(Member, String, Option<Claim>)>,
}

/// A member moved to `.loop-worktrees/<id>`, not yet switched.
pub struct Taken;

/// Claim a fit member for a create from `base`, preferring one already at
/// `base` (fewest files to write). `None` when there is no pool.
pub fn claim_for_create(ctx: &Ctx, base: gix::ObjectId) -> Result<Option<Claimed>> {
    if std::fs::symlink_metadata(ctx.loop_dir().join(POOL_DIR)).is_err() {
        return Ok(None);
    }
    let mut candidates = members(&ctx.repo)?;
    candidates.sort_by_key(|m| m.commit != Some(base));
    let git = ctx.repo.git();
    let remover = Remover::new(&ctx.repo, &git)?;
    let mut claimed = Claimed {
        chosen: None,
        unfit: Vec::new(),
    };
    for m in candidates {
        let Some(claim) = Claim::try_take(&m.abs) else {
            if std::fs::symlink_metadata(&m.abs).is_err() {
                claimed
                    .unfit
                    .push((m, "its directory is missing".into(), None));
            }
            // Otherwise another process holds it: not ours to judge.
            continue;
        };
        // A member that cannot even be read is unfit, not a failed create.
        match unfit(&remover, &m).unwrap_or_else(|e| Some(e.to_string())) {
            Some(why) => claimed.unfit.push((m, why, Some(claim))),
            None => {
                claimed.chosen = Some((m, claim));
                break;
            }
        }
    }
    Ok(Some(claimed))
}

impl Claimed {
    /// Under the worktree-operation lock: discard the members that failed
    /// their checks (saying so on stderr), then move the chosen one to
    /// `rel` (`.loop-worktrees/<id>`, checked free by the caller under the
    /// same lock). `None` when no member was taken: the create checks out
    /// from scratch.
    pub fn move_in(
        self,
        ctx: &Ctx,
        git: &Git,
        rel: &str,
        out: &mut Notes<'_>,
    ) -> Result<Option<Taken>> {
        if !self.unfit.is_empty() {
            // Read under the lock: a registration cannot change meanwhile.
            let now = members(&ctx.repo)?;
            let mut remover = Remover::new(&ctx.repo, git)?;
            for (m, why, _claim) in &self.unfit {
                let Some(current) = now.iter().find(|n| n.name == m.name) else {
                    continue;
                };
                match discard(&mut remover, current, why.clone()) {
                    Ok(d) => out.note(format_args!("{}", d.line())),
                    Err(e) => out.note(format_args!(
                        "warning: could not discard pool member {}: {e}",
                        m.rel()
                    )),
                }
            }
        }
        let Some((m, _claim)) = self.chosen else {
            return Ok(None);
        };
        match git.worktree_move(&m.rel(), rel)? {
            Ok(()) => {
                // A rename keeps the member's old mtimes: until the run is
                // recorded it looks like an orphan, and `reconcile
                // --remove-orphan` judges an orphan's age by them. Made
                // young, it is `too-young`, as a fresh `git worktree add` is.
                let _ = std::fs::File::open(ctx.repo.root().join(rel))
                    .and_then(|dir| dir.set_modified(std::time::SystemTime::now()));
                Ok(Some(Taken))
            }
            Err(failure) => {
                out.note(format_args!(
                    "warning: could not take pool member {}: {}; checking out instead",
                    m.rel(),
                    failure.reason()
                ));
                Ok(None)
            }
        }
    }
}

impl Taken {
    /// After the lock: `git switch --no-track -c <branch> <commit>` in the
    /// moved worktree, then its `post-checkout` hook. A failed switch fails
    /// the create (the worktree is left for a person to look at, as after a
    /// failed checkout); a failed hook is a warning, as with `git worktree add`.
    pub fn switch(
        &self,
        ctx: &Ctx,
        git: &Git,
        id: &str,
        commit_hex: &str,
        window: &RollbackWindow,
        out: &mut Notes<'_>,
    ) -> Result<()> {
        let abs = ctx.worktree_path(id);
        let rel = crate::runid::rel_path(id);
        let branch = crate::runid::branch_name(id);
        if let Err(failure) =
            window.child(|| git.switch_quietly(&abs, Some(&branch), commit_hex))?
        {
            return Err(Error::Checkout {
                path: rel,
                reason: failure.reason(),
            });
        }
        if ctx.repo.may_have_post_checkout_hook()
            && let Err(failure) = window.child(|| git.post_checkout_hook(&abs, commit_hex))?
        {
            out.note(format_args!(
                "warning: the post-checkout hook failed in {rel}: {}",
                failure.reason()
            ));
        }
        Ok(())
    }
}
