//! The create operation (`git loop create <RUN_ID> --pattern <LABEL> [--base
//! <BRANCH>]`): a run's worktree, branch and manifest entry, in phases.
//!
//! Order of work, and why:
//! 1. Validate the id and label (usage errors, before anything is read).
//! 2. Resolve the base to a commit and refuse an existing `loop/<id>` branch
//!    (reads through gix; nothing written yet). Then, with `--fetch`, fetch
//!    the base's upstream, and warn when the base is behind it ([`fresh`]). Without `main`, the built-in
//!    default gives way to the repository's default branch
//!    ([`crate::ops::base`]).
//!    With `--reuse`, an active run of this id is reused as it is recorded
//!    instead ([`reuse`]); without, it is refused, naming its path.
//! 3. Under the manifest mutex: refuse an `active` entry with this id, and add
//!    `.loop-worktrees/` to `.gitignore`, or to `.git/info/exclude` with
//!    `create.ignore-file = "info-exclude"` ([`crate::ops::ignore`]). Release.
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
//! verified removal of [`crate::worktree::leftover`], which removes only files
//! identical to the base commit — and `loop/<id>` is deleted if it still
//! points at the base commit. Anything else is left and named on stderr.
//! The rollback never runs under a running git child: a signal that lands
//! during one is acted on when it returns.
//! 6. The run is recorded: copy `create.copy` / `.worktreeinclude`, say what
//!    was made ([`progress`]), run `create.post-command`. A failure from here
//!    leaves the run in place: the post-command's is carried in
//!    [`Created::error`], never undone.
//!
//! The phases, in [`create`]: `plan` (steps 2–3: every refusal that needs no
//! lock, the fetch, the ignore line), [`add`] (step 4), [`record`] (step 5,
//! and the undo when it fails), `finish` (step 6).

mod request;
pub use request::CreateRequest;
mod add;
pub mod attempts;
mod checkout;
pub mod fresh;
mod progress;
mod record;
mod reuse;
mod rollback;

pub use fresh::Upstream;

use std::path::PathBuf;

use serde::Serialize;

use crate::config::Settings;
use crate::configured_command::{ConfiguredCommand, Ended};
use crate::ctx::Ctx;
use crate::error::{Error, Failure, Result};
use crate::lock::ManifestMutex;
use crate::manifest::{Entry, Status};
use crate::ops::base;
use crate::ops::ignore::IgnoreTarget;
use crate::output::Notes;
use crate::runid;

/// What a create made — or, with `--reuse`, handed back — and how its
/// post-command ended.
#[derive(Debug)]
pub struct Created {
    /// The run's manifest entry, as recorded.
    pub entry: Entry,
    /// `.loop-worktrees/<id>`, absolute.
    pub abs_path: PathBuf,
    pub method: Method,
    /// The base's upstream, when it has one.
    pub upstream: Option<Upstream>,
    /// What `create.copy` / `.worktreeinclude` copied.
    pub copy: Option<crate::copy::CopyReport>,
    /// How `create.post-command` ended, when there is one.
    pub post_command: Option<Ended>,
    /// The TCP ports leased to the run (`create.ports`, `--ports`; see
    /// [`crate::ops::ports`]), empty when none.
    pub ports: Vec<u16>,
    /// The post-command's failure (`post-command-failed`): the run is
    /// recorded and its worktree kept as it is, but it is not set up.
    pub error: Option<Failure>,
}

/// How `create --reuse` got its run (`"method"` in JSON).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// A new worktree was checked out.
    Created,
    /// An intact active run was handed back unchanged.
    Reused,
    /// An existing `loop/<id>` with no worktree was checked out as it is.
    Adopted,
    /// A prepared worktree was taken from the pool (`git loop pool`).
    Pooled,
}

/// Usage checks, before the repository is touched. The pattern label is
/// stored verbatim and printed in `list`'s table, so it must be non-empty and
/// free of control characters (`char::is_control`: newline, tab, ESC, DEL,
/// C1): a label that could clear the screen, write the clipboard (OSC 52) or
/// break the table is refused here, with nothing written. (A manifest written
/// by hand can still hold one; every human rendering escapes it.)
pub fn validate(args: &CreateRequest) -> Result<()> {
    runid::validate(&args.run_id)?;
    // Not given: the setting `create.pattern`, validated as a setting.
    let Some(pattern) = &args.pattern else {
        return Ok(());
    };
    let invalid = |reason: String| Error::InvalidPattern {
        pattern: pattern.clone(),
        reason,
    };
    if pattern.is_empty() {
        return Err(invalid("the pattern label must not be empty".into()));
    }
    if let Some(c) = pattern.chars().find(|c| c.is_control()) {
        return Err(invalid(format!(
            "it contains the control character U+{:04X}; a pattern label is printed in tables and must be plain text on one line",
            c as u32
        )));
    }
    Ok(())
}

