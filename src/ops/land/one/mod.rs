//! One run's landing: refuse what must not land, build, persist, gate,
//! advance, then record it and tidy up (see the module doc of [`super`]
//! for the order and the locks).
//!
//! Every refusal ([`super::refusals`]) happens before the target moves, and
//! leaves the refs, the index and files of every worktree and the manifest
//! as they were; a refusal (not in a dry run) is logged as a `land` event
//! with its code. After the target moved nothing returns an error
//! ([`super::finish`]): the landing stands, and a step that failed is
//! reported with it.

use std::ffi::OsStr;

use gix::ObjectId;

use super::advance::{self, Advance};
use super::build::{self, Built, Strategy};
use super::gate::{self, GateRun};
use super::outcome::{BranchFate, Code, Landed, Skipped, WorktreeFate};
use super::push::Push;
use super::refusals::{self, Refusal};
use super::{Fate, GATE_TIMEOUT, finish};
use crate::config::LandStrategy;
use crate::configured_command::ConfiguredCommand;
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::events::{Code as EventCode, Event, EventKind};
use crate::git::merge::Merger;
use crate::lock::{RUN_LOCK_DEADLINE, RunLock};
use crate::manifest::Entry;
use crate::output::Notes;
use crate::runid::RunId;

/// What every run of one `land` shares.
pub(super) struct Env<'a> {
    pub ctx: &'a Ctx,
    pub merger: &'a Merger,
    pub strategy: LandStrategy,
    /// `--into` or `land.into`.
    pub into: Option<&'a str>,
    pub gate: Option<&'a ConfiguredCommand<'a>>,
    pub message: Option<&'a str>,
    pub keep: bool,
    pub dry_run: bool,
    /// `--push`, with `land.push-retries`.
    pub push: Option<usize>,
    /// The run's worktree read while the one before it landed.
    pub read_ahead: super::lookahead::Slot,
    /// Where a landed run is handed to be tidied behind the queue
    /// ([`super::tidy`]); `None`: tidied at once.
    pub tidy: Option<&'a super::tidy::Tidy>,
    /// Where the run landing now stands, for its gate.
    pub place: std::sync::Mutex<gate::Place>,
}

/// Where each target is as this command's landings left it (in a dry run,
/// the landed commit in the merger's memory), and every target named.
#[derive(Default)]
pub(super) struct Tips {
    tips: Vec<(String, ObjectId)>,
    targets: Vec<String>,
}

impl Tips {
    fn get(&self, into: &str) -> Option<ObjectId> {
        self.tips.iter().find(|(b, _)| b == into).map(|(_, t)| *t)
    }

    fn set(&mut self, into: &str, tip: ObjectId) {
        match self.tips.iter_mut().find(|(b, _)| b == into) {
            Some(slot) => slot.1 = tip,
            None => self.tips.push((into.to_owned(), tip)),
        }
    }

    fn seen(&mut self, into: &str) {
        if !self.targets.iter().any(|t| t == into) {
            self.targets.push(into.to_owned());
        }
    }

    /// The one target every run landed (or was to land) in.
    pub fn single_target(&self) -> Option<String> {
        match self.targets.as_slice() {
            [one] => Some(one.clone()),
            _ => None,
        }
    }
}

/// A step's value, or the refusal that ends the run's landing.
type Step<T> = Result<std::result::Result<T, Refusal>>;

/// The value of a step, or return its refusal.
macro_rules! step {
    ($step:expr) => {
        match $step? {
            Ok(value) => value,
            Err(refusal) => return Ok(Err(refusal)),
        }
    };
}

mod push;
pub(super) mod remote;

/// Land `entry` (see the module doc). `Err` before the target moved stops
/// the command; after, the second value is the first failure (reported
/// with the landing).
pub(super) fn land_one(
    env: &Env<'_>,
    entry: &Entry,
    tips: &mut Tips,
    out: &mut Notes<'_>,
) -> Result<(Fate, Option<Error>)> {
    let into = match refusals::target(env.ctx, env.into, (&entry.id, &entry.base_branch))? {
        Ok(into) => into,
        Err(refusal) => return refused(env, entry, None, refusal, out),
    };
    tips.seen(&into);
    match attempt(env, entry, &into, tips, out)? {
        Ok(done) => Ok(done),
        Err(refusal) => refused(env, entry, Some(&into), refusal, out),
    }
}

