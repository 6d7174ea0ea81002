//! Step 4 of a create: the worktree, added under the worktree-operation
//! lock ([`add`]) — from scratch, or a pool member moved into place — and,
//! once the lock is released, its checkout when the add was split, or the
//! member's switch to `loop/<id>` ([`check_out`]).

use super::{Method, Plan, branch_exists, checkout, rollback};
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::git::cmd::{Git, Start};
use crate::git::error::CommandError;
use crate::lock::OpsLock;
use crate::ops::create::CreateRequest;
use crate::ops::pool::{self, Claimed, Taken};
use crate::output::Notes;
use crate::signals::RollbackWindow;

/// A worktree added for the run, not yet recorded: what a signal or a failed
/// record undoes, and what [`check_out`] still has to do.
pub(super) struct Added {
    pub(super) git: Git,
    /// Armed with this create's rollback until the run is recorded.
    pub(super) window: RollbackWindow,
    /// The tip of an existing `loop/<id>` that `--reuse` adopted.
    pub(super) adopted: Option<gix::ObjectId>,
    /// The branch this create made, at this commit, which only it may
    /// delete again.
    pub(super) made_branch: Option<gix::ObjectId>,
    /// The commit checked out.
    pub(super) commit_hex: String,
    /// A pool member moved into place.
    taken: Option<Taken>,
    /// The add ran with `--no-checkout`: [`check_out`] checks it out.
    split: bool,
}

impl Added {
    pub(super) fn method(&self) -> Method {
        match (&self.taken, self.adopted) {
            (Some(_), _) => Method::Pooled,
            (None, Some(_)) => Method::Adopted,
            (None, None) => Method::Created,
        }
    }
}

/// Under the worktree-operation lock: check the branch and path again, then
/// add the worktree (or move a pool member claimed before the lock into
/// place). The rollback window opens before the add.
pub(super) fn add(
    ctx: &Ctx,
    args: &CreateRequest,
    plan: &Plan<'_>,
    out: &mut Notes<'_>,
) -> Result<Added> {
    let git = ctx
        .repo
        .git()
        .with_checkout_workers(checkout::workers(ctx.repo.gix()));
    let warm = claim_warm(ctx, args, plan)?;
    let ops = OpsLock::acquire(&ctx.loop_dir(), |waiting| {
        out.note(format_args!("{waiting}"))
    })?;
    let adopted = recheck(ctx, args, plan)?;
    let made_branch = adopted.is_none().then_some(plan.base_commit);
    let commit_hex = adopted.unwrap_or(plan.base_commit).to_string();
    // Uncontended: one plain `git worktree add` under the lock (fewest
    // processes). Contended — other creates are queuing — the lock covers
    // only `add --no-checkout` and the checkout runs in parallel outside it.
    // `--sparse` splits too: its patterns are set between the two steps.
    let split = ops.contended || crate::crash::force_split_add() || !args.sparse.is_empty();
    // From here until the run is recorded, SIGINT/SIGTERM undoes what this
    // create made (see `crate::signals`); git calls run "busy", so files are
    // never deleted under a running git.
    let window = RollbackWindow::open(rollback::rollback(ctx.repo.root(), &plan.id, made_branch));
    window.enter();
    let taken = match warm.filter(|_| adopted.is_none()) {
        Some(claimed) => window.child(|| claimed.move_in(ctx, &git, &plan.rel, out))?,
        None => None,
    };
    if taken.is_none() {
        let start = match adopted {
            Some(_) => Start::ExistingBranch,
            None => Start::NewBranchAt(&commit_hex),
        };
        if let Err(failure) = git.worktree_add(&plan.branch, &plan.rel, start, !split)? {
            failed_add(ctx, plan, made_branch, split, failure, out)?;
        }
    }
    checkout::set_sparse(&git, &plan.abs, &plan.rel, &args.sparse)?;
    // The registration exists: other adds may proceed.
    drop(ops);
    // A signal during the add is acted on here (the rollback takes the lock).
    window.leave();
    Ok(Added {
        git,
        window,
        adopted,
        made_branch,
        commit_hex,
        taken,
        split,
    })
}