/// The pattern label the run records: `--pattern`, else the setting
/// `create.pattern` (default `manual`).
pub(super) fn pattern(ctx: &Ctx, args: &CreateRequest) -> Result<String> {
    match &args.pattern {
        Some(pattern) => Ok(pattern.clone()),
        None => Ok(ctx.settings()?.create_pattern.value.clone()),
    }
}

/// Create the run `args` names (see the module doc for the order of work).
pub fn create(ctx: &Ctx, args: &CreateRequest, out: &mut Notes<'_>) -> Result<Created> {
    // Read the whole configuration even when --base is given: a broken layer
    // is reported the same way whatever flags are typed.
    let settings = ctx.settings()?;
    let plan = match plan(ctx, args, settings, out)? {
        Planned::Reuse(entry) => return reuse::reuse(ctx, args, entry, out),
        Planned::Create(plan) => *plan,
    };
    let added = add::add(ctx, args, &plan, out)?;
    add::check_out(ctx, &plan, &added, out)?;
    let (entry, ports) = record::record_or_undo(ctx, args, &plan, &added, out)?;
    let method = added.method();
    // Recorded: a signal from here on leaves the run in place.
    drop(added);
    finish(ctx, settings, plan, (entry, ports), method, out)
}

/// What the checks before any lock found: the run's names, where it starts,
/// and what runs once it is made.
struct Plan<'s> {
    id: String,
    branch: String,
    /// `.loop-worktrees/<id>`, relative to the repository root.
    rel: String,
    abs: PathBuf,
    /// The base as the manifest records it, and its commit.
    base: String,
    base_commit: gix::ObjectId,
    upstream: Option<Upstream>,
    post_command: Option<ConfiguredCommand<'s>>,
    /// How many ports to lease (`--ports`, else `create.ports`).
    ports: usize,
}

enum Planned<'s> {
    /// `--reuse` of an active run of this id: nothing to make.
    Reuse(Entry),
    Create(Box<Plan<'s>>),
}

/// Steps 2 and 3: resolve the base, make every refusal that needs no lock
/// (an active run, an existing branch, an untrusted hook, a symlinked ignore
/// file), then fetch and write the ignore line.
fn plan<'s>(
    ctx: &'s Ctx,
    args: &CreateRequest,
    settings: &'s Settings,
    out: &mut Notes<'_>,
) -> Result<Planned<'s>> {
    let id = args.run_id.as_str();
    let branch = runid::branch_name(id);
    let (base, mut base_commit) = base::resolve(ctx, args.base.as_deref(), &settings.base, out)?;
    refuse_missing_sparse_dirs(ctx, &args.sparse, base_commit, &base)?;
    let ignore = IgnoreTarget::of(ctx, settings.create_ignore_file.value);
    // An active run with this id is the likelier mistake; name its path first.
    if ctx.loop_dir_exists()? {
        let manifest = ctx.manifest.load_or_default()?;
        if args.reuse
            && let Some(entry) = manifest.find(id).filter(|e| e.status == Status::Active)
        {
            return Ok(Planned::Reuse(entry.clone()));
        }
        refuse_active(ctx, &manifest, id)?;
    }
    // With --reuse, an existing `loop/<id>` with no worktree is adopted.
    if !args.reuse && ctx.repo.branch_exists(&branch)? {
        return Err(branch_exists(ctx, id, branch));
    }
    // An untrusted hook refuses the create before anything changes (a reuse,
    // which runs no hook, does not need it).
    let post_command = ctx.configured(crate::configured_command::Kind::CreatePost)?;
    ignore.refuse_symlink()?;
    // After every refusal that needs no lock, before anything is written:
    // a create refused for its arguments or its hooks fetches nothing.
    let fetch = args.fetch || settings.create_fetch.value;
    let upstream = fresh::check(ctx, &base, &mut base_commit, fetch, out)?;
    ensure_ignored(ctx, &ignore, id, out)?;
    Ok(Planned::Create(Box::new(Plan {
        id: id.to_owned(),
        rel: runid::rel_path(id),
        abs: ctx.worktree_path(id),
        branch,
        base,
        base_commit,
        upstream,
        post_command,
        ports: args.ports.unwrap_or(settings.create_ports.value),
    })))
}

