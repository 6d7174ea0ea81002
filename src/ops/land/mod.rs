//! `git loop land`: a run's committed work onto its base, built without
//! touching any worktree, gated in a scratch checkout, and the target
//! advanced by compare-and-swap (issue "Close the loop").
//!
//! The steps, each in its own module:
//! - [`build`]: the landed commit(s) for one run onto the target's tip, in
//!   memory ([`crate::git::merge::Merger`]'s object memory) until
//!   [`build::persist`] writes them to the object database (never in a
//!   dry run);
//! - [`gate`]: the gate command in a scratch checkout of the landed commit
//!   under `.loop-worktrees/`, with the hook trust rules and a timeout;
//! - [`advance`]: the target ref moved from the tip the landing was built on
//!   to the landed commit by compare-and-swap, and the worktree that has
//!   the target checked out (usually the main checkout) updated only where
//!   it is clean (`read-tree -m -u` semantics), or refused before the ref
//!   moves;
//! - then ([`finish`]) the run is marked `merged`, a `land` event logged,
//!   its worktree removed by the usual rules and its branch deleted only by
//!   CAS at the tip that landed, its tip kept in the trash (in a queue,
//!   behind it: [`tidy`]).
//!
//! # The flow (this module; [`one`] for one run, [`refusals`] for what
//! refuses it, [`finish`] for what follows a landing, [`queue`] for the
//! order)
//!
//! 1. The target of each run: `--into`, else `land.into`, else the run's
//!    recorded base when it names a local branch (or, a remote-tracking
//!    base, the local branch whose upstream it is); a given target that is
//!    not a local branch refuses the whole command (`base-not-found`), a run
//!    without one is skipped (`no-target`, saying to pass `--into`).
//! 2. The runs: those named, in the order named (an unknown id refuses the
//!    whole command before anything changes), or with `--queue` every run
//!    whose status is in the set (`--status`, `land.queue-status`, default
//!    `escalated`) in `conflicts`' landing order ([`queue`]).
//! 3. Each run in turn (`one::land_one`): refused with a code when its
//!    worktree is dirty or has an operation in progress, or it has no
//!    commits of its own; built onto the target as the landings before it
//!    left it (in a dry run, onto the previous landing's in-memory commit,
//!    with the same merger); persisted; gated; then, under the run's lock
//!    (taken holding nothing: THE lock order of [`crate::lock`]), the
//!    target advanced, the run marked `merged` and the `land` and `mark`
//!    events logged under the manifest mutex. The run lock is let go before
//!    the worktree is removed with `remove`'s rules
//!    ([`crate::ops::reclaim::remove`], which takes the worktree-operation
//!    lock, then the run lock, then the mutex).
//!    Without a gate or a push, when more than one run may land, the
//!    runs' worktrees are read (for `dirty`) on a thread of their own
//!    from the start, while a queue is ordered and the runs before them
//!    land ([`lookahead`]); and, unless `--keep`, a landed run's worktree
//!    is removed and its branch retired on another, behind the queue,
//!    while the next runs land ([`tidy`], which says what happens when
//!    both want the manifest mutex).
//! 4. A run that is skipped stops the rest (not attempted) unless
//!    `--keep-going`. An error (git could not be run, the repository
//!    unreadable) stops the rest too, and is reported after what landed.
//!
//! No lock is held while building or gating: the target's compare-and-swap
//! is the coordinator, so two landings racing for one target lose nothing
//! (the second is `target-moved`).
//!
//! # `--push`
//!
//! With `--push` ([`push`]), after the gate and before the run lock: the
//! target's checkout must accept the move (`advance::check`, else the
//! run is refused and nothing is pushed); the landing is pushed to the
//! target's upstream, never forced; when the remote moved, `push`'s
//! rebuild callback (`one::push`) builds the run again on the remote's
//! tip, persists, gates and checks it. Then, pushed or not (`not-pushed`,
//! landed locally with the reason), the local target moves once from the
//! tip it was built on to the last tip built, by compare-and-swap: a
//! fast-forward, as the remote's tip contains the local one. A local move
//! refused after the push went through is reported with the landing (on
//! the remote; the local target not moved): a push is never undone.
//!
//! # The branch after landing
//!
//! The run's branch is deleted only through [`crate::safety::branch`], with
//! its rules unchanged: judged against the target it landed in, it goes
//! when the strongest proof holds (an ancestor for `ff` and `merge`; for
//! `rebase` and `squash`, whose landed commits are new ones, "merging the
//! branch changes nothing" — which holds right after the landing), its tip
//! kept in the trash first, deleted by CAS at the tip judged. When the
//! proof does not hold (the branch moved, a merge driver the proof does not
//! trust) the branch is kept, with the kernel's reason. No new proof was
//! added to the kernel.

