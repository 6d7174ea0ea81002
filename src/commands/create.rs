//! `git loop create <RUN_ID> --pattern <LABEL> [--base <BRANCH>]`
//!
//! Order of work, and why:
//! 1. Validate the id and label (usage errors, before anything is read).
//! 2. Resolve the base to a commit and refuse an existing `loop/<id>` branch
//!    (reads through gix; nothing written yet). Then, with `--fetch`, fetch
//!    the base's upstream, and warn when the base is behind it ([`fresh`]). Without `main`, the built-in
//!    default gives way to the repository's default branch ([`base`]).
//!    With `--reuse`, an active run of this id is reused as it is recorded
//!    instead ([`reuse`]); without, it is refused, naming its path.
//! 3. Under the manifest mutex: refuse an `active` entry with this id, and add
//!    `.loop-worktrees/` to `.gitignore`, or to `.git/info/exclude` with
//!    `create.ignore-file = "info-exclude"` ([`ignore`]). Release.
//! 4. Under the worktree-operation lock (see [`crate::lock`]): check the branch
//!    and path again — the lock serializes every git-loop `worktree add`, so
//!    this check cannot race another create — then run
//!    `git worktree add --no-track -b loop/<id> -- .loop-worktrees/<id> <commit>`.
//!    When other creates are queuing for the lock, split the add instead:
//!    `git worktree add --no-checkout …` under the lock — the part git cannot
//!    run concurrently (milliseconds) — then, outside it and in parallel with
//!    the others, the checkout the way `git worktree add` itself does it
//!    (`git reset --hard --no-recurse-submodules` in the new worktree, then
//!    its `post-checkout` hook). The result is identical (tested). Two creates of
//!    one id are safe because only one of them can create the branch: the
//!    other is refused by the re-check (or by git itself). If the checkout
//!    fails, the worktree is left for a person to look at (removing a
//!    half-checked-out worktree would need `--force`).
//! 5. Under the mutex again: re-read the manifest, replace a non-active entry
//!    with this id, append the new one, write atomically. If that fails, remove
//!    the worktree and the branch this process just made (the branch only if it
//!    still points at the base commit) and report the original error.
//!
//! From the `git worktree add` until the manifest write succeeds, SIGINT or
//! SIGTERM rolls the create back before exiting (see [`crate::signals`]):
//! the worktree is removed — by `git worktree remove`, or, for one git
//! refuses because it was never (or only partly) checked out, by the
//! verified removal of [`crate::leftover`], which removes only files
//! identical to the base commit — and `loop/<id>` is deleted if it still
//! points at the base commit. Anything else is left and named on stderr.
//! The rollback never runs under a running git child: a signal that lands
//! during one is acted on when it returns.

pub(crate) mod base;
mod checkout;
mod fresh;
pub(crate) mod ignore;
mod report;
mod reuse;
mod rollback;

pub use fresh::Upstream;
pub use report::{CreateReport, FailedHook};

use crate::cli::CreateArgs;
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::git::cmd::{Git, Start};
use crate::lock::{ManifestMutex, OpsLock};
use crate::manifest::{Entry, Status};
use crate::output::Out;
use crate::runid;
use crate::signals::RollbackWindow;

/// Usage checks, before the repository is touched. The pattern label is
/// stored verbatim and printed in `list`'s table, so it must be non-empty and
/// free of control characters (`char::is_control`: newline, tab, ESC, DEL,
/// C1): a label that could clear the screen, write the clipboard (OSC 52) or
/// break the table is refused here, with nothing written. (A manifest written
/// by hand can still hold one; every human rendering escapes it.)
pub fn validate(args: &CreateArgs) -> Result<()> {
    runid::validate(&args.run_id)?;
    let invalid = |reason: String| Error::InvalidPattern {
        pattern: args.pattern.clone(),
        reason,
    };
    if args.pattern.is_empty() {
        return Err(invalid("the pattern label must not be empty".into()));
    }
    if let Some(c) = args.pattern.chars().find(|c| c.is_control()) {
        return Err(invalid(format!(
            "it contains the control character U+{:04X}; a pattern label is printed in tables and must be plain text on one line",
            c as u32
        )));
    }
    Ok(())
}

