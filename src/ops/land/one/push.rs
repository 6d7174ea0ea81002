//! `--push` for one run, before its local target moves: the checkout
//! checked, the landing pushed, rebuilt on the remote's tip when it moved
//! (see the module doc of [`super::super`]).

use gix::ObjectId;

use super::{Env, Step, build_on, run_gate};
use crate::ops::land::advance::{self, Advance};
use crate::ops::land::build::{self, Built};
use crate::ops::land::gate::GateRun;
use crate::ops::land::outcome::PushedTo;
use crate::ops::land::push::{self, Push, Rebuilt};
use crate::ops::land::refusals;
use crate::runid::RunId;

/// A landing built again on the remote's tip, and its gate.
type Again = (Built, Option<GateRun>);

/// [`push_first`] when `--push` asked for it: the landing and its gate as
/// pushed (rebuilt when the remote moved), and the push; else as they are.
pub(super) fn when_asked(
    env: &Env<'_>,
    id: &RunId,
    into: &str,
    (onto, run_tip): (ObjectId, ObjectId),
    (built, gate): Again,
) -> Step<(Built, Option<GateRun>, Option<Push>)> {
    let Some(retries) = env.push else {
        return Ok(Ok((built, gate, None)));
    };
    let (outcome, rebuilt) = step!(push_first(env, id, into, (onto, run_tip), &built, retries));
    let (built, gate) = rebuilt.unwrap_or((built, gate));
    Ok(Ok((built, gate, Some(outcome))))
}

/// `--push`, before the local target moves: the checkout must accept
/// `onto -> built.tip` (else refused, nothing pushed), then `built.tip` is
/// pushed, never forced; when the remote moved the landing is rebuilt on
/// its tip and gated again (the new build and its gate returned). The local
/// target is moved by the caller, once, from `onto`: a fast-forward.
pub(super) fn push_first(
    env: &Env<'_>,
    id: &RunId,
    into: &str,
    (onto, run_tip): (ObjectId, ObjectId),
    built: &Built,
    retries: usize,
) -> Step<(Push, Option<Again>)> {
    step!(check_target(env, into, onto, built.tip));
    let mut rebuilt = None;
    let outcome = push::push(
        &env.ctx.repo,
        into,
        onto,
        built.tip,
        retries,
        |remote_tip| {
            let again = match rebuild(env, id, into, (onto, run_tip), remote_tip)? {
                Ok(again) => again,
                Err(refusal) => {
                    return Ok(Rebuilt::Refused {
                        reason: format!("{}: {}", refusal.code.as_str(), refusal.message),
                    });
                }
            };
            let tip = again.0.tip;
            rebuilt = Some(again);
            Ok(Rebuilt::Advanced { tip })
        },
    )?;
    Ok(Ok((outcome, rebuilt)))
}

/// Where a landing was pushed, when it was.
pub(super) fn pushed_to(push: &Push) -> Option<PushedTo> {
    match push {
        Push::Pushed {
            remote,
            remote_ref,
            rebuilds,
            summary,
            ..
        } => Some(PushedTo {
            remote: remote.clone(),
            remote_ref: remote_ref.clone(),
            summary: summary.clone(),
            rebuilds: *rebuilds,
        }),
        Push::NotPushed { .. } => None,
    }
}

/// The landing built again on the remote's tip, persisted, gated, and the
/// local target's checkout able to follow `onto -> ` it.
fn rebuild(
    env: &Env<'_>,
    id: &RunId,
    into: &str,
    (onto, run_tip): (ObjectId, ObjectId),
    remote_tip: ObjectId,
) -> Step<Again> {
    let built = step!(build_on(env, id, into, remote_tip, run_tip, false));
    build::persist(env.merger, &built)?;
    let gate = step!(run_gate(env, id, into, built.tip));
    step!(check_target(env, into, onto, built.tip));
    Ok(Ok((built, gate)))
}

/// Whether `into` could move from `onto` to `new` now (changes nothing).
fn check_target(env: &Env<'_>, into: &str, onto: ObjectId, new: ObjectId) -> Step<()> {
    let ctx = env.ctx;
    Ok(match advance::check(&ctx.repo, into, onto, new)? {
        Advance::Moved { .. } => Ok(()),
        refusal => Err(refusals::advance(ctx, refusal, into, onto)),
    })
}