pub mod advance;
pub mod build;
mod finish;
mod fleet;
pub mod gate;
mod lookahead;
mod one;
mod outcome;
pub mod push;
mod queue;
mod refusals;
mod request;
mod tidy;

pub use outcome::{BranchFate, Code, Landed, Skipped, WorktreeFate};
pub use request::{LandRequest, Landing, Which};

use std::time::Duration;

use crate::config::LandStrategy;
use crate::configured_command::ConfiguredCommand;
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::git::merge::Merger;
use crate::manifest::{Entry, Manifest, Status};
use crate::output::Notes;
use crate::runid::RunId;

/// How long a gate may run before it is killed (and the landing refused,
/// `gate-failed`): ten minutes. A constant, not a setting.
pub const GATE_TIMEOUT: Duration = gate::TIMEOUT;

/// What became of one run.
#[derive(Debug)]
pub enum Fate {
    Landed(Box<Landed>),
    Skipped(Skipped),
    /// An earlier run was skipped (without `--keep-going`) or failed.
    NotAttempted,
}

/// What a landing did (in a dry run: would do), run by run in order.
#[derive(Debug)]
pub struct LandOutcome {
    pub dry_run: bool,
    pub strategy: LandStrategy,
    /// The target, when every run lands in the same one (always so with
    /// `--into` or `land.into`).
    pub into: Option<String>,
    pub runs: Vec<(String, Fate)>,
    /// What stopped the landing part way (what landed before it is listed).
    pub error: Option<Error>,
}

/// Land the runs `request` names; see the module doc.
pub fn land(ctx: &Ctx, request: &LandRequest<'_>, out: &mut Notes<'_>) -> Result<LandOutcome> {
    let settings = ctx.settings()?;
    let how = &request.how;
    let strategy = how.strategy.unwrap_or(settings.land_strategy.value);
    let into = target(ctx, how.into)?;
    let into = into.as_deref();
    let gate = gate_command(ctx, how.gate)?;
    let manifest = ctx.read_manifest()?;
    let statuses = match request.which {
        Which::Runs(_) => None,
        Which::Queue(statuses) => Some(statuses.unwrap_or(&settings.land_queue_status.value)),
    };
    let read_ahead = reads_ahead(request, gate.is_some());
    let readings = lookahead::Readings::new(if read_ahead {
        to_read(ctx, &manifest, request.which, statuses)?
    } else {
        Vec::new()
    });
    let merger = Merger::new(ctx.repo.gix())?;
    let tidy_behind = read_ahead && !how.keep && !request.dry_run;
    let mut outcome = LandOutcome {
        dry_run: request.dry_run,
        strategy,
        into: into.map(str::to_owned),
        runs: Vec::new(),
        error: None,
    };
    let mut tips = one::Tips::default();
    let remote = fleet::runs(ctx, request.fleet, (statuses, into), out)?;
    std::thread::scope(|scope| -> Result<()> {
        // However this ends, the reader starts no reading after it.
        let _stop = lookahead::StopOnDrop(&readings);
        if read_ahead {
            scope.spawn(|| readings.serve());
        }
        // Landed runs tidied on a thread of their own, behind the queue
        // (see `tidy`): when runs are read ahead, and not kept.
        let tidy = tidy_behind.then(|| tidy::Tidy::start(scope, ctx.repo.root().into(), out.quiet));
        let env = one::Env {
            ctx,
            merger: &merger,
            strategy,
            into,
            gate: gate.as_ref(),
            message: how.message,
            keep: how.keep,
            dry_run: request.dry_run,
            push: how.push.then_some(settings.land_push_retries.value),
            read_ahead: lookahead::Slot::default(),
            tidy: tidy.as_ref(),
            place: std::sync::Mutex::new(gate::Place {
                progress: out.stderr_is_terminal && !out.json && !out.quiet,
                ..gate::Place::default()
            }),
        };
        let entries = chosen(ctx, &manifest, request.which, statuses, into, out)?;
        if let Which::Queue(_) = request.which {
            // Read in the landing order, which is known now.
            let order: Vec<&str> = entries.iter().map(|e| e.id.as_str()).collect();
            readings.order(&order);
        }
        let each = Each {
            env: &env,
            readings: &readings,
            tidy: tidy.as_ref(),
            keep_going: request.keep_going,
        };
        each.land_all(&entries, &mut tips, &mut outcome, out);
        each.land_remote(&remote, &mut tips, &mut outcome);
        drop(env);
        if let Some(tidy) = tidy {
            tidy.finish(&mut outcome.runs, out);
        }
        Ok(())
    })?;
    wrap_up(ctx, &tips, &mut outcome);
    Ok(outcome)
}

