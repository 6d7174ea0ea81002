//! `git loop sync`: each run's recorded base brought into its branch (issue
//! 43), with `land`'s pieces in other roles: the ref moved is the run's
//! branch `loop/<id>`, the tip built onto is its base's current tip, the
//! checkout updated is the run's own worktree.
//!
//! # The flow (this module; [`one`] for one run, [`worktree`] for what its
//! worktree accepts)
//!
//! 1. The runs: those named (an unknown id refuses the command before
//!    anything changes, `unknown-id`), else inside a run's worktree that
//!    run (the command adapter infers it), else every run whose status is
//!    in the set (default `active`), by id. The gate (`--gate`, else
//!    `sync.gate` with the trust rules of every configured command) is
//!    looked up first: an untrusted one refuses the command.
//! 2. `--fetch` (not in a dry run): each distinct base's upstream
//!    fetched, as `create --fetch` does ([`crate::ops::create::fresh`]).
//!    Then each distinct base's tip is read once ([`base_tips`]).
//! 3. Each run on the [`crate::fanout`] workers, each with its own
//!    repository handle and [`Merger`] ([`one::sync_one`]):
//!    - [`classify`]: `no-base` (none recorded, or it no longer
//!      resolves), `no-branch`, `up-to-date` (the base's tip already in the
//!      branch: nothing written, not a failure);
//!    - built in memory with `land`'s builder ([`crate::ops::land::build`]):
//!      `rebase` replays the run's own commits (`merge-base..branch`) onto
//!      the base's tip — a run whose own commits include a merge commit is
//!      `has-merges`, stricter than `land`, which lands such a run when the
//!      replay carries the merges: a sync must never drop what a merge
//!      brought; `merge` makes one merge commit, parents the branch's tip
//!      then the base's (`Strategy::MergeInto`). A run with no commits of
//!      its own left moves to the base's tip itself. A conflict is
//!      `conflict` with its paths, nothing written;
//!    - its worktree asked, the sync still in memory ([`worktree::accepts`]):
//!      busy (`operation-in-progress`, `worktree-missing`), or uncommitted
//!      changes in paths the sync changes (`dirty`), or untracked files
//!      where it writes (`untracked`); so a refused run leaves no object;
//!    - a dry run stops here: it wrote no object, ref or file;
//!    - the build persisted; the gate run in a scratch checkout of it
//!      (`gate-failed`, the branch kept);
//!    - under the run's lock (taken holding nothing, never waited for:
//!      `locked`), in THE lock order of [`crate::lock`]: the branch still at
//!      the tip read (else `branch-moved`: an agent's commit is never
//!      dropped) and its checkout able to follow
//!      ([`crate::ops::land::advance::check_rewrite`]); its tip kept in the
//!      trash (reason `sync`); the branch moved by the kernel's
//!      compare-and-swap and its worktree updated where clean
//!      ([`crate::ops::land::advance::rewrite`], `read-tree -m -u`
//!      semantics, undone when the worktree cannot follow); a refusal
//!      there drops the trash entry again (the branch still holds the tip);
//!    - the `sync` event logged through the transaction, run by run (the
//!      manifest records nothing new).
//!
//!    The move (and a gate) holds the process's one Ctrl-C window, so those
//!    steps are taken one run at a time (`one::MOVING`, `one::GATING`).
//! 4. Before all of this, a sync of the run killed between its branch's
//!    move and its worktree's update is finished, under the run's lock,
//!    when nothing of the worktree was written yet
//!    ([`crate::ops::land::advance::finish_sync`]); else the worktree
//!    check names it (`operation-in-progress`, with the command).
//! 5. A skip other than `up-to-date`, or a failure, stops the runs not yet
//!    started (`not-attempted`) unless `--keep-going` (a failure always).
//!
//! A process with its cwd in a run's worktree does not stop its sync, as
//! it would not stop a `git rebase` there: the files the sync changes
//! change under it (there is no `in-use` code).

mod one;
mod outcome;
mod worktree;

pub use outcome::{Code, Fate, Skipped, Synced};

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use gix::ObjectId;

use crate::config::SyncStrategy;
use crate::configured_command::ConfiguredCommand;
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::git::merge::Merger;
use crate::manifest::{Entry, Manifest, Status};
use crate::output::Notes;
use crate::runid::RunId;

/// Which runs to sync.
#[derive(Debug, Clone, Copy)]
pub enum Which<'a> {
    /// Those named (an unknown one refuses the command before anything
    /// changes), or the one whose worktree the command runs in.
    Runs(&'a [RunId]),
    /// Every run whose status is in the set (`None`: `active`).
    Status(Option<&'a [Status]>),
}

/// What to sync, and how.
#[derive(Debug, Clone, Copy)]
pub struct SyncRequest<'a> {
    pub which: Which<'a>,
    /// `--strategy`; `None`: `sync.strategy`.
    pub strategy: Option<SyncStrategy>,
    /// `--gate` (the user's own, trusted); `None`: `sync.gate`.
    pub gate: Option<&'a str>,
    pub fetch: bool,
    pub dry_run: bool,
    pub keep_going: bool,
}

