//! The attempts' worktrees: added under one hold of the
//! worktree-operation lock, then checked out in parallel outside it.

use super::{Made, lock};
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::git::cmd::Start;
use crate::lock::OpsLock;
use crate::ops::create::CreateRequest;
use crate::ops::create::{Plan, branch_exists, checkout};
use crate::ops::pool;
use crate::output::Notes;
use crate::signals::RollbackWindow;

/// Under one hold of the worktree-operation lock: each attempt's branch and
/// path checked again, registered for the rollback, then added with
/// `--no-checkout` (or a pool member claimed before the lock moved into
/// place). Which attempts were taken from the pool.
pub(super) fn add_all(
    ctx: &Ctx,
    args: &CreateRequest,
    plans: &[Plan<'_>],
    made: &Made,
    window: &RollbackWindow,
    out: &mut Notes<'_>,
) -> Result<Vec<bool>> {
    let git = ctx.repo.git();
    // One member per attempt while the pool has fit ones; each claim is
    // held until its member is moved (a member claimed here is skipped by
    // the next claim). Not for a sparse run (a member is a full checkout).
    let mut warm = Vec::with_capacity(plans.len());
    for plan in plans {
        warm.push(match args.sparse.is_empty() {
            true => pool::claim_for_create(ctx, plan.base_commit)?,
            false => None,
        });
    }
    let ops = OpsLock::acquire(&ctx.loop_dir(), |waiting| {
        out.note(format_args!("{waiting}"))
    })?;
    // Busy for the whole hold: a signal is acted on once the lock is
    // released (the rollback takes it).
    window.enter();
    let added = (|| {
        let mut pooled = Vec::with_capacity(plans.len());
        for (plan, warm) in plans.iter().zip(warm) {
            if ctx.repo.branch_target(&plan.branch)?.is_some() {
                return Err(branch_exists(ctx, &plan.id, plan.branch.clone()));
            }
            if plan.abs.symlink_metadata().is_ok() {
                return Err(Error::PathExists {
                    path: plan.rel.clone(),
                });
            }
            lock(made).push((plan.id.clone(), Some(plan.base_commit)));
            let taken = match warm {
                Some(claimed) => claimed.move_in(ctx, &git, &plan.rel, out)?,
                None => None,
            };
            if taken.is_none() {
                let hex = plan.base_commit.to_string();
                git.worktree_add(&plan.branch, &plan.rel, Start::NewBranchAt(&hex), false)?
                    .map_err(Error::from)?;
            }
            checkout::set_sparse(&git, &plan.abs, &plan.rel, &args.sparse)?;
            pooled.push(taken.is_some());
        }
        Ok(pooled)
    })();
    drop(ops);
    window.leave();
    added
}

/// Outside the lock, in parallel: each fresh attempt checked out the way
/// `git worktree add` does it, each pool member switched to its branch at
/// the base; then its `post-checkout` hook (a failed hook is a warning, as
/// with `git worktree add`). The first failed checkout fails the create.
pub(super) fn check_out_all(
    ctx: &Ctx,
    plans: &[Plan<'_>],
    pooled: &[bool],
    window: &RollbackWindow,
    out: &mut Notes<'_>,
) -> Result<()> {
    let git = ctx
        .repo
        .git()
        .with_checkout_workers(checkout::workers(ctx.repo.gix()));
    let hook = ctx.repo.may_have_post_checkout_hook();
    crate::crash::point("before-checkout");
    let one = &|plan: &Plan<'_>, pooled: bool| -> Result<Option<String>> {
        let hex = plan.base_commit.to_string();
        let checked = match pooled {
            true => git.switch_quietly(&plan.abs, Some(&plan.branch), &hex)?,
            false => git.checkout_new_worktree(&plan.abs)?,
        };
        if let Err(failure) = checked {
            return Err(Error::Checkout {
                path: plan.rel.clone(),
                reason: failure.reason(),
            });
        }
        Ok(match hook {
            true => git.post_checkout_hook(&plan.abs, &hex)?.err().map(|f| {
                format!(
                    "warning: the post-checkout hook failed in {}: {}",
                    plan.rel,
                    f.reason()
                )
            }),
            false => None,
        })
    };
    let results: Vec<Result<Option<String>>> = window.child(|| {
        std::thread::scope(|s| {
            let jobs: Vec<_> = plans
                .iter()
                .zip(pooled)
                .map(|(plan, &pooled)| s.spawn(move || one(plan, pooled)))
                .collect();
            jobs.into_iter()
                .map(|j| j.join().expect("a checkout thread does not panic"))
                .collect()
        })
    });
    for result in results {
        if let Some(warning) = result? {
            out.note(format_args!("{warning}"));
        }
    }
    crate::crash::point("after-worktree-add");
    Ok(())
}
