//! `git loop create <TASK> --attempts <N>`: the runs `<TASK>.1` …
//! `<TASK>.<N>` of one task (best of N), made in one command, all or none.
//!
//! Attempts are ordinary runs: each has its worktree, its branch and its
//! manifest entry, made as a single create makes them (the module doc of
//! [`crate::ops::create`] is the order of work), with these differences:
//! - **Once for all**: the base is resolved (and `--fetch`ed) once, so every
//!   attempt starts from the same commit; the refusals run for every
//!   attempt before anything is written: an active attempt of the task
//!   (any active run whose id is `<TASK>.<n>`, [`crate::runid::attempt_of`])
//!   refuses the whole create, naming them.
//! - **A later round continues the numbering** ([`first_attempt`]): when an
//!   earlier round of the task left attempts (their branches, which
//!   cleanup keeps, or their entries, rejected or merged), this round's
//!   runs are numbered after the highest of them (`fix.4` … `fix.6` after
//!   `fix.1` … `fix.3`), and a note on stderr says so. Nothing of the
//!   earlier round is reused, replaced or deleted: the choice that never
//!   asks anyone to delete a branch that may hold the only copy of work.
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
//!   create's rollback ([`crate::ops::create::rollback`]: the worktree removed when it
//!   holds nothing but what was checked out, the branch deleted while it is
//!   where this create made it); each undo is said on stderr, and the error
//!   names what was undone. A worktree the rollback may not remove (a
//!   post-command left untracked files in it) is left and named. A pool
//!   member taken by an undone attempt is removed with it, not returned.
//! - `--reuse` is refused: attempts are always new runs.
//! - **Ports** (`--ports`, `create.ports`): each attempt is leased its own,
//!   in the hold of the mutex that writes the N entries (a lease is only
//!   ever made with the manifest write that records its run, as for one
//!   create: a lease whose run is not in the manifest is free for the next
//!   create to take). A lease that cannot be made (too few free ports)
//!   fails the create and undoes every attempt, leases included.
//!
//! Because the post-command runs before the record, `git loop path
//! <TASK>.<n>` does not know the attempt yet inside it; the `GIT_LOOP_*`
//! variables it is given say everything about the attempt but its ports,
//! which are leased with the record (`git loop env <TASK>.<n>` and `git
//! loop run` give them afterwards).

use std::sync::{Arc, Mutex};

mod add;
mod record;

use crate::config::Settings;
use crate::configured_command::ConfiguredCommand;
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::lock::ManifestMutex;
use crate::manifest::{Manifest, Status};
use crate::ops::base;
use crate::ops::create::CreateRequest;
use crate::ops::create::{Created, Method, Plan, branch_exists, fresh, rollback};
use crate::ops::ignore::IgnoreTarget;
use crate::output::Notes;
use crate::runid;
use crate::signals::RollbackWindow;

/// The most attempts one create makes.
pub const MAX_ATTEMPTS: u32 = 64;