/// What a sync did (in a dry run: would do), run by run.
#[derive(Debug)]
pub struct SyncOutcome {
    pub dry_run: bool,
    pub strategy: SyncStrategy,
    pub runs: Vec<(String, Fate)>,
    /// What stopped the sync part way (what synced before it is listed).
    pub error: Option<Error>,
}

/// Sync the runs `request` names; see the module doc.
pub fn sync(ctx: &Ctx, request: &SyncRequest<'_>, out: &mut Notes<'_>) -> Result<SyncOutcome> {
    let settings = ctx.settings()?;
    let strategy = request.strategy.unwrap_or(settings.sync_strategy.value);
    let gate = gate_command(ctx, request.gate)?;
    let manifest = ctx.read_manifest()?;
    let entries = chosen(&manifest, request.which)?;
    if request.fetch && !request.dry_run {
        fetch_bases(ctx, &entries, out)?;
    }
    let bases = base_tips(ctx, &entries);
    let shared = Shared {
        strategy,
        gate: gate.as_ref(),
        dry_run: request.dry_run,
        keep_going: request.keep_going,
        bases: &bases,
        stop: AtomicBool::new(false),
    };
    let (fates, error) = shared.sync_all(ctx, &entries, out);
    let runs = entries
        .iter()
        .zip(fates)
        .map(|(e, fate)| (e.id.to_string(), fate.unwrap_or_else(not_attempted)))
        .collect();
    Ok(SyncOutcome {
        dry_run: request.dry_run,
        strategy,
        runs,
        error,
    })
}

/// What every run's sync shares, across the worker threads.
struct Shared<'a> {
    strategy: SyncStrategy,
    gate: Option<&'a ConfiguredCommand<'a>>,
    dry_run: bool,
    keep_going: bool,
    bases: &'a HashMap<String, Option<ObjectId>>,
    /// Set by a skip (without `--keep-going`) or a failure: runs not
    /// started yet are not attempted.
    stop: AtomicBool,
}

/// A worker thread's own repository handle and merger (a gix repository
/// stays on the thread that opened it).
struct Worker {
    ctx: Ctx,
    merger: Merger,
}

impl Shared<'_> {
    /// Each run synced on the [`crate::fanout`] workers; its fate (`None`:
    /// not attempted) in the order of `entries`, and the first failure.
    fn sync_all(
        &self,
        ctx: &Ctx,
        entries: &[Entry],
        out: &mut Notes<'_>,
    ) -> (Vec<Option<Fate>>, Option<Error>) {
        let root = ctx.repo.root().to_path_buf();
        let (json, quiet) = (out.json, out.quiet);
        let mut fates: Vec<Option<Fate>> = entries.iter().map(|_| None).collect();
        let mut error = None;
        let mut done = 0;
        crate::fanout::for_each_with(
            entries,
            || {
                let ctx = Ctx::open(Some(&root))?;
                let merger = Merger::new(ctx.repo.gix())?;
                Ok(Worker { ctx, merger })
            },
            |worker: &mut Result<Worker>, entry| {
                let mut said = Vec::new();
                let mut notes = Notes {
                    stderr: &mut said,
                    json,
                    quiet,
                    stderr_is_terminal: false,
                };
                let fate = self.one(worker, entry, &mut notes);
                (fate, said)
            },
            |i, (fate, said)| {
                let _ = out.stderr.write_all(&said);
                done += 1;
                out.progress(Some(format_args!("syncing: {done}/{}", entries.len())));
                match fate {
                    Some(Ok(fate)) => fates[i] = Some(fate),
                    Some(Err(e)) => {
                        error.get_or_insert(e);
                    }
                    None => {}
                }
            },
        );
        out.progress(None);
        (fates, error)
    }

    /// One run on a worker: `None` when it is not attempted (the sync
    /// stopped before its turn).
    fn one(
        &self,
        worker: &Result<Worker>,
        entry: &Entry,
        out: &mut Notes<'_>,
    ) -> Option<Result<Fate>> {
        if self.stop.load(Ordering::SeqCst) {
            return None;
        }
        let worker = match worker {
            Ok(worker) => worker,
            Err(e) => {
                self.stop.store(true, Ordering::SeqCst);
                return Some(Err(Error::Repository(format!(
                    "could not open the repository: {e}"
                ))));
            }
        };
        let env = one::Env {
            ctx: &worker.ctx,
            merger: &worker.merger,
            strategy: self.strategy,
            gate: self.gate,
            dry_run: self.dry_run,
            bases: self.bases,
        };
        let fate = one::sync_one(&env, entry, out);
        let stops = match &fate {
            Ok(fate) => fate.stops() && !self.keep_going,
            Err(_) => true,
        };
        if stops {
            self.stop.store(true, Ordering::SeqCst);
        }
        Some(fate)
    }
}

