//! `land --queue --fleet --push`: which of the other machines' published
//! runs land, and in which order (docs/fleet.md). Every record is read and
//! checked as `list --fleet` reads it (a bad one said and skipped); a run
//! lands when its record's status is in the queue's set, it names a tip,
//! and it does not say that tip landed already. This machine's own records
//! are left out: its runs land from the manifest, as ever. They come in
//! record order (by machine, then id), after this machine's: `conflicts`'
//! order needs each run's worktree and base here, which a record is not.

use gix::ObjectId;

use super::one::remote::RemoteRun;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::manifest::Status;
use crate::output::Notes;
use crate::runid::RunId;

/// The other machines' runs to land (`--fleet`: the queue's `statuses`;
/// none without it), in record order, saying what was taken, what was
/// skipped and why, and the order.
pub(super) fn runs(
    ctx: &Ctx,
    statuses: Option<&[Status]>,
    out: &mut Notes<'_>,
) -> Result<Vec<RemoteRun>> {
    let Some(statuses) = statuses else {
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
    let names: Vec<&str> = statuses.iter().map(|s| s.as_str()).collect();
    out.note(format_args!(
        "--fleet: {} run{} of other machines marked {} on {}, in record order (machine, then id: conflicts' order is not computed from records){}",
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
