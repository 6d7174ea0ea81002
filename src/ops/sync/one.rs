//! One run's sync, on a worker thread with its own repository handle and
//! merger: classify, build in memory, ask the worktree, (persist, gate,)
//! then under the run's lock the trash, the branch's move and the worktree's
//! update, and the `sync` event (see the module doc of [`super`] for the
//! order and why).
//!
//! Every skip before the branch moves leaves the run as it was: no ref,
//! no file of its worktree, and (but for a gate's refusal, whose commit was
//! written for the gate's checkout) no object written.

use std::collections::HashMap;
use std::ffi::OsStr;

use gix::ObjectId;

use super::outcome::{Code, Skipped, Synced};
use super::worktree;
use crate::config::SyncStrategy;
use crate::configured_command::ConfiguredCommand;
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::events::{Event, EventKind, State};
use crate::git::merge::Merger;
use crate::lock::RunLock;
use crate::manifest::Entry;
use crate::ops::land::advance::{self, Advance};
use crate::ops::land::build::{self, Build, BuildRequest, Strategy};
use crate::ops::land::{GATE_TIMEOUT, gate};
use crate::output::Notes;
use crate::safety::trash;

/// What one run's sync needs: the worker's own repository and merger, and
/// what every run shares.
pub(super) struct Env<'a> {
    pub ctx: &'a Ctx,
    pub merger: &'a Merger,
    pub strategy: SyncStrategy,
    pub gate: Option<&'a ConfiguredCommand<'a>>,
    pub dry_run: bool,
    /// Each base's tip, read once at the start.
    pub bases: &'a HashMap<String, Option<ObjectId>>,
}