pub fn run(ctx: &Ctx, args: &CreateArgs, out: &mut Out<'_>) -> Result<CreateReport> {
    let id = args.run_id.as_str();
    let branch = runid::branch_name(id);
    let rel = runid::rel_path(id);
    let abs = ctx.worktree_path(id);

    // Read the whole configuration even when --base is given: a broken layer
    // is reported the same way whatever flags are typed.
    let settings = ctx.settings()?;
    let (base, mut base_commit) = base::resolve(ctx, args.base.as_deref(), &settings.base, out)?;
    let ignore = ignore::IgnoreTarget::of(ctx, settings.create_ignore_file.value);
    // An active run with this id is the likelier mistake; name its path first.
    if ctx.loop_dir_exists()? {
        let manifest = ctx.manifest.load_or_default()?;
        if args.reuse
            && let Some(entry) = manifest.find(id).filter(|e| e.status == Status::Active)
        {
            return reuse::reuse(ctx, args, entry, abs, out);
        }
        refuse_active(&manifest, id)?;
    }
    // With --reuse, an existing `loop/<id>` with no worktree is adopted.
    if !args.reuse && ctx.repo.branch_exists(&branch)? {
        return Err(branch_exists(ctx, id, branch));
    }
    // An untrusted hook refuses the create before anything changes (a reuse,
    // which runs no hook, does not need it).
    let post_command = crate::configured_command::lookup(
        settings,
        crate::configured_command::Kind::CreatePost,
        ctx.repo.root(),
        ctx.repo.common_dir(),
    )?;

    ignore.refuse_symlink()?;
    // After every refusal that needs no lock, before anything is written:
    // a create refused for its arguments or its hooks fetches nothing.
    let fetch = args.fetch || settings.create_fetch.value;
    let upstream = fresh::check(ctx, &base, &mut base_commit, fetch, out)?;

    // `.gitignore` is written under the mutex, so concurrent creates append
    // the line once. When it is already there, that round-trip is skipped: the
    // active-run check above is repeated under the mutex when recording.
    ctx.ensure_loop_dir()?;
    if !ignore.has_loop_dir()? {
        let _mutex = ManifestMutex::acquire(&ctx.loop_dir())?;
        let manifest = ctx.manifest.load_or_default()?;
        refuse_active(&manifest, id)?;
        ignore.ensure(out)?;
    }

    let git = Git::new(ctx.repo.root()).with_checkout_workers(checkout::workers(ctx.repo.gix()));
    // A pool member is claimed and checked before the lock (the checks read
    // every file), moved into place under it (see `super::pool`). Not for a
    // sparse run (a member is a full checkout), nor when loop/<id> exists
    // (--reuse adopts it as it is).
    let warm = if args.sparse.is_empty() && !ctx.repo.branch_exists(&branch)? {
        super::pool::claim_for_create(ctx, base_commit)?
    } else {
        None
    };
    let ops = OpsLock::acquire(&ctx.loop_dir(), |waiting| {
        out.note(format_args!("{waiting}"))
    })?;
    // Decided under the lock: a branch that exists is adopted (--reuse) and
    // checked out as it is, never moved, and never deleted by a rollback.
    let adopted = match ctx.repo.branch_target(&branch)? {
        Some(_) if !args.reuse => return Err(branch_exists(ctx, id, branch)),
        tip => tip,
    };
    if abs.symlink_metadata().is_ok() {
        return Err(Error::PathExists { path: rel });
    }
    // The branch this create makes, which only it may delete again.
    let made_branch = adopted.is_none().then_some(base_commit);
    let commit_hex = adopted.unwrap_or(base_commit).to_string();
    let start = match adopted {
        Some(_) => Start::ExistingBranch,
        None => Start::NewBranchAt(&commit_hex),
    };
    // Uncontended: one plain `git worktree add` under the lock (fewest
    // processes). Contended — other creates are queuing — the lock covers
    // only `add --no-checkout` and the checkout runs in parallel outside it.
    // `--sparse` splits too: its patterns are set between the two steps.
    let split = ops.contended || crate::crash::force_split_add() || !args.sparse.is_empty();
    // From here until the run is recorded, SIGINT/SIGTERM undoes what this
    // create made (see `crate::signals`); git calls run "busy", so files are
    // never deleted under a running git.
    let window = RollbackWindow::open(rollback::rollback(ctx.repo.root(), id, made_branch));
    window.enter();
    let taken = match warm.filter(|_| adopted.is_none()) {
        Some(claimed) => window.child(|| claimed.move_in(ctx, &git, &rel, out))?,
        None => None,
    };
    let added = match taken {
        Some(_) => Ok(()),
        None => git.worktree_add(&branch, &rel, start, !split)?,
    };
    if let Err(failure) = added {
        let registered = abs.exists()
            && ctx
                .repo
                .loop_worktrees()?
                .iter()
                .any(|(name, _)| name == id);
        if !split && registered {
            // git removes a failed add's worktree itself; one that is still
            // registered was complete, and only its post-checkout hook failed.
            out.note(format_args!(
                "warning: the post-checkout hook failed in {rel}: {}",
                failure.reason()
            ));
        } else {
            // git may have created the branch before failing. Under the lock
            // and after the check above, a branch at the base commit with no
            // worktree is this attempt's: remove it so a retry is not blocked.
            if made_branch.is_some()
                && !abs.exists()
                && let Some(permit) =
                    crate::safety::rollback_branch(ctx.repo.gix(), &branch, base_commit)
            {
                let _ =
                    crate::safety::exec::delete_branch(&ctx.repo, &branch, base_commit, &permit);
            }
            return Err(Error::from(failure));
        }
    }
    checkout::set_sparse(&git, &abs, &rel, &args.sparse)?;
    // The registration exists: other adds may proceed.
    drop(ops);
    // A signal during the add is acted on here (the rollback takes the lock).
    window.leave();

    if let Some(taken) = &taken {
        crate::crash::point("before-pool-switch");
        taken.switch(ctx, &git, id, &commit_hex, &window, out)?;
    } else if split {
        crate::crash::point("before-checkout");
        if let Err(failure) = window.child(|| git.checkout_new_worktree(&abs))? {
            return Err(Error::Checkout {
                path: rel,
                reason: failure.reason(),
            });
        }
        if ctx.repo.may_have_post_checkout_hook()
            && let Err(failure) = window.child(|| git.post_checkout_hook(&abs, &commit_hex))?
        {
            out.note(format_args!(
                "warning: the post-checkout hook failed in {rel}: {}",
                failure.reason()
            ));
        }
    }
    crate::crash::point("after-worktree-add");

    let created_at = crate::time::now();
    let entry = Entry::new(id, &base, &args.pattern, created_at);
    if let Err(e) = record(ctx, &entry, adopted, &window, out) {
        // Best effort: the worktree is fresh and clean, so a plain remove works.
        let admin = ctx
            .repo
            .loop_worktrees()?
            .into_iter()
            .find(|(name, _)| name == id)
            .map(|(_, wt)| wt.admin_dir);
        if let Some(admin) = admin
            && let Ok(permit) = crate::safety::worktree::rollback_permit(ctx.repo.gix(), id, &admin)
        {
            let _ = crate::safety::exec::worktree_remove(&git, &rel, &permit);
        }
        if let Some(at) = made_branch
            && let Some(permit) = crate::safety::rollback_branch(ctx.repo.gix(), &branch, at)
        {
            let _ = crate::safety::exec::delete_branch(&ctx.repo, &branch, at, &permit);
        }
        return Err(e);
    }
    drop(window);
    let mut report = CreateReport {
        entry,
        method: match (taken, adopted) {
            (Some(_), _) => Some(report::Method::Pooled),
            (None, Some(_)) => args.reuse.then_some(report::Method::Adopted),
            (None, None) => args.reuse.then_some(report::Method::Created),
        },
        upstream,
        copy: None,
        post_command: None,
        error: None,
        abs_path: abs,
    };
    // The run is recorded: from here on, a failure leaves it in place and is
    // reported, never undone.
    // `create.copy` and `.worktreeinclude` (nothing to do without either).
    match crate::copy::copy_into(
        ctx.repo.gix(),
        &settings.create_copy.value,
        &report.abs_path,
    ) {
        Ok(copied) => report.copy = copied,
        Err(e) => out.note(format_args!("warning: create.copy: {e}")),
    }
    report.say_done(out);
    if let Some(command) = post_command {
        let outcome = crate::configured_command::run(
            &command,
            &report.abs_path,
            &crate::configured_command::env_for(id, ctx.repo.root(), &report.abs_path, &branch),
        )?;
        if !outcome.ok {
            report.error = Some(FailedHook {
                code: "post-command-failed",
                message: format!(
                    "create.post-command `{}` {} in {rel}",
                    outcome.command,
                    outcome.describe()
                ),
            });
        }
        report.post_command = Some(outcome);
    }
    Ok(report)
}