/// `.gitignore` is written under the mutex, so concurrent creates append
/// the line once. When it is already there, that round-trip is skipped: the
/// active-run check is repeated under the mutex when recording.
fn ensure_ignored(ctx: &Ctx, ignore: &IgnoreTarget, id: &str, out: &mut Notes<'_>) -> Result<()> {
    ctx.ensure_loop_dir()?;
    if !ignore.has_loop_dir()? {
        let _mutex = ManifestMutex::acquire(&ctx.loop_dir())?;
        let manifest = ctx.manifest.load_or_default()?;
        refuse_active(ctx, &manifest, id)?;
        ignore.ensure(out)?;
    }
    Ok(())
}

/// Step 6, the run recorded: copy what `create.copy` selects, say what was
/// made, run the post-command. A failure of either is reported, never undone.
fn finish(
    ctx: &Ctx,
    settings: &Settings,
    plan: Plan<'_>,
    (entry, ports): (Entry, Vec<u16>),
    method: Method,
    out: &mut Notes<'_>,
) -> Result<Created> {
    let mut created = Created {
        entry,
        abs_path: plan.abs,
        method,
        upstream: plan.upstream,
        copy: None,
        post_command: None,
        ports,
        error: None,
    };
    // `create.copy` and `.worktreeinclude` (nothing to do without either).
    match crate::copy::copy_into(
        &ctx.repo,
        &settings.create_copy.value,
        &created.abs_path,
        method == Method::Pooled,
    ) {
        Ok(copied) => created.copy = copied,
        Err(e) => out.note(format_args!("warning: create.copy: {e}")),
    }
    progress::say_done(&created, out);
    if let Some(command) = plan.post_command {
        let outcome = crate::configured_command::execute(
            &command,
            &created.abs_path,
            &crate::configured_command::env_for(
                &plan.id,
                ctx.repo.root(),
                &created.abs_path,
                &plan.branch,
                &created.ports,
            ),
        )?;
        if !outcome.ok {
            created.error = Some(Failure {
                code: "post-command-failed",
                message: format!(
                    "create.post-command `{}` {} in {}",
                    outcome.command,
                    outcome.describe(),
                    plan.rel
                ),
                help: None,
            });
        }
        created.post_command = Some(outcome);
    }
    Ok(created)
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

/// `--sparse` of a directory the base's tree does not have would make an
/// empty worktree without a word: refused, naming it, before anything
/// changes.
fn refuse_missing_sparse_dirs(
    ctx: &Ctx,
    dirs: &[String],
    base_commit: gix::ObjectId,
    base: &str,
) -> Result<()> {
    if dirs.is_empty() {
        return Ok(());
    }
    let repo = ctx.repo.gix();
    let read = |e: &dyn std::fmt::Display| Error::Repository(format!("{base}: {e}"));
    let tree = repo
        .find_commit(base_commit)
        .map_err(|e| read(&e))?
        .tree()
        .map_err(|e| read(&e))?;
    for dir in dirs {
        let entry = tree
            .lookup_entry_by_path(dir.as_str())
            .map_err(|e| read(&e))?;
        if !entry.is_some_and(|e| e.mode().is_tree()) {
            return Err(Error::SparseDirMissing {
                dir: dir.clone(),
                base: base.to_owned(),
            });
        }
    }
    Ok(())
}

/// The refusal of an id the manifest has `active`, saying whether its
/// directory is gone (removed by hand: then reconcile, not mark, is the way on).
fn refuse_active(ctx: &Ctx, manifest: &crate::manifest::Manifest, id: &str) -> Result<()> {
    match manifest.find(id) {
        Some(e) if e.status == Status::Active => Err(Error::ActiveExists {
            id: id.to_owned(),
            path: e.path(),
            missing: ctx.worktree_path(id).symlink_metadata().is_err(),
        }),
        _ => Ok(()),
    }
}