/// The landing of `entry` in `into`, or its refusal.
fn attempt(
    env: &Env<'_>,
    entry: &Entry,
    into: &str,
    tips: &mut Tips,
    out: &mut Notes<'_>,
) -> Step<(Fate, Option<Error>)> {
    let ctx = env.ctx;
    let (run_tip, onto) = step!(ready(env, entry, into, tips));
    let built = step!(build_on(env, &entry.id, into, onto, run_tip, true));
    if env.dry_run {
        tips.set(into, built.tip);
        let landed = landed(
            into,
            onto,
            &built,
            None,
            WorktreeFate::DryRun,
            BranchFate::DryRun,
        );
        return Ok(Ok((Fate::Landed(Box::new(landed)), None)));
    }
    build::persist(env.merger, &built)?;
    let gate = step!(run_gate(env, &entry.id, into, built.tip));
    crate::crash::point("land-built");
    let (built, gate, pushed) = step!(push::when_asked(
        env,
        &entry.id,
        into,
        (onto, run_tip),
        (built, gate)
    ));
    // Under the run's lock from here to the mark: a mark or a removal of
    // this run waits for the landing to be recorded (taken holding nothing).
    let run_lock = RunLock::acquire(ctx.repo.common_dir(), &entry.id, RUN_LOCK_DEADLINE)?;
    let kept = BranchFate::Kept {
        reason: "--keep".to_owned(),
    };
    let mut landed = landed(into, onto, &built, gate, WorktreeFate::Kept, kept);
    landed.pushed_to = pushed.as_ref().and_then(push::pushed_to);
    match (move_target(env, &entry.id, into, onto, built.tip)?, pushed) {
        (Ok(()), pushed) => {
            tips.set(into, built.tip);
            if let Some(Push::NotPushed { reason, .. }) = pushed {
                landed.not_pushed = Some(reason);
            }
        }
        (Err(mut refusal), None | Some(Push::NotPushed { .. })) => {
            refusal.gate = landed.gate;
            return Ok(Err(refusal));
        }
        // Pushed, so landed (on the remote); the local target stays where
        // it is, and the push is never undone.
        (
            Err(refusal),
            Some(Push::Pushed {
                remote, remote_ref, ..
            }),
        ) => {
            landed.problems.push(format!(
                "landed on {remote}'s {}, but {into} was not moved ({}): {}",
                remote_ref.trim_start_matches("refs/heads/"),
                refusal.code.as_str(),
                refusal.message
            ));
        }
    }
    landed.pushed = landed.not_pushed.is_none() && env.push.is_some();
    let error = finish::record(ctx, env.strategy, entry, &landed, out).err();
    if let Some(e) = &error {
        landed
            .problems
            .push(format!("landed, but not recorded as merged: {e}"));
    }
    drop(run_lock);
    tidy_up(env, entry, (run_tip, into), &mut landed, out);
    Ok(Ok((Fate::Landed(Box::new(landed)), error)))
}

/// The landed run's worktree and branch: kept (`--keep`), handed over to
/// be removed behind the landing, or removed now (their fates on `landed`).
fn tidy_up(
    env: &Env<'_>,
    entry: &Entry,
    (run_tip, into): (ObjectId, &str),
    landed: &mut Landed,
    out: &mut Notes<'_>,
) {
    let ctx = env.ctx;
    match env.tidy {
        _ if env.keep => {}
        // Its fates are put on it before `land` returns.
        Some(tidy) => tidy.hand_over(entry, run_tip, into, landed.to),
        None => {
            landed.worktree = finish::remove_worktrees(ctx, &[&entry.id], out).remove(0);
            let against = finish::Against::target(into);
            landed.branch = finish::delete_branch(ctx, entry, run_tip, against, out);
        }
    }
}

fn landed(
    into: &str,
    onto: ObjectId,
    built: &Built,
    gate: Option<GateRun>,
    worktree: WorktreeFate,
    branch: BranchFate,
) -> Landed {
    Landed {
        into: into.to_owned(),
        from: onto,
        to: built.tip,
        commits: built.commits,
        gate,
        worktree,
        branch,
        pushed: false,
        not_pushed: None,
        pushed_to: None,
        problems: Vec::new(),
        next: None,
    }
}

/// The run's tip and the target's tip to land it on, once nothing refuses
/// it: its branch exists, its worktree is clean, it has commits of its own.
fn ready(env: &Env<'_>, entry: &Entry, into: &str, tips: &Tips) -> Step<(ObjectId, ObjectId)> {
    let ctx = env.ctx;
    let branch = entry.branch();
    let refuse = |code, message| Ok(Err(Refusal::new(code, message)));
    let Some(run_tip) = ctx.repo.branch_target(&branch)? else {
        return refuse(
            Code::NoBranch,
            format!("its branch {branch} does not exist"),
        );
    };
    let read = env.read_ahead.take_for(&entry.id);
    if let Some(refusal) = refusals::worktree(ctx, &entry.id, read)? {
        return Ok(Err(refusal));
    }
    let onto = match env.dry_run.then(|| tips.get(into)).flatten() {
        Some(tip) => tip,
        None => match ctx.repo.branch_target(into)? {
            Some(tip) => tip,
            None => return refuse(Code::NoTarget, format!("the branch {into} does not exist")),
        },
    };
    if env.merger.merge_base(onto, run_tip)? == Some(run_tip) {
        let message = format!(
            "it has no commits of its own over {into} ({})",
            ctx.repo.short_id(onto)
        );
        return refuse(Code::Empty, message);
    }
    Ok(Ok((run_tip, onto)))
}