/// The refusal of an existing `loop/<id>`. Usually a leftover of an earlier
/// run (cleanup keeps branches); but when `.loop-worktrees/<id>` is a
/// registered worktree or the manifest has `<id>` active, another create of
/// this id made it moments ago (the loser of a race sees the winner's branch),
/// and the message says so.
fn branch_exists(ctx: &Ctx, id: &str, branch: String) -> Error {
    let registered = || {
        ctx.worktree_path(id).is_dir()
            && ctx
                .repo
                .loop_worktrees()
                .is_ok_and(|wts| wts.iter().any(|(name, _)| name == id))
    };
    let active = || {
        ctx.loop_dir_exists().unwrap_or(false)
            && ctx
                .manifest
                .load()
                .ok()
                .flatten()
                .and_then(|m| m.find(id).map(|e| e.status == Status::Active))
                .unwrap_or(false)
    };
    let racing = registered() || active();
    Error::BranchExists { branch, racing }
}

fn refuse_active(manifest: &crate::manifest::Manifest, id: &str) -> Result<()> {
    match manifest.find(id) {
        Some(e) if e.status == Status::Active => Err(Error::ActiveExists {
            id: id.to_owned(),
            path: e.path(),
        }),
        _ => Ok(()),
    }
}

/// Record the run; `window` closes once the manifest is written, so a signal
/// from then on leaves the recorded run in place.
fn record(
    ctx: &Ctx,
    entry: &Entry,
    adopted: Option<gix::ObjectId>,
    window: &RollbackWindow,
    out: &mut Out<'_>,
) -> Result<()> {
    let mutex = ManifestMutex::acquire(&ctx.loop_dir())?;
    let mut manifest = ctx.manifest.load_or_default()?;
    refuse_active(&manifest, &entry.id)?;
    manifest.worktrees.retain(|e| e.id != entry.id);
    manifest.worktrees.push(entry.clone());
    window.commit(|| ctx.manifest.write(&manifest, &mutex))?;
    let mut event = crate::events::Event::new(crate::events::EventKind::Create, &entry.id);
    let mut detail = format!("pattern {:?}, base {}", entry.pattern, entry.base_branch);
    if let Some(tip) = adopted {
        detail.push_str(&format!(", adopted branch {} at {tip}", entry.branch()));
    }
    event.detail = Some(detail);
    ctx.log_events(&[event], out);
    Ok(())
}
