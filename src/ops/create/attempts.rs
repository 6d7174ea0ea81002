//! `git loop create <TASK> --attempts <N>`: the runs `<TASK>.1` …
//! `<TASK>.<N>` of one task (best of N), made in one command, all or none.
//!
//! Attempts are ordinary runs: each has its worktree, its branch and its
//! manifest entry, made as a single create makes them (the module doc of
//! [`super`] is the order of work), with these differences:
//! - **Once for all**: the base is resolved (and `--fetch`ed) once, so every
//!   attempt starts from the same commit; the refusals run for every
//!   attempt before anything is written: an active attempt of the task
//!   (any active run whose id is `<TASK>.<n>`, [`crate::runid::attempt_of`])
//!   refuses the whole create, naming them, as does an existing
//!   `loop/<TASK>.<n>`.
//! - **One hold of the worktree-operation lock** for the N adds, each
//!   `git worktree add --no-checkout` (or a pool member moved into place:
//!   members are claimed before the lock, one per attempt while the pool
//!   has them; the rest are checked out fresh). Then, outside the lock, the
//!   N checkouts (or the members' switches to their branches) run in
//!   parallel, each followed by its `post-checkout` hook.
//! - **All or nothing**: `create.copy` and `create.post-command` run in
//!   each attempt in turn *before* the attempts are recorded, and the N
//!   entries are written in one manifest write. Until that write succeeds, a
//!   failure (a checkout, a post-command that fails, a recheck under the
//!   lock) or SIGINT/SIGTERM undoes every attempt made so far with a
//!   create's rollback ([`super::rollback`]: the worktree removed when it
//!   holds nothing but what was checked out, the branch deleted while it is
//!   where this create made it); each undo is said on stderr, and the error
//!   names what was undone. A worktree the rollback may not remove (a
//!   post-command left untracked files in it) is left and named. A pool
//!   member taken by an undone attempt is removed with it, not returned.
//! - `--reuse` is refused: attempts are always new runs.
//!
//! Because the post-command runs before the record, `git loop path
//! <TASK>.<n>` does not know the attempt yet inside it; the `GIT_LOOP_*`
//! variables it is given say everything about the attempt.

use std::sync::{Arc, Mutex};

use super::{Created, Method, Plan, branch_exists, checkout, fresh, rollback};
use crate::cli::CreateArgs;
use crate::config::Settings;
use crate::configured_command::ConfiguredCommand;
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::git::cmd::{Git, Start};
use crate::lock::{ManifestMutex, OpsLock};
use crate::manifest::{Entry, Manifest, Status};
use crate::ops::base;
use crate::ops::ignore::IgnoreTarget;
use crate::ops::pool;
use crate::output::Out;
use crate::runid;
use crate::signals::RollbackWindow;

/// The most attempts one create makes.
pub const MAX_ATTEMPTS: u32 = 64;

/// Usage checks of `--attempts N`, before the repository is touched (the id
/// and label are checked by [`super::validate`]).
pub fn validate(args: &CreateArgs, n: u32) -> Result<()> {
    let invalid = |reason: &str| Error::InvalidAttempts {
        value: n.to_string(),
        reason: reason.to_owned(),
    };
    if args.reuse {
        return Err(invalid(
            "--reuse hands back one existing run, and attempts are always new runs; leave out --reuse (to carry on from one attempt: git loop create <TASK>.<n> --reuse)",
        ));
    }
    if !(1..=MAX_ATTEMPTS).contains(&n) {
        return Err(invalid(&format!("give a number from 1 to {MAX_ATTEMPTS}")));
    }
    // The longest id is the last one's.
    runid::validate(&runid::attempt_id(&args.run_id, n))
}

/// The attempts made in the register a rollback reads: each id, with the
/// commit its branch was made at.
type Made = Arc<Mutex<Vec<(String, Option<gix::ObjectId>)>>>;