/// Usage checks of `--attempts N`, before the repository is touched (the id
/// and label are checked by [`crate::ops::create::validate`]).
pub fn validate(args: &CreateRequest, n: u32) -> Result<()> {
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
pub(super) type Made = Arc<Mutex<Vec<(String, Option<gix::ObjectId>)>>>;

/// Make the attempts (see the module doc). The runs, in attempt order.
pub fn create_all(
    ctx: &Ctx,
    args: &CreateRequest,
    n: u32,
    out: &mut Notes<'_>,
) -> Result<Vec<Created>> {
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
    let made_all = add::add_all(ctx, args, &plans, &made, &window, out)
        .and_then(|pooled| add::check_out_all(ctx, &plans, &pooled, &window, out).map(|()| pooled))
        .and_then(|pooled| {
            let set_up =
                record::set_up_all(ctx, settings, &plans, post_command.as_ref(), &window, out)?;
            let recorded = record::record_all(ctx, args, &plans, &window, out)?;
            Ok((pooled, set_up, recorded))
        });
    let (pooled, set_up, entries) = match made_all {
        Ok(done) => done,
        Err(e) => return Err(record::undo_all(ctx, task, &made, &window, e, out)),
    };
    // Recorded: a signal from here on leaves the attempts in place.
    drop(window);
    let created: Vec<Created> = plans
        .into_iter()
        .zip(pooled)
        .zip(set_up)
        .zip(entries)
        .map(
            |(((plan, pooled), (copy, post_command)), (entry, ports))| Created {
                entry,
                abs_path: plan.abs,
                method: if pooled {
                    Method::Pooled
                } else {
                    Method::Created
                },
                upstream: plan.upstream,
                ports,
                copy,
                post_command,
                error: None,
            },
        )
        .collect();
    for c in &created {
        crate::ops::create::progress::say_done(c, out);
    }
    Ok(created)
}

/// Every refusal that needs no lock, for every attempt, then the fetch and
/// the ignore line: one plan per attempt, all from one base commit.
fn plan<'s>(
    ctx: &'s Ctx,
    args: &CreateRequest,
    n: u32,
    settings: &'s Settings,
    out: &mut Notes<'_>,
) -> Result<(Vec<Plan<'s>>, Option<ConfiguredCommand<'s>>)> {
    let task = args.run_id.as_str();
    let (base, mut base_commit) = base::resolve(ctx, args.base.as_deref(), &settings.base, out)?;
    crate::ops::create::refuse_missing_sparse_dirs(ctx, &args.sparse, base_commit, &base)?;
    let ignore = IgnoreTarget::of(ctx, settings.create_ignore_file.value);
    let manifest = match ctx.loop_dir_exists()? {
        true => ctx.manifest.load_or_default()?,
        false => Manifest::default(),
    };
    refuse_active_attempts(&manifest, task)?;
    let first = first_attempt(ctx, &manifest, task)?;
    let ids: Vec<String> = (first..first.saturating_add(n))
        .map(|i| runid::attempt_id(task, i))
        .collect();
    if first > 1 {
        out.note(format_args!(
            "note: an earlier round of {task:?} left attempts up to {} (their branches and entries are kept): this round is {} … {}",
            runid::attempt_id(task, first - 1),
            ids[0],
            ids[ids.len() - 1]
        ));
        runid::validate(&ids[ids.len() - 1])?;
    }
    for id in &ids {
        let branch = runid::branch_name(id);
        if ctx.repo.branch_exists(&branch)? {
            return Err(branch_exists(ctx, id, branch));
        }
    }
    let post_command = ctx.configured(crate::configured_command::Kind::CreatePost)?;
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
            ports: args.ports.unwrap_or(settings.create_ports.value),
            id,
        })
        .collect();
    Ok((plans, post_command))
}

/// The number of this round's first attempt: 1, or one past the highest
/// attempt of `task` an earlier round left, as a branch `loop/<TASK>.<n>`
/// or an entry of any status (see the module doc).
fn first_attempt(ctx: &Ctx, manifest: &Manifest, task: &str) -> Result<u32> {
    let of_task = |id: &str| match runid::attempt_of(id) {
        Some((t, n)) if t == task => Some(n),
        _ => None,
    };
    // Every run branch (a ref prefix ends at a path component).
    let prefix = format!("refs/heads/{}/", runid::BRANCH_PREFIX);
    let branches = crate::git::refs::prefixed(ctx.repo.gix(), &prefix)?;
    let left = branches
        .iter()
        .filter_map(|(name, _)| std::str::from_utf8(name.strip_prefix(prefix.as_bytes())?).ok())
        .filter_map(of_task)
        .chain(manifest.worktrees.iter().filter_map(|e| of_task(&e.id)))
        .max();
    Ok(left.map_or(1, |n| n.saturating_add(1)))
}

/// The refusal of a task with active attempts, naming them in attempt order.
pub(super) fn refuse_active_attempts(manifest: &Manifest, task: &str) -> Result<()> {
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

/// The register, locked (a poisoned lock still holds the register).
fn lock(made: &Made) -> std::sync::MutexGuard<'_, Vec<(String, Option<gix::ObjectId>)>> {
    made.lock().unwrap_or_else(|p| p.into_inner())
}