/// A pool member claimed and checked before the lock (the checks read
/// every file), to be moved into place under it (see `crate::ops::pool`).
/// Not for a sparse run (a member is a full checkout), nor when loop/<id>
/// exists (--reuse adopts it as it is).
fn claim_warm(ctx: &Ctx, args: &CreateRequest, plan: &Plan<'_>) -> Result<Option<Claimed>> {
    if args.sparse.is_empty() && !ctx.repo.branch_exists(&plan.branch)? {
        pool::claim_for_create(ctx, plan.base_commit)
    } else {
        Ok(None)
    }
}

/// Under the lock, the checks of the plan again: the lock serializes every
/// git-loop `worktree add`, so they cannot race another create. A branch
/// that exists is adopted (--reuse; its tip is returned) and checked out as
/// it is, never moved, and never deleted by a rollback.
fn recheck(ctx: &Ctx, args: &CreateRequest, plan: &Plan<'_>) -> Result<Option<gix::ObjectId>> {
    let adopted = match ctx.repo.branch_target(&plan.branch)? {
        Some(_) if !args.reuse => return Err(branch_exists(ctx, &plan.id, plan.branch.clone())),
        tip => tip,
    };
    if plan.abs.symlink_metadata().is_ok() {
        return Err(Error::PathExists {
            path: plan.rel.clone(),
        });
    }
    Ok(adopted)
}

/// A `git worktree add` that failed, under the lock. `Ok` when only its
/// post-checkout hook failed (a warning, as with `git worktree add`);
/// otherwise the failure, after deleting the branch git may have made
/// before failing.
fn failed_add(
    ctx: &Ctx,
    plan: &Plan<'_>,
    made_branch: Option<gix::ObjectId>,
    split: bool,
    failure: CommandError,
    out: &mut Notes<'_>,
) -> Result<()> {
    let registered = plan.abs.exists()
        && ctx
            .repo
            .loop_worktrees()?
            .iter()
            .any(|(name, _)| *name == plan.id);
    if !split && registered {
        // git removes a failed add's worktree itself; one that is still
        // registered was complete, and only its post-checkout hook failed.
        out.note(format_args!(
            "warning: the post-checkout hook failed in {}: {}",
            plan.rel,
            failure.reason()
        ));
        return Ok(());
    }
    // git may have created the branch before failing. Under the lock
    // and after the check above, a branch at the base commit with no
    // worktree is this attempt's: remove it so a retry is not blocked.
    if made_branch.is_some()
        && !plan.abs.exists()
        && let Some(permit) =
            crate::safety::rollback_branch(ctx.repo.gix(), &plan.branch, plan.base_commit)
    {
        let _ =
            crate::safety::exec::delete_branch(&ctx.repo, &plan.branch, plan.base_commit, &permit);
    }
    Err(Error::from(failure))
}

/// After the lock: switch a pool member to `loop/<id>`, or check out a
/// split add (then its `post-checkout` hook). A failed checkout fails the
/// create and leaves the worktree for a person to look at; a failed hook is
/// a warning.
pub(super) fn check_out(
    ctx: &Ctx,
    plan: &Plan<'_>,
    added: &Added,
    out: &mut Notes<'_>,
) -> Result<()> {
    let (git, window) = (&added.git, &added.window);
    if let Some(taken) = &added.taken {
        crate::crash::point("before-pool-switch");
        taken.switch(ctx, git, &plan.id, &added.commit_hex, window, out)?;
    } else if added.split {
        crate::crash::point("before-checkout");
        if let Err(failure) = window.child(|| git.checkout_new_worktree(&plan.abs))? {
            return Err(Error::Checkout {
                path: plan.rel.clone(),
                reason: failure.reason(),
            });
        }
        if ctx.repo.may_have_post_checkout_hook()
            && let Err(failure) =
                window.child(|| git.post_checkout_hook(&plan.abs, &added.commit_hex))?
        {
            out.note(format_args!(
                "warning: the post-checkout hook failed in {}: {}",
                plan.rel,
                failure.reason()
            ));
        }
    }
    crate::crash::point("after-worktree-add");
    Ok(())
}