/// Make the attempts (see the module doc). The runs, in attempt order.
pub fn run(ctx: &Ctx, args: &CreateArgs, n: u32, out: &mut Out<'_>) -> Result<Vec<Created>> {
    let settings = ctx.settings()?;
    let task = args.run_id.as_str();
    let (plans, post_command) = plan(ctx, args, n, settings, out)?;
    let made: Made = Arc::default();
    let window = RollbackWindow::open({
        let (root, made) = (ctx.repo.root().to_path_buf(), made.clone());
        move || {
            let made = made.lock().unwrap_or_else(|p| p.into_inner()).clone();
            for (id, at) in made {
                let (_, said) = rollback::undo(&root, &id, at);
                crate::signals::say(&format!("git-loop: interrupted: {said}"));
            }
        }
    });
    let made_all = add_all(ctx, args, &plans, &made, &window, out)
        .and_then(|pooled| check_out_all(ctx, &plans, &pooled, &window, out).map(|()| pooled))
        .and_then(|pooled| {
            let set_up = set_up_all(ctx, settings, &plans, post_command.as_ref(), &window, out)?;
            let entries = record_all(ctx, args, &plans, &window, out)?;
            Ok((pooled, set_up, entries))
        });
    let (pooled, set_up, entries) = match made_all {
        Ok(done) => done,
        Err(e) => return Err(undo_all(ctx, task, &made, &window, e, out)),
    };
    // Recorded: a signal from here on leaves the attempts in place.
    drop(window);
    let created: Vec<Created> = plans
        .into_iter()
        .zip(pooled)
        .zip(set_up)
        .zip(entries)
        .map(|(((plan, pooled), (copy, post_command)), entry)| Created {
            entry,
            abs_path: plan.abs,
            method: if pooled {
                Method::Pooled
            } else {
                Method::Created
            },
            upstream: plan.upstream,
            copy,
            post_command,
            error: None,
        })
        .collect();
    for c in &created {
        super::progress::say_done(c, out);
    }
    Ok(created)
}

/// Every refusal that needs no lock, for every attempt, then the fetch and
/// the ignore line: one plan per attempt, all from one base commit.
fn plan<'s>(
    ctx: &Ctx,
    args: &CreateArgs,
    n: u32,
    settings: &'s Settings,
    out: &mut Out<'_>,
) -> Result<(Vec<Plan<'s>>, Option<ConfiguredCommand<'s>>)> {
    let task = args.run_id.as_str();
    let (base, mut base_commit) = base::resolve(ctx, args.base.as_deref(), &settings.base, out)?;
    super::refuse_missing_sparse_dirs(ctx, &args.sparse, base_commit, &base)?;
    let ignore = IgnoreTarget::of(ctx, settings.create_ignore_file.value);
    if ctx.loop_dir_exists()? {
        refuse_active_attempts(&ctx.manifest.load_or_default()?, task)?;
    }
    let ids: Vec<String> = (1..=n).map(|i| runid::attempt_id(task, i)).collect();
    for id in &ids {
        let branch = runid::branch_name(id);
        if ctx.repo.branch_exists(&branch)? {
            return Err(branch_exists(ctx, id, branch));
        }
    }
    let post_command = crate::configured_command::lookup(
        settings,
        crate::configured_command::Kind::CreatePost,
        ctx.repo.root(),
        ctx.repo.common_dir(),
    )?;
    ignore.refuse_symlink()?;
    let fetch = args.fetch || settings.create_fetch.value;
    let upstream = fresh::check(ctx, &base, &mut base_commit, fetch, out)?;
    ctx.ensure_loop_dir()?;
    if !ignore.has_loop_dir()? {
        let _mutex = ManifestMutex::acquire(&ctx.loop_dir())?;
        refuse_active_attempts(&ctx.manifest.load_or_default()?, task)?;
        ignore.ensure(out)?;
    }
    let plans = ids
        .into_iter()
        .map(|id| Plan {
            branch: runid::branch_name(&id),
            rel: runid::rel_path(&id),
            abs: ctx.worktree_path(&id),
            base: base.clone(),
            base_commit,
            upstream: upstream.clone(),
            post_command: None,
            id,
        })
        .collect();
    Ok((plans, post_command))
}

/// The refusal of a task with active attempts, naming them in attempt order.
fn refuse_active_attempts(manifest: &Manifest, task: &str) -> Result<()> {
    let mut active: Vec<(u32, &str)> = manifest
        .worktrees
        .iter()
        .filter(|e| e.status == Status::Active)
        .filter_map(|e| match runid::attempt_of(&e.id) {
            Some((t, n)) if t == task => Some((n, e.id.as_str())),
            _ => None,
        })
        .collect();
    if active.is_empty() {
        return Ok(());
    }
    active.sort();
    let ids: Vec<&str> = active.into_iter().map(|(_, id)| id).collect();
    Err(Error::AttemptsActive {
        task: task.to_owned(),
        ids: ids.join(", "),
    })
}