fn not_attempted() -> Fate {
    Fate::Skipped(Skipped::new(
        Code::NotAttempted,
        "an earlier run was skipped (--keep-going goes on)",
    ))
}

/// The gate: `--gate` (the user's own, trusted), else `sync.gate` with the
/// hooks' trust rules (a repository file's gate runs only once trusted:
/// refused before anything changes, `untrusted-hook`).
fn gate_command<'a>(ctx: &'a Ctx, given: Option<&'a str>) -> Result<Option<ConfiguredCommand<'a>>> {
    if let Some(command) = given {
        return Ok(Some(ConfiguredCommand::given(command, "--gate")));
    }
    ctx.configured(crate::configured_command::Kind::SyncGate)
}

/// `--fetch`: each distinct base's upstream fetched first, as `create
/// --fetch` fetches it ([`crate::ops::create::fresh`]: a remote-tracking
/// base is refreshed, a local branch is never moved; a failed fetch is a
/// warning).
fn fetch_bases(ctx: &Ctx, entries: &[Entry], out: &mut Notes<'_>) -> Result<()> {
    let mut seen: Vec<&str> = Vec::new();
    for entry in entries {
        let base = entry.base_branch.as_str();
        if seen.contains(&base) {
            continue;
        }
        seen.push(base);
        crate::ops::create::fresh::fetch_for_sync(ctx, base, out)?;
    }
    Ok(())
}

/// The runs to sync: those named, in the order named (the same id twice
/// once; an unknown one refuses the command), or every run whose status is
/// in the set (default `active`), by id.
fn chosen(manifest: &Manifest, which: Which<'_>) -> Result<Vec<Entry>> {
    match which {
        Which::Runs(ids) => {
            let mut chosen: Vec<Entry> = Vec::with_capacity(ids.len());
            for id in ids {
                let entry = manifest.get(id)?;
                if !chosen.iter().any(|e| e.id == entry.id) {
                    chosen.push(entry.clone());
                }
            }
            Ok(chosen)
        }
        Which::Status(statuses) => {
            let statuses = statuses.unwrap_or(&[Status::Active]);
            let mut chosen: Vec<Entry> = manifest
                .worktrees
                .iter()
                .filter(|e| statuses.contains(&e.status))
                .cloned()
                .collect();
            chosen.sort_by(|a, b| a.id.as_str().cmp(b.id.as_str()));
            Ok(chosen)
        }
    }
}

/// Each distinct recorded base's tip, read once (`None`: it no longer
/// resolves to a commit).
fn base_tips(ctx: &Ctx, entries: &[Entry]) -> HashMap<String, Option<ObjectId>> {
    let mut tips = HashMap::new();
    for entry in entries {
        let base = &entry.base_branch;
        if !tips.contains_key(base) {
            let tip = crate::git::refs::resolve_commit(ctx.repo.gix(), base);
            tips.insert(base.clone(), tip);
        }
    }
    tips
}

/// The run's branch tip and its base's tip, when the base has something to
/// bring in; else the skip (`no-base`, `no-branch`, `up-to-date`).
pub(super) fn classify(
    ctx: &Ctx,
    entry: &Entry,
    bases: &HashMap<String, Option<ObjectId>>,
) -> Result<std::result::Result<(ObjectId, ObjectId), Skipped>> {
    let base = &entry.base_branch;
    let with_base = |mut s: Skipped| {
        s.base = Some(base.clone());
        Ok(Err(s))
    };
    let Some(Some(onto)) = bases.get(base).copied() else {
        let reason = if base.is_empty() {
            "it records no base".to_owned()
        } else {
            format!("its base {base} does not resolve to a commit")
        };
        return with_base(Skipped::new(Code::NoBase, reason));
    };
    let branch = entry.branch();
    let Some(tip) = ctx.repo.branch_target(&branch)? else {
        let reason = format!("its branch {branch} does not exist");
        return with_base(Skipped::new(Code::NoBranch, reason));
    };
    if tip == onto || crate::safety::descends_from(ctx.repo.gix(), tip, onto) {
        let reason = format!(
            "{base} ({}) is already in {branch}",
            ctx.repo.short_id(onto)
        );
        return with_base(Skipped::new(Code::UpToDate, reason));
    }
    Ok(Ok((tip, onto)))
}