/// Held while a run's branch moves and its worktree follows, and while a
/// gate runs: each opens the process's one Ctrl-C window
/// ([`crate::signals::RollbackWindow`], one at a time per process), so the
/// runs synced in parallel take these steps one at a time (building,
/// reading and persisting stay parallel).
static MOVING: std::sync::Mutex<()> = std::sync::Mutex::new(());
static GATING: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time(lock: &'static std::sync::Mutex<()>) -> std::sync::MutexGuard<'static, ()> {
    lock.lock().unwrap_or_else(|p| p.into_inner())
}

/// A step's value, or the skip that ends the run's sync.
type Step<T> = Result<std::result::Result<T, Skipped>>;

/// The value of a step, or return its skip.
macro_rules! step {
    ($step:expr) => {
        match $step? {
            Ok(value) => value,
            Err(skipped) => return Ok(Err(skipped)),
        }
    };
}

/// Sync `entry` (see the module doc): synced, or skipped with its code.
/// `Err`: git could not be run, the repository could not be read or
/// written; the run is as the error says.
pub(super) fn sync_one(env: &Env<'_>, entry: &Entry, out: &mut Notes<'_>) -> Result<super::Fate> {
    Ok(match attempt(env, entry, out)? {
        Ok(synced) => super::Fate::Synced(Box::new(synced)),
        Err(mut skipped) => {
            skipped
                .base
                .get_or_insert_with(|| entry.base_branch.clone());
            super::Fate::Skipped(skipped)
        }
    })
}

fn attempt(env: &Env<'_>, entry: &Entry, out: &mut Notes<'_>) -> Step<Synced> {
    let ctx = env.ctx;
    let branch = entry.branch();
    if let Some(finished) = finish_interrupted(env, entry, out)? {
        return Ok(Ok(finished));
    }
    // Left unfinished and not finished now (not safely): named, with the
    // command that finishes it, never taken for up to date.
    if let Some(tip) = ctx.repo.branch_target(&branch)?
        && let Some(busy) = advance::left_unfinished(&ctx.repo, &branch, tip)?
    {
        return Ok(Err(worktree::refused(&branch, busy)));
    }
    let (tip, onto) = step!(super::classify(ctx, entry, env.bases));
    let (new, built) = step!(build_on(env, entry, tip, onto));
    let gix = env.merger.repo();
    step!(worktree::accepts(&ctx.repo, gix, &branch, (tip, new)));
    let mut synced = Synced {
        base: entry.base_branch.clone(),
        from: tip,
        to: new,
        onto,
        strategy: env.strategy,
        trash_ref: None,
        gate: None,
        problems: Vec::new(),
    };
    if env.dry_run {
        return Ok(Ok(synced));
    }
    if let Some(built) = &built {
        build::persist(env.merger, built)?;
    }
    synced.gate = step!(run_gate(env, entry, new));
    // Taken holding nothing (THE lock order of `crate::lock`), never
    // waited for: a run busy with a removal, a landing or a mark is
    // `locked`, and the next sync takes it.
    let lock = match RunLock::acquire(ctx.repo.common_dir(), &entry.id, std::time::Duration::ZERO) {
        Ok(lock) => lock,
        Err(Error::RunBusy { .. }) => {
            let reason = "its run lock is held (a removal, a landing or a mark of it): sync it again once that is over";
            return Ok(Err(Skipped::new(Code::Locked, reason)));
        }
        Err(e) => return Err(e),
    };
    step!(move_branch(env, entry, (tip, new), &mut synced));
    if let Err(e) = record(ctx, entry, &synced, out) {
        synced.problems.push(format!("synced, but not logged: {e}"));
    }
    drop(lock);
    Ok(Ok(synced))
}

/// A sync of `entry` killed between its branch's move and its worktree's
/// update, finished now under the run's lock when nothing of the worktree
/// was written yet ([`advance::finish_sync`]; in a dry run, said it would
/// be): reported as synced, with a note. `None`: nothing to finish (or not
/// safely: the worktree check names it, `operation-in-progress`, with the
/// command).
fn finish_interrupted(env: &Env<'_>, entry: &Entry, out: &mut Notes<'_>) -> Result<Option<Synced>> {
    let ctx = env.ctx;
    let branch = entry.branch();
    let Some(tip) = ctx.repo.branch_target(&branch)? else {
        return Ok(None);
    };
    let original = format!("refs/heads/{branch}");
    let kept = |before: ObjectId| {
        let entries = trash::list(ctx.repo.gix()).ok()?;
        let before = before.to_string();
        let reason = trash::Reason::Sync.as_str();
        entries
            .into_iter()
            .rev()
            .find(|e| e.original == original && e.tip == before && e.reason == reason)
            .map(|e| e.refname)
    };
    // Asked first without the lock, writing nothing: almost always there
    // is nothing to finish (the branch's newest reflog line is no sync's).
    if advance::finish_sync(&ctx.repo, &branch, tip, kept, true)?.is_none() {
        return Ok(None);
    }
    let lock = if env.dry_run {
        None
    } else {
        match RunLock::acquire(ctx.repo.common_dir(), &entry.id, std::time::Duration::ZERO) {
            Ok(lock) => Some(lock),
            Err(Error::RunBusy { .. }) => return Ok(None),
            Err(e) => return Err(e),
        }
    };
    let moving = one_at_a_time(&MOVING);
    let finished = advance::finish_sync(&ctx.repo, &branch, tip, kept, env.dry_run);
    drop(moving);
    let Some((before, kept)) = finished? else {
        return Ok(None);
    };
    let onto = env.bases.get(&entry.base_branch).copied().flatten();
    let mut synced = Synced {
        base: entry.base_branch.clone(),
        from: before,
        to: tip,
        onto: onto.unwrap_or(tip),
        strategy: strategy_of_move(ctx, &original).unwrap_or(env.strategy),
        trash_ref: kept,
        gate: None,
        problems: vec![format!(
            "a sync of {branch} was interrupted after the branch moved: its worktree {} now",
            if env.dry_run {
                "would be updated"
            } else {
                "is updated"
            }
        )],
    };
    if env.dry_run {
        return Ok(Some(synced));
    }
    if let Err(e) = record(ctx, entry, &synced, out) {
        synced
            .problems
            .push(format!("finished, but not logged: {e}"));
    }
    drop(lock);
    Ok(Some(synced))
}

/// The strategy the sync that moved `full` last was made with, from its
/// reflog line (`git-loop sync <id> with <base> (<strategy>)`, as
/// [`move_branch`] writes it); `None` when the line says none.
fn strategy_of_move(ctx: &Ctx, full: &str) -> Option<SyncStrategy> {
    let newest = crate::git::refs::reflog(ctx.repo.gix(), full)
        .into_iter()
        .next()?;
    let message = String::from_utf8_lossy(&newest.message).into_owned();
    let (_, last) = message.trim_end().rsplit_once('(')?;
    SyncStrategy::parse(last.strip_suffix(')')?)
}

/// The synced tip of `entry` onto `onto`, in the merger's memory, and the
/// build to persist (`None`: the base's tip itself, which the branch
/// fast-forwards to: the run has no commits of its own left).
fn build_on(
    env: &Env<'_>,
    entry: &Entry,
    tip: ObjectId,
    onto: ObjectId,
) -> Step<(ObjectId, Option<build::Built>)> {
    let base = &entry.base_branch;
    let strategy = match env.strategy {
        SyncStrategy::Rebase => {
            let own = build::ahead(env.merger, onto, tip)?;
            let merges: Vec<String> = own
                .iter()
                .filter(|c| c.parents.len() > 1)
                .map(|c| env.ctx.repo.short_id(c.id))
                .collect();
            if !merges.is_empty() {
                return Ok(Err(has_merges(entry, &merges)));
            }
            Strategy::Rebase
        }
        SyncStrategy::Merge => Strategy::MergeInto,
    };
    let request = BuildRequest {
        onto,
        run_tip: tip,
        strategy,
        message: None,
        run_id: &entry.id,
        into: base,
    };
    Ok(match build::build(env.merger, &request)? {
        Build::Built(built) => Ok((built.tip, Some(built))),
        Build::Empty => Ok((onto, None)),
        Build::Conflict { paths } => Err(conflict(entry, env.strategy, paths)),
        Build::HasMerges { merges } => {
            let merges: Vec<String> = merges.iter().map(|m| env.ctx.repo.short_id(*m)).collect();
            Err(has_merges(entry, &merges))
        }
        Build::NotFastForward => {
            return Err(Error::Internal(format!(
                "a sync of {} built no fast-forward",
                entry.id
            )));
        }
    })
}

fn has_merges(entry: &Entry, merges: &[String]) -> Skipped {
    Skipped::new(
        Code::HasMerges,
        format!(
            "its own commits include merge commits ({}), which a rebase would drop: \
             `git loop sync {} --strategy merge` merges {} in instead",
            merges.join(", "),
            entry.id,
            entry.base_branch
        ),
    )
}

fn conflict(entry: &Entry, strategy: SyncStrategy, paths: Vec<String>) -> Skipped {
    let base = &entry.base_branch;
    let mut skipped = Skipped::new(
        Code::Conflict,
        format!(
            "its commits and {base}'s conflict in {} ({strategy}): nothing changed; \
             `git rebase {base}` (or `git merge {base}`) in its worktree resolves them by hand",
            paths.join(", ")
        ),
    );
    skipped.paths = paths;
    skipped
}

/// The gate, when there is one, in a scratch checkout of `commit`.
fn run_gate(env: &Env<'_>, entry: &Entry, commit: ObjectId) -> Step<Option<gate::GateRun>> {
    let Some(command) = env.gate else {
        return Ok(Ok(None));
    };
    let branch = entry.branch();
    let vars: [(&str, &OsStr); 3] = [
        ("GIT_LOOP_ID", OsStr::new(entry.id.as_str())),
        ("GIT_LOOP_BRANCH", OsStr::new(&branch)),
        ("GIT_LOOP_SYNC_BASE", OsStr::new(&entry.base_branch)),
    ];
    // Several gates may run at once: no status line under them.
    let place = gate::Place::default();
    let at = (entry.id.as_str(), &place);
    let gating = one_at_a_time(&GATING);
    let ran = gate::check(&env.ctx.repo, command, at, commit, GATE_TIMEOUT, &vars)?;
    drop(gating);
    if ran.passed {
        return Ok(Ok(Some(ran)));
    }
    let how = match (ran.timed_out, ran.exit_code) {
        (true, _) => "timed out".to_owned(),
        (false, Some(code)) => format!("exited {code}"),
        (false, None) => "was killed by a signal".to_owned(),
    };
    let mut skipped = Skipped::new(
        Code::GateFailed,
        format!(
            "the gate `{}` {how}: {} kept where it was",
            ran.command, branch
        ),
    );
    skipped.gate = Some(ran);
    Ok(Err(skipped))
}

/// Under the run's lock: the branch still at `tip`, its checkout able to
/// follow, its tip kept in the trash, then moved to `new` by the kernel's
/// compare-and-swap and its checkout updated ([`advance::rewrite`]). A
/// refusal after the trash entry was written drops that entry again (the
/// branch still holds its tip).
fn move_branch(
    env: &Env<'_>,
    entry: &Entry,
    (tip, new): (ObjectId, ObjectId),
    synced: &mut Synced,
) -> Step<()> {
    let repo = &env.ctx.repo;
    let branch = entry.branch();
    match advance::check_rewrite(repo, &branch, tip, new)? {
        Advance::Moved { .. } => {}
        refusal => return Ok(Err(worktree::refused(&branch, refusal))),
    }
    let keep = trash::Keep::branch(&branch, tip, trash::Reason::Sync);
    let kept = trash::keep(repo.gix(), &keep)?;
    let message = format!(
        "{} {} with {} ({})",
        advance::SYNC_PREFIX,
        entry.id,
        entry.base_branch,
        env.strategy
    );
    let moving = one_at_a_time(&MOVING);
    let moved = advance::rewrite(repo, &branch, (tip, new), &kept, &message);
    drop(moving);
    match moved {
        Ok(Advance::Moved { .. }) => {
            synced.trash_ref = Some(kept);
            Ok(Ok(()))
        }
        Ok(refusal) => {
            drop_kept(env.ctx, &branch, tip, &kept);
            Ok(Err(worktree::refused(&branch, refusal)))
        }
        Err(e) => {
            drop_kept(env.ctx, &branch, tip, &kept);
            Err(e)
        }
    }
}

/// The trash entry `kept` of `tip`, dropped when the sync did not move
/// the branch after all (it still holds `tip`: nothing is lost).
fn drop_kept(ctx: &Ctx, branch: &str, tip: ObjectId, kept: &str) {
    if ctx.repo.branch_target(branch).ok().flatten() != Some(tip) {
        return;
    }
    let Ok(entries) = trash::list(ctx.repo.gix()) else {
        return;
    };
    if let Some(entry) = entries.iter().find(|e| e.refname == kept) {
        let _ = trash::drop_entry(ctx.repo.gix(), entry);
    }
}

/// The `sync` event: `from` the branch's old tip, `to` the new one, the
/// base, its tip, the strategy and the trash entry in `detail`.
fn record(ctx: &Ctx, entry: &Entry, synced: &Synced, out: &mut Notes<'_>) -> Result<()> {
    let mut event = Event::new(EventKind::Sync, &entry.id);
    event.from = Some(State::Commit(synced.from.to_string()));
    event.to = Some(State::Commit(synced.to.to_string()));
    event.detail = Some(format!(
        "synced {} with {} at {} ({}); its old tip kept in {}",
        entry.branch(),
        synced.base,
        synced.onto,
        synced.strategy,
        synced.trash_ref.as_deref().unwrap_or("(nothing)")
    ));
    let mut tx = ctx.start_transaction()?;
    tx.log(event);
    tx.commit(out)
}
