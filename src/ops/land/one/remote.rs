//! `land --queue --fleet --push`: a run of another machine, landed from its
//! published record (docs/fleet.md). It has no worktree here: it is built
//! from the record's tip (fetched with the record), gated and pushed as any
//! run with `--push`, the local target moved the same way; nothing of the
//! other machine is touched but its record, which, once the landing is on
//! the remote, says so (`landed`, by compare-and-swap).

use gix::ObjectId;

use super::{Env, Step, Tips, build_on, landed, move_target, push, run_gate};
use crate::error::{Error, Result};
use crate::ops::fleet::record::Record;
use crate::ops::land::Fate;
use crate::ops::land::build;
use crate::ops::land::outcome::{BranchFate, Code, Landed, Skipped, WorktreeFate};
use crate::ops::land::push::Push;
use crate::ops::land::refusals::{self, Refusal};
use crate::runid::RunId;

/// A run of another machine to land: its record (checked as `list
/// --fleet` checks it) and the record's commit on the remote.
#[derive(Debug, Clone)]
pub(in crate::ops::land) struct RemoteRun {
    pub id: RunId,
    pub tip: ObjectId,
    pub record: Record,
    pub record_commit: String,
}

impl RemoteRun {
    /// How the landing names it: `<machine>/<id>`.
    pub(in crate::ops::land) fn name(&self) -> String {
        format!("{}/{}", self.record.machine, self.id)
    }
}

/// Land `run` (see the module doc); `Err` before the target moved stops
/// the command. A refusal is not logged here: the run is not this
/// machine's.
pub(in crate::ops::land) fn land_remote(
    env: &Env<'_>,
    run: &RemoteRun,
    tips: &mut Tips,
) -> Result<(Fate, Option<Error>)> {
    let base = (run.id.as_str(), run.record.base_branch.as_str());
    let into = match refusals::target(env.ctx, env.into, base)? {
        Ok(into) => into,
        Err(refusal) => return Ok((skipped(None, refusal), None)),
    };
    tips.seen(&into);
    Ok(match attempt(env, run, &into, tips)? {
        Ok(done) => (done, None),
        Err(refusal) => (skipped(Some(&into), refusal), None),
    })
}

fn skipped(into: Option<&str>, refusal: Refusal) -> Fate {
    Fate::Skipped(Skipped {
        into: into.map(str::to_owned),
        code: refusal.code,
        message: refusal.message,
        paths: refusal.paths,
        gate: refusal.gate,
    })
}

/// The landing of `run` in `into`, or its refusal.
fn attempt(env: &Env<'_>, run: &RemoteRun, into: &str, tips: &mut Tips) -> Step<Fate> {
    let ctx = env.ctx;
    let onto = match env.dry_run.then(|| tips.get(into)).flatten() {
        Some(tip) => tip,
        None => match ctx.repo.branch_target(into)? {
            Some(tip) => tip,
            None => {
                let message = format!("the branch {into} does not exist");
                return Ok(Err(Refusal::new(Code::NoTarget, message)));
            }
        },
    };
    if env.merger.merge_base(onto, run.tip)? == Some(run.tip) {
        let message = format!(
            "it has no commits of its own over {into} ({})",
            ctx.repo.short_id(onto)
        );
        return Ok(Err(Refusal::new(Code::Empty, message)));
    }
    let built = step!(build_on(env, &run.id, into, onto, run.tip, false));
    let kept = BranchFate::Kept {
        reason: format!("loop/{} is {}'s", run.id, run.record.machine),
    };
    if env.dry_run {
        tips.set(into, built.tip);
        let landed = landed(
            into,
            onto,
            &built,
            None,
            WorktreeFate::None,
            BranchFate::DryRun,
        );
        return Ok(Ok(Fate::Landed(Box::new(landed))));
    }
    build::persist(env.merger, &built)?;
    let gate = step!(run_gate(env, &run.id, into, built.tip));
    let (built, gate, pushed) = step!(push::when_asked(
        env,
        &run.id,
        into,
        (onto, run.tip),
        (built, gate)
    ));
    let mut landed = landed(into, onto, &built, gate, WorktreeFate::None, kept);
    landed.pushed_to = pushed.as_ref().and_then(push::pushed_to);
    match (move_target(env, &run.id, into, onto, built.tip)?, &pushed) {
        (Ok(()), _) => tips.set(into, built.tip),
        (Err(mut refusal), None | Some(Push::NotPushed { .. })) => {
            refusal.gate = landed.gate;
            return Ok(Err(refusal));
        }
        // Pushed, so landed (on the remote); the push is never undone.
        (Err(refusal), Some(Push::Pushed { .. })) => landed.problems.push(format!(
            "landed on the remote, but {into} was not moved ({}): {}",
            refusal.code.as_str(),
            refusal.message
        )),
    }
    said(env, run, pushed, &mut landed)?;
    Ok(Ok(Fate::Landed(Box::new(landed))))
}

/// Pushed: its record written again saying so (a failure to, a problem of
/// the landing, which stands); not pushed: why.
fn said(env: &Env<'_>, run: &RemoteRun, pushed: Option<Push>, landed: &mut Landed) -> Result<()> {
    match pushed {
        Some(Push::Pushed {
            remote_ref, tip, ..
        }) => {
            let into = remote_ref.trim_start_matches("refs/heads/");
            let said = crate::ops::fleet::landed::say_landed(
                env.ctx,
                &run.record,
                &run.record_commit,
                (into, &tip.to_string()),
            )?;
            if let Err(why) = said {
                landed
                    .problems
                    .push(format!("landed, but its record does not say so: {why}"));
            }
            landed.pushed = true;
        }
        Some(Push::NotPushed { reason, .. }) => landed.not_pushed = Some(reason),
        None => {}
    }
    Ok(())
}