/// Whether the runs' worktrees are read on a thread of their own, ahead of
/// their turn: when more than one run may land, with no gate and no push
/// (see `lookahead`).
fn reads_ahead(request: &LandRequest<'_>, gated: bool) -> bool {
    !gated
        && !request.how.push
        && match request.which {
            Which::Runs(ids) => ids.len() > 1,
            Which::Queue(_) => true,
        }
}

/// The target, when every run landed in one; each landed run's next step.
fn wrap_up(ctx: &Ctx, tips: &one::Tips, outcome: &mut LandOutcome) {
    if outcome.into.is_none() {
        outcome.into = tips.single_target();
    }
    for (id, fate) in &mut outcome.runs {
        if let Fate::Landed(landed) = fate {
            landed.next = finish::next_step(ctx, id, &landed.worktree);
        }
    }
}

/// The runs to land, in their order: those named, or the queue's (its
/// statuses, in `conflicts`' landing order, saying what it took and left).
fn chosen(
    ctx: &Ctx,
    manifest: &Manifest,
    which: Which<'_>,
    statuses: Option<&[Status]>,
    into: Option<&str>,
    out: &mut Notes<'_>,
) -> Result<Vec<Entry>> {
    match (which, statuses) {
        (Which::Queue(_), Some(statuses)) => {
            let entries = queue::ordered(ctx, manifest, statuses, into, out)?;
            let from_setting = matches!(which, Which::Queue(None));
            queue::say_what_it_took(manifest, statuses, from_setting, entries.len(), out);
            Ok(entries)
        }
        (Which::Runs(ids), _) => named(manifest, ids),
        (Which::Queue(_), None) => unreachable!("a queue has its statuses"),
    }
}

/// What lands each run in turn: the landing's environment, the worktrees
/// read ahead, the tidier behind.
struct Each<'e, 'c> {
    env: &'e one::Env<'c>,
    readings: &'e lookahead::Readings,
    tidy: Option<&'e tidy::Tidy>,
    keep_going: bool,
}

impl Each<'_, '_> {
    /// Land `entries` in order; after a skip (without `--keep-going`) or a
    /// failure, the rest are not attempted.
    fn land_all(
        &self,
        entries: &[Entry],
        tips: &mut one::Tips,
        outcome: &mut LandOutcome,
        out: &mut Notes<'_>,
    ) {
        let mut stopped = false;
        for (at, entry) in entries.iter().enumerate() {
            let id = entry.id.to_string();
            if stopped {
                outcome.runs.push((id, Fate::NotAttempted));
                continue;
            }
            gate::Place::update(&self.env.place, &outcome.runs, entries, at);
            self.env.read_ahead.put(&id, self.readings.take(&id));
            let (fate, error) = match one::land_one(self.env, entry, tips, out) {
                Ok(done) => done,
                Err(e) => (Fate::NotAttempted, Some(e)),
            };
            stopped = error.is_some() || matches!(fate, Fate::Skipped(_)) && !self.keep_going;
            if let Some(e) = error {
                outcome.error.get_or_insert(e);
            }
            outcome.runs.push((id, fate));
            if let Some(tidy) = self.tidy {
                tidy.collect(&mut outcome.runs, out);
            }
        }
    }
}

