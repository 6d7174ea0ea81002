//! `land --queue --fleet --push`: which of the other machines' published
//! runs land, and in which order (docs/fleet.md). Every record is read and
//! checked as `list --fleet` reads it (a bad one said and skipped); a run
//! lands when its record's status is in the queue's set, it names a tip,
//! and it does not say that tip landed already. This machine's own records
//! are left out: its runs land from the manifest, as ever. They come after
//! this machine's, in `conflicts`' landing order computed from their
//! records' tips (each in `--into`, or its record's base); those whose
//! base does not resolve here come last, in record order (machine, id).

use gix::ObjectId;

use super::one::remote::RemoteRun;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::manifest::Status;
use crate::output::Notes;
use crate::runid::RunId;

/// The other machines' runs to land (`--fleet`: the queue's `statuses`;
/// none without it), in `conflicts`' order, saying what was taken, what
/// was skipped and why, and the order.
pub(super) fn runs(
    ctx: &Ctx,
    fleet: bool,
    (statuses, into): (Option<&[Status]>, Option<&str>),
    out: &mut Notes<'_>,
) -> Result<Vec<RemoteRun>> {
    let Some(statuses) = statuses.filter(|_| fleet) else {
        return Ok(Vec::new());
    };
    let survey = crate::ops::fleet::see::survey(ctx)?;
    for skipped in &survey.skipped {
        out.note(format_args!(
            "warning: {} skipped ({}): {}",
            crate::style::escape(&skipped.name),
            skipped.code.as_str(),
            crate::style::escape(&skipped.reason)
        ));
    }
    let mut taken = Vec::new();
    let mut landed_already = 0;
    for run in survey.runs.into_iter().filter(|r| !r.mine) {
        let record = run.record;
        if !statuses.contains(&record.status) {
            continue;
        }
        let tip = record.tip.as_deref();
        if record.landed.is_some() && record.landed.as_ref().map(|l| l.tip.as_str()) == tip {
            landed_already += 1;
            continue;
        }
        let (Some(tip), Ok(id)) = (
            tip.and_then(|t| ObjectId::from_hex(t.as_bytes()).ok()),
            RunId::parse(&record.id),
        ) else {
            continue;
        };
        taken.push(RemoteRun {
            id,
            tip,
            record,
            record_commit: run.commit,
        });
    }
    let taken = in_conflicts_order(ctx, into, taken, out)?;
    let names: Vec<&str> = statuses.iter().map(|s| s.as_str()).collect();
    out.note(format_args!(
        "--fleet: {} run{} of other machines marked {} on {}, in conflicts' order from their records' tips{}",
        taken.len(),
        if taken.len() == 1 { "" } else { "s" },
        names.join(","),
        survey.remote,
        if landed_already > 0 {
            format!("; {landed_already} landed already, waiting for their machine's publish")
        } else {
            String::new()
        }
    ));
    Ok(taken)
}

/// `runs` in `conflicts`' landing order, computed from their records'
/// tips, each landing in `into` or its record's base; those it cannot
/// check (a base that does not resolve here) last, in record order.
fn in_conflicts_order(
    ctx: &Ctx,
    into: Option<&str>,
    runs: Vec<RemoteRun>,
    out: &mut Notes<'_>,
) -> Result<Vec<RemoteRun>> {
    let tips: Vec<(String, String, ObjectId)> = runs
        .iter()
        .map(|r| (r.name(), r.record.base_branch.clone(), r.tip))
        .collect();
    let order = crate::ops::conflicts::order_tips(ctx, into, &tips, out)?;
    let mut runs: Vec<Option<RemoteRun>> = runs.into_iter().map(Some).collect();
    Ok(order
        .iter()
        .filter_map(|name| {
            let at = runs
                .iter()
                .position(|r| r.as_ref().is_some_and(|r| &r.name() == name))?;
            runs[at].take()
        })
        .collect())
}