/// The landed commit(s) of run `id` onto `onto`, in the merger's memory.
/// `fix`: a conflict's refusal names the rebase that fixes it (not for a
/// rebuild on a remote that moved, once the run landed locally).
fn build_on(
    env: &Env<'_>,
    id: &RunId,
    into: &str,
    onto: ObjectId,
    run_tip: ObjectId,
    fix: bool,
) -> Step<Built> {
    let request = build::BuildRequest {
        onto,
        run_tip,
        strategy: strategy(env.strategy),
        message: env.message,
        run_id: id,
        into,
    };
    let build = build::build(env.merger, &request)?;
    refusals::build(env.ctx, id, into, onto, build, fix)
}

/// The gate, when there is one, in a scratch checkout of `commit`.
fn run_gate(env: &Env<'_>, id: &RunId, into: &str, commit: ObjectId) -> Step<Option<GateRun>> {
    let Some(command) = env.gate else {
        return Ok(Ok(None));
    };
    let branch = crate::runid::branch_name(id);
    let vars: [(&str, &OsStr); 3] = [
        ("GIT_LOOP_ID", OsStr::new(id.as_str())),
        ("GIT_LOOP_BRANCH", OsStr::new(&branch)),
        ("GIT_LOOP_INTO", OsStr::new(into)),
    ];
    let place = env.place.lock().unwrap_or_else(|p| p.into_inner()).clone();
    let at = (id.as_str(), &place);
    let run = gate::check(&env.ctx.repo, command, at, commit, GATE_TIMEOUT, &vars)?;
    if !run.passed {
        return Ok(Err(refusals::gate_failed(run)));
    }
    Ok(Ok(Some(run)))
}

/// `into` moved from `onto` to `new` by compare-and-swap, its checkout
/// updated where clean; refused when it is not at `onto` any more.
fn move_target(env: &Env<'_>, id: &RunId, into: &str, onto: ObjectId, new: ObjectId) -> Step<()> {
    let ctx = env.ctx;
    let now = ctx.repo.branch_target(into)?;
    if now != Some(onto) {
        return Ok(Err(refusals::moved(ctx, into, onto, now)));
    }
    let reflog = format!("git-loop land {id} ({})", env.strategy);
    Ok(
        match advance::advance(&ctx.repo, into, onto, new, &reflog)? {
            Advance::Moved { .. } => Ok(()),
            refusal => Err(refusals::advance(ctx, refusal, into, onto)),
        },
    )
}

fn strategy(s: LandStrategy) -> Strategy {
    match s {
        LandStrategy::Rebase => Strategy::Rebase,
        LandStrategy::Squash => Strategy::Squash,
        LandStrategy::Merge => Strategy::Merge,
        LandStrategy::Ff => Strategy::Ff,
    }
}

/// The refusal of `entry`, logged (not in a dry run) as a `land` event
/// with its code (and a gate's output).
fn refused(
    env: &Env<'_>,
    entry: &Entry,
    into: Option<&str>,
    refusal: Refusal,
    out: &mut Notes<'_>,
) -> Result<(Fate, Option<Error>)> {
    if !env.dry_run {
        log_refusal(env.ctx, entry, &refusal, out)?;
    }
    let skipped = Skipped {
        into: into.map(str::to_owned),
        code: refusal.code,
        message: refusal.message,
        paths: refusal.paths,
        gate: refusal.gate,
    };
    Ok((Fate::Skipped(skipped), None))
}

fn log_refusal(ctx: &Ctx, entry: &Entry, refusal: &Refusal, out: &mut Notes<'_>) -> Result<()> {
    let mut event = Event::new(EventKind::Land, &entry.id);
    event.code = Some(EventCode::Other(refusal.code.as_str().to_owned()));
    let mut detail = refusal.message.clone();
    let tail = refusal.gate.as_ref().map(|g| g.tail.trim_end());
    if let Some(tail) = tail.filter(|t| !t.is_empty()) {
        detail.push('\n');
        detail.push_str(tail);
    }
    event.detail = Some(detail);
    let mut tx = ctx.start_transaction()?;
    tx.log(event);
    tx.commit(out)
}
