//! `git loop claim <TASK> [--release]`: a lease on a task name, a ref
//! `refs/loop/claims/<task>` on the fleet's remote, taken by the remote's
//! compare-and-swap: exactly one machine's push creates it.
//!
//! - Absent: a lease commit (`lease.json`: the task, this machine, now) is
//!   pushed with `--force-with-lease=<ref>:` (it must not exist). Another
//!   machine that got there first refuses it: `claimed`, naming the holder.
//! - Present and younger than `fleet.lease`: refused, `claimed` (this
//!   machine's own too: two processes of one machine do not both start a
//!   task; `publish` renews this machine's leases).
//! - Present and older (not renewed): taken over by compare-and-swap
//!   against the old lease; one machine wins that race too.
//! - An unreadable lease is never taken over: refused, `claimed`, naming
//!   why it cannot be read.
//!
//! `--release` deletes this machine's lease by compare-and-swap; another
//! machine's is refused (`claimed`); an absent one is released already.

use jiff::Timestamp;
use serde::Serialize;

use super::CLAIM_REFS;
use super::record::{self, Lease};
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::git::plumbing::{self, LeasedPush};

/// What a claim did.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClaimOutcome {
    pub task: String,
    pub remote: String,
    pub machine: String,
    /// `claimed`, `taken-over` (an expired lease), `released`, or
    /// `not-claimed` (`--release` of a task no one held).
    pub action: String,
    /// The lease's commit on the remote (none once released).
    pub lease: Option<String>,
    /// With `taken-over`: the machine whose lease expired.
    pub previous: Option<String>,
}

/// `claim` (or with `release`, `claim --release`) of `task`.
pub fn claim(ctx: &Ctx, task: &str, release: bool) -> Result<ClaimOutcome> {
    let fleet = super::identity(ctx)?;
    let name = format!("{CLAIM_REFS}{task}");
    let refs = super::remote_refs(ctx, &fleet.remote, &[&name], None)?;
    let current = refs.get(&name).cloned();
    let mut outcome = ClaimOutcome {
        task: task.to_owned(),
        remote: fleet.remote.clone(),
        machine: fleet.name.clone(),
        action: String::new(),
        lease: None,
        previous: None,
    };
    let held = match &current {
        Some(id) => Some(holder(ctx, &fleet.remote, task, id)?),
        None => None,
    };
    if release {
        return release_lease(ctx, outcome, &name, current, held);
    }
    let now = crate::time::now();
    if let Some(held) = &held {
        let lease = ctx.settings()?.fleet_lease.value;
        match held {
            Ok(l) if expired(l, now, lease) => {
                outcome.previous = Some(l.machine.clone());
            }
            _ => return Err(claimed(task, held, now)),
        }
    }
    let lease = Lease {
        version: record::VERSION,
        task: task.to_owned(),
        machine: fleet.name.clone(),
        at: now.to_string(),
        nonce: record::nonce(),
    };
    let commit = record::write_lease(ctx, &lease)?.to_string();
    let lost = push(ctx, &fleet.remote, &name, Some(&commit), current.as_deref())?;
    if lost {
        return Err(refused_now(ctx, &fleet.remote, &name, task, now));
    }
    outcome.action = if outcome.previous.is_some() {
        "taken-over".to_owned()
    } else {
        "claimed".to_owned()
    };
    outcome.lease = Some(commit);
    Ok(outcome)
}

/// `create <task> --from <machine>`: the task's lease on `remote`, when
/// there is one, taken over from `from` (or renewed, when this machine
/// holds it already) by compare-and-swap against it; the new lease's
/// commit. Held by a third machine and live, or unreadable: refused
/// (`claimed`), as a claim is.
pub fn take_over(ctx: &Ctx, remote: &str, task: &str, from: &str) -> Result<Option<String>> {
    let fleet = super::identity(ctx)?;
    let name = format!("{CLAIM_REFS}{task}");
    let refs = super::remote_refs(ctx, remote, &[&name], None)?;
    let Some(current) = refs.get(&name).cloned() else {
        return Ok(None);
    };
    let now = crate::time::now();
    let held = holder(ctx, remote, task, &current)?;
    let lease = ctx.settings()?.fleet_lease.value;
    match &held {
        Ok(l) if l.machine == from || l.machine == fleet.name || expired(l, now, lease) => {}
        _ => return Err(claimed(task, &held, now)),
    }
    let lease = Lease {
        version: record::VERSION,
        task: task.to_owned(),
        machine: fleet.name.clone(),
        at: now.to_string(),
        nonce: record::nonce(),
    };
    let commit = record::write_lease(ctx, &lease)?.to_string();
    if push(ctx, remote, &name, Some(&commit), Some(&current))? {
        return Err(refused_now(ctx, remote, &name, task, now));
    }
    Ok(Some(commit))
}