impl Each<'_, '_> {
    /// Land the other machines' `runs` (`--fleet`) in order, after this
    /// machine's; after a skip (without `--keep-going`) or a failure, here
    /// or before, the rest are not attempted.
    fn land_remote(
        &self,
        runs: &[one::remote::RemoteRun],
        tips: &mut one::Tips,
        outcome: &mut LandOutcome,
    ) {
        let mut stopped = outcome.error.is_some()
            || !self.keep_going
                && outcome
                    .runs
                    .iter()
                    .any(|(_, f)| !matches!(f, Fate::Landed(_)));
        for run in runs {
            if stopped {
                outcome.runs.push((run.name(), Fate::NotAttempted));
                continue;
            }
            let (fate, error) = match one::remote::land_remote(self.env, run, tips) {
                Ok(done) => done,
                Err(e) => (Fate::NotAttempted, Some(e)),
            };
            stopped = error.is_some() || matches!(fate, Fate::Skipped(_)) && !self.keep_going;
            if let Some(e) = error {
                outcome.error.get_or_insert(e);
            }
            outcome.runs.push((run.name(), fate));
        }
    }
}

/// The target `--into` (or `land.into`) names, which must be a local
/// branch (refused before anything changes); `None`: each run's base.
fn target(ctx: &Ctx, given: Option<&str>) -> Result<Option<String>> {
    let settings = ctx.settings()?;
    let into = match given {
        Some(into) => Some((into, format!("--into {into:?}"))),
        None => settings.land_into.value.as_deref().map(|into| {
            (
                into,
                format!("land.into {into:?} (from {})", settings.land_into.origin),
            )
        }),
    };
    let Some((into, what)) = into else {
        return Ok(None);
    };
    match refusals::local_branch(ctx, into)? {
        Some(branch) => Ok(Some(branch)),
        None => Err(Error::BaseNotFound {
            what: format!("{what}: no local branch {into}, so it"),
            help: "land moves a local branch: `git branch` lists them; --into <BRANCH> names one"
                .into(),
        }),
    }
}

/// The worktrees of the runs that may land, to read ahead: those named, in
/// the order named, or those in the queue's status set, by id (until the
/// landing order is known).
fn to_read(
    ctx: &Ctx,
    manifest: &Manifest,
    which: Which<'_>,
    statuses: Option<&[Status]>,
) -> Result<Vec<lookahead::Job>> {
    let mut ids: Vec<&str> = match which {
        Which::Runs(ids) => ids.iter().map(RunId::as_str).collect(),
        Which::Queue(_) => manifest
            .worktrees
            .iter()
            .filter(|e| statuses.is_some_and(|s| s.contains(&e.status)))
            .map(|e| e.id.as_str())
            .collect(),
    };
    if matches!(which, Which::Queue(_)) {
        ids.sort_unstable();
    }
    let mut found: std::collections::HashMap<String, crate::git::repo::Worktree> =
        ctx.repo.loop_worktrees()?.into_iter().collect();
    Ok(ids
        .into_iter()
        .filter_map(|id| {
            let wt = found.remove(id)?;
            Some((id.to_owned(), wt.path, wt.admin_dir))
        })
        .collect())
}

/// The gate: `--gate` (the user's own, trusted), else `land.gate` with the
/// hooks' trust rules (a repository file's gate runs only once trusted).
fn gate_command<'a>(ctx: &'a Ctx, given: Option<&'a str>) -> Result<Option<ConfiguredCommand<'a>>> {
    if let Some(command) = given {
        return Ok(Some(ConfiguredCommand::given(command, "--gate")));
    }
    ctx.configured(crate::configured_command::Kind::LandGate)
}

/// The named runs, in the order named (the same id twice once), or the
/// refusal of an unknown one.
fn named(manifest: &Manifest, ids: &[RunId]) -> Result<Vec<Entry>> {
    let mut chosen: Vec<Entry> = Vec::with_capacity(ids.len());
    for id in ids {
        let entry = manifest.get(id)?;
        if !chosen.iter().any(|e| e.id == entry.id) {
            chosen.push(entry.clone());
        }
    }
    Ok(chosen)
}