/// Under one hold of the worktree-operation lock: each attempt's branch and
/// path checked again, registered for the rollback, then added with
/// `--no-checkout` (or a pool member claimed before the lock moved into
/// place). Which attempts were taken from the pool.
fn add_all(
    ctx: &Ctx,
    args: &CreateArgs,
    plans: &[Plan<'_>],
    made: &Made,
    window: &RollbackWindow,
    out: &mut Out<'_>,
) -> Result<Vec<bool>> {
    let git = Git::new(ctx.repo.root());
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

fn lock(made: &Made) -> std::sync::MutexGuard<'_, Vec<(String, Option<gix::ObjectId>)>> {
    made.lock().unwrap_or_else(|p| p.into_inner())
}

/// Outside the lock, in parallel: each fresh attempt checked out the way
/// `git worktree add` does it, each pool member switched to its branch at
/// the base; then its `post-checkout` hook (a failed hook is a warning, as
/// with `git worktree add`). The first failed checkout fails the create.
fn check_out_all(
    ctx: &Ctx,
    plans: &[Plan<'_>],
    pooled: &[bool],
    window: &RollbackWindow,
    out: &mut Out<'_>,
) -> Result<()> {
    let git = Git::new(ctx.repo.root()).with_checkout_workers(checkout::workers(ctx.repo.gix()));
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

/// What [`set_up_all`] did in one attempt.
type SetUp = (
    Option<crate::copy::CopyReport>,
    Option<crate::configured_command::Outcome>,
);

/// Before the record, each attempt in turn: `create.copy` (a failure is a
/// warning, as for one create), then `create.post-command`, whose failure
/// fails the create (and so undoes every attempt).
fn set_up_all(
    ctx: &Ctx,
    settings: &Settings,
    plans: &[Plan<'_>],
    post_command: Option<&ConfiguredCommand<'_>>,
    window: &RollbackWindow,
    out: &mut Out<'_>,
) -> Result<Vec<SetUp>> {
    let mut set_up = Vec::with_capacity(plans.len());
    for plan in plans {
        let copy = match crate::copy::copy_into(
            ctx.repo.gix(),
            &settings.create_copy.value,
            &plan.abs,
            false,
        ) {
            Ok(copied) => copied,
            Err(e) => {
                out.note(format_args!("warning: create.copy: {e}"));
                None
            }
        };
        let mut outcome = None;
        if let Some(command) = post_command {
            let env = crate::configured_command::env_for(
                &plan.id,
                ctx.repo.root(),
                &plan.abs,
                &plan.branch,
            );
            let ended =
                window.child(|| crate::configured_command::run(command, &plan.abs, &env))?;
            if !ended.ok {
                return Err(Error::AttemptsFailed {
                    task: String::new(),
                    reason: format!(
                        "create.post-command `{}` {} in {}",
                        ended.command,
                        ended.describe(),
                        plan.rel
                    ),
                    undone: String::new(),
                    code: "post-command-failed",
                });
            }
            outcome = Some(ended);
        }
        set_up.push((copy, outcome));
    }
    Ok(set_up)
}

/// The N entries in one manifest write (the window closes with it), then a
/// `create` event for each. The entries, as recorded.
fn record_all(
    ctx: &Ctx,
    args: &CreateArgs,
    plans: &[Plan<'_>],
    window: &RollbackWindow,
    out: &mut Out<'_>,
) -> Result<Vec<Entry>> {
    let mutex = ManifestMutex::acquire(&ctx.loop_dir())?;
    let mut manifest = ctx.manifest.load_or_default()?;
    refuse_active_attempts(&manifest, &args.run_id)?;
    let now = crate::time::now();
    let entries: Vec<Entry> = plans
        .iter()
        .map(|p| Entry::new(&p.id, &p.base, &args.pattern, now))
        .collect();
    manifest
        .worktrees
        .retain(|e| !entries.iter().any(|n| n.id == e.id));
    manifest.worktrees.extend(entries.iter().cloned());
    window.commit(|| ctx.manifest.write(&manifest, &mutex))?;
    drop(mutex);
    let events: Vec<_> = entries
        .iter()
        .map(|e| super::record::create_event(e, None))
        .collect();
    ctx.log_events(&events, out);
    Ok(entries)
}

/// A failure before the record: undo every attempt made so far (busy, so
/// a signal meanwhile waits for the undo, then finds nothing left to do),
/// say each undo on stderr, and return the failure with what was undone.
fn undo_all(
    ctx: &Ctx,
    task: &str,
    made: &Made,
    window: &RollbackWindow,
    failure: Error,
    out: &mut Out<'_>,
) -> Error {
    let attempts = std::mem::take(&mut *lock(made));
    let (mut undone, mut left) = (Vec::new(), Vec::new());
    window.child(|| {
        for (id, at) in &attempts {
            let (all, said) = rollback::undo(ctx.repo.root(), id, *at);
            out.note(format_args!("{said}"));
            match all {
                true => undone.push(id.as_str()),
                false => left.push(id.as_str()),
            }
        }
    });
    let mut said = match undone.is_empty() {
        true => "no attempt had been made".to_owned(),
        false => format!("rolled back {}", undone.join(", ")),
    };
    if !left.is_empty() {
        said.push_str(&format!("; left {} in place (see above)", left.join(", ")));
    }
    let (reason, code) = match failure {
        Error::AttemptsFailed { reason, code, .. } => (reason, code),
        other => (other.to_string(), other.code()),
    };
    Error::AttemptsFailed {
        task: task.to_owned(),
        reason,
        undone: said,
        code,
    }
}