/// `--release`: this machine's lease deleted by compare-and-swap.
fn release_lease(
    ctx: &Ctx,
    mut outcome: ClaimOutcome,
    name: &str,
    current: Option<String>,
    held: Option<std::result::Result<Lease, String>>,
) -> Result<ClaimOutcome> {
    let now = crate::time::now();
    match (&current, &held) {
        (None, _) | (_, None) => {
            outcome.action = "not-claimed".to_owned();
            Ok(outcome)
        }
        (Some(id), Some(Ok(l))) if l.machine == outcome.machine => {
            if push(ctx, &outcome.remote, name, None, Some(id))? {
                return Err(refused_now(ctx, &outcome.remote, name, &outcome.task, now));
            }
            outcome.action = "released".to_owned();
            Ok(outcome)
        }
        (_, Some(held)) => Err(claimed(&outcome.task, held, now)),
    }
}

/// The lease at `id`, fetched when this repository lacks it; `Err` with
/// why it cannot be read.
fn holder(
    ctx: &Ctx,
    remote: &str,
    task: &str,
    id: &str,
) -> Result<std::result::Result<Lease, String>> {
    super::fetch_missing(ctx, remote, &[id], None)?;
    let read = super::read_fetched(ctx, remote, id, || record::read_lease(ctx, task, id))?;
    Ok(read.map_err(|bad| format!("{} ({})", bad.reason, bad.code)))
}

fn expired(lease: &Lease, now: Timestamp, keep: jiff::SignedDuration) -> bool {
    lease
        .at
        .parse::<Timestamp>()
        .is_ok_and(|at| at < crate::time::cutoff_instant(now, keep))
}

/// The refusal naming the holder and the lease's age.
fn claimed(task: &str, held: &std::result::Result<Lease, String>, now: Timestamp) -> Error {
    let (holder, age) = match held {
        Ok(l) => (
            crate::style::escape(&l.machine).into_owned(),
            l.at.parse::<Timestamp>()
                .map_or_else(|_| "-".to_owned(), |at| crate::time::age(now, at)),
        ),
        Err(why) => (format!("an unreadable lease: {why}"), "-".to_owned()),
    };
    Error::Claimed {
        task: task.to_owned(),
        holder,
        age,
    }
}

/// After a lost compare-and-swap: the refusal naming whoever holds it now.
fn refused_now(ctx: &Ctx, remote: &str, name: &str, task: &str, now: Timestamp) -> Error {
    let held = super::remote_refs(ctx, remote, &[name], None)
        .ok()
        .and_then(|refs| refs.get(name).cloned())
        .and_then(|id| holder(ctx, remote, task, &id).ok());
    match held {
        Some(held) => claimed(task, &held, now),
        None => claimed(task, &Err("it changed meanwhile".to_owned()), now),
    }
}

/// One leased push of the claim's ref; `true` when another machine's
/// change won the compare-and-swap.
fn push(
    ctx: &Ctx,
    remote: &str,
    name: &str,
    new: Option<&str>,
    expected: Option<&str>,
) -> Result<bool> {
    let lease = plumbing::Lease {
        dst: name.to_owned(),
        new: new.map(str::to_owned),
        expected: expected.map(str::to_owned),
    };
    match plumbing::push_leased(ctx.repo.root(), remote, &[lease], None)? {
        LeasedPush::Done => Ok(false),
        LeasedPush::Stale { .. } => Ok(true),
        LeasedPush::Failed { reason } => Err(Error::Remote {
            remote: remote.to_owned(),
            reason,
        }),
    }
}
