//! `git loop publish [<ID>…]`: each run's branch and its record pushed to
//! the fleet's remote, every ref by the remote's compare-and-swap, in one
//! atomic push; removed runs unpublished; this machine's leases renewed.
//!
//! What it pushes, each against what `ls-remote` just showed (the value
//! "last seen"; absent: it must not exist):
//! - `refs/loop/fleet/<name>/<id>`: the run's new record (a commit whose
//!   parent is its tip), for every run of the manifest whose worktree is
//!   there; a record of this machine's whose run is not (removed, or its
//!   worktree gone) is deleted;
//! - `refs/heads/loop/<id>`: the run's tip, only when the remote's branch is
//!   absent, at the tip this machine's record there names (it published
//!   it), or an ancestor of the tip (a fast-forward). Any other value is
//!   another machine's work: not overwritten (`branch-diverged`, the record
//!   still published, the tip with it). No other `refs/heads/*` is named;
//!   an unpublished run's branch stays on the remote;
//! - `refs/loop/claims/<task>` held by this machine: renewed (its time now).
//!
//! All or nothing (`--atomic`): a ref that moved since `ls-remote` refuses
//! the whole push (`fleet-moved`), an unreachable remote fails before
//! anything is written (`remote-failed`); local state is never changed by
//! publishing, and the next publish catches up.

use std::collections::{BTreeMap, HashMap};

use gix::ObjectId;
use serde::Serialize;

use super::record::{self, Record, RecordActivity, RecordJudge};
use super::{CLAIM_REFS, FLEET_REFS, Fleet, FleetCode};
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::git::plumbing::{self, Lease, LeasedPush};
use crate::output::Notes;

/// A run published.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Published {
    pub id: String,
    /// The record's commit (`refs/loop/fleet/<machine>/<id>` on the remote).
    pub record: String,
    /// The run's tip; none when its branch is gone.
    pub tip: Option<String>,
    /// Whether `loop/<id>` was pushed (false: already there, or kept).
    pub branch_pushed: bool,
}

/// A run's branch not pushed, and why.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Kept {
    pub id: String,
    pub code: FleetCode,
    pub reason: String,
}

/// What a publish did.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublishOutcome {
    pub remote: String,
    pub machine: String,
    pub published: Vec<Published>,
    /// Runs whose record was deleted (no longer in the manifest, or their
    /// worktree gone).
    pub unpublished: Vec<String>,
    pub kept: Vec<Kept>,
    /// Tasks whose lease (held by this machine) was renewed.
    pub renewed: Vec<String>,
}

/// The runs to publish, the named ones (every one when none is named);
/// with a `timeout`, each call to the remote is cut off after it (a
/// publish that must not hold up local work: `fleet.publish`).
pub struct PublishRequest<'a> {
    pub ids: &'a [String],
    pub timeout: Option<std::time::Duration>,
    /// The run `git loop handoff` publishes: handed off, but not marked
    /// `stale` by this publish (the next one does).
    pub handing_off: Option<&'a str>,
}

/// Publish the runs asked for.
pub fn publish(
    ctx: &Ctx,
    request: &PublishRequest<'_>,
    notes: &mut Notes<'_>,
) -> Result<PublishOutcome> {
    let fleet = super::identity(ctx)?;
    let mine = format!("{FLEET_REFS}{}/", fleet.name);
    let patterns = [
        format!("{mine}*"),
        "refs/heads/loop/*".to_owned(),
        format!("{CLAIM_REFS}*"),
    ];
    let patterns: Vec<&str> = patterns.iter().map(String::as_str).collect();
    let remote = super::remote_refs(ctx, &fleet.remote, &patterns, request.timeout)?;
    let mut plan = Plan {
        leases: Vec::new(),
        outcome: PublishOutcome {
            remote: fleet.remote.clone(),
            machine: fleet.name.clone(),
            published: Vec::new(),
            unpublished: Vec::new(),
            kept: Vec::new(),
            renewed: Vec::new(),
        },
    };
    let named = |id: &str| request.ids.is_empty() || request.ids.iter().any(|n| n == id);
    mark_handed_off(ctx, request, &named, notes)?;
    let landings = super::landed::read(ctx, &fleet, &remote, request.timeout)?;
    super::landed::mark_merged(ctx, &landings, &named, notes)?;
    let listing = crate::ops::list::gather(ctx, None, None, false, notes)?;
    let judged = judgements(ctx)?;
    let mut live = std::collections::HashSet::new();
    for run in listing
        .runs
        .iter()
        .filter(|r| r.present && named(&r.entry.id))
    {
        live.insert(run.entry.id.to_string());
        let mut record = record_of(ctx, &fleet, run, judged.get(run.entry.id.as_str()))?;
        // A landing stays in the record while the run is at the tip that
        // landed.
        record.landed = landings
            .get(run.entry.id.as_str())
            .filter(|l| record.tip.as_deref() == Some(l.tip.as_str()))
            .cloned();
        plan.add_run(ctx, &remote, &mine, record)?;
    }
    for (name, id) in remote.iter().filter(|(n, _)| n.starts_with(&mine)) {
        let run = &name[mine.len()..];
        if !live.contains(run) && named(run) {
            plan.leases.push(Lease {
                dst: name.clone(),
                new: None,
                expected: Some(id.clone()),
            });
            plan.outcome.unpublished.push(run.to_owned());
        }
    }
    plan.renew(ctx, &fleet, &remote, request.timeout)?;
    push(ctx, &fleet.remote, &plan.leases, request.timeout)?;
    Ok(plan.outcome)
}

/// The runs handed off (`refs/loop/handoff/<id>` here) and still
/// `active`, but the one being handed off now: marked `stale`, as the
/// machine that took them works on them now (their worktrees kept by the
/// usual rules). Once: a run whose status was set (a `mark` event) since
/// its latest `handoff` event is left as it is (marked `active` again by
/// hand, say).
fn mark_handed_off(
    ctx: &Ctx,
    request: &PublishRequest<'_>,
    named: &dyn Fn(&str) -> bool,
    notes: &mut Notes<'_>,
) -> Result<()> {
    if !ctx.loop_dir_exists()? {
        return Ok(());
    }
    let manifest = ctx.read_manifest()?;
    let gix = ctx.repo.gix();
    let ids: Vec<crate::runid::RunId> = manifest
        .worktrees
        .iter()
        .filter(|e| e.status == crate::manifest::Status::Active && named(&e.id))
        .filter(|e| request.handing_off != Some(e.id.as_str()))
        .filter(|e| {
            let name = format!("{}{}", super::HANDOFF_REFS, e.id);
            matches!(crate::git::refs::find(gix, &name), Ok(Some(_)))
        })
        .map(|e| e.id.clone())
        .collect();
    if ids.is_empty() {
        return Ok(());
    }
    let (events, _) = crate::events::read(&ctx.loop_dir())?;
    let mut pending: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for e in &events {
        match e.event {
            crate::events::EventKind::Handoff => pending.insert(e.id.as_str()),
            crate::events::EventKind::Mark => pending.remove(e.id.as_str()),
            _ => false,
        };
    }
    let ids: Vec<crate::runid::RunId> = ids
        .into_iter()
        .filter(|id| pending.contains(id.as_str()))
        .collect();
    if !ids.is_empty() {
        crate::ops::mark::set_statuses(ctx, &ids, crate::manifest::Status::Stale, notes)?;
    }
    Ok(())
}

/// The refs to push, and the outcome they make.
struct Plan {
    leases: Vec<Lease>,
    outcome: PublishOutcome,
}

impl Plan {
    /// A run's record, and its branch when it may be pushed.
    fn add_run(
        &mut self,
        ctx: &Ctx,
        remote: &BTreeMap<String, String>,
        mine: &str,
        record: Record,
    ) -> Result<()> {
        let commit = record::write_record(ctx, &record)?;
        let dst = format!("{mine}{}", record.id);
        let ours = remote.get(&dst);
        self.leases.push(Lease {
            dst,
            new: Some(commit.to_string()),
            expected: ours.cloned(),
        });
        let branch = format!("refs/heads/{}", record.branch);
        let mut pushed = false;
        if let Some(tip) = &record.tip {
            match branch_expected(ctx, remote.get(&branch), ours, tip) {
                Ok(None) => {}
                Ok(Some(expected)) => {
                    self.leases.push(Lease {
                        dst: branch,
                        new: Some(tip.clone()),
                        expected,
                    });
                    pushed = true;
                }
                Err(reason) => self.outcome.kept.push(Kept {
                    id: record.id.clone(),
                    code: FleetCode::BranchDiverged,
                    reason,
                }),
            }
        }
        self.outcome.published.push(Published {
            id: record.id,
            record: commit.to_string(),
            tip: record.tip,
            branch_pushed: pushed,
        });
        Ok(())
    }

    /// This machine's leases, renewed (their time now), each against the
    /// value just seen.
    fn renew(
        &mut self,
        ctx: &Ctx,
        fleet: &Fleet,
        remote: &BTreeMap<String, String>,
        timeout: Option<std::time::Duration>,
    ) -> Result<()> {
        let claims: Vec<(&String, &String)> = remote
            .iter()
            .filter(|(n, _)| n.starts_with(CLAIM_REFS))
            .collect();
        let ids: Vec<&str> = claims.iter().map(|(_, id)| id.as_str()).collect();
        super::fetch_missing(ctx, &fleet.remote, &ids, timeout)?;
        for (name, id) in claims {
            let task = &name[CLAIM_REFS.len()..];
            let Ok(mut lease) = record::read_lease(ctx, task, id)? else {
                continue;
            };
            if lease.machine != fleet.name {
                continue;
            }
            lease.at = crate::time::now().to_string();
            lease.nonce = record::nonce();
            let commit = record::write_lease(ctx, &lease)?;
            self.leases.push(Lease {
                dst: name.clone(),
                new: Some(commit.to_string()),
                expected: Some(id.clone()),
            });
            self.outcome.renewed.push(task.to_owned());
        }
        Ok(())
    }
}

/// What the remote's `loop/<id>` must be for this push to move it to
/// `tip`: `Ok(None)` when it is there already; `Ok(Some(expected))` when it
/// is absent (`None`), at the tip this machine's record there names, or an
/// ancestor of `tip`; `Err` why not otherwise.
fn branch_expected(
    ctx: &Ctx,
    there: Option<&String>,
    ours: Option<&String>,
    tip: &str,
) -> std::result::Result<Option<Option<String>>, String> {
    let Some(there) = there else {
        return Ok(Some(None));
    };
    if there == tip {
        return Ok(None);
    }
    let published = ours.and_then(|r| first_parent(ctx, r));
    if published.as_deref() == Some(there.as_str()) || fast_forward(ctx, there, tip) {
        return Ok(Some(Some(there.clone())));
    }
    Err(format!(
        "the remote's branch is at {there}, which this machine did not publish and {tip} does not contain: not overwritten"
    ))
}

/// The first parent of commit `id`, when this repository has it.
fn first_parent(ctx: &Ctx, id: &str) -> Option<String> {
    let oid = ObjectId::from_hex(id.as_bytes()).ok()?;
    let commit = ctx.repo.gix().find_commit(oid).ok()?;
    commit.parent_ids().next().map(|p| p.to_string())
}

/// Whether `old` is an ancestor of `tip` (both here).
fn fast_forward(ctx: &Ctx, old: &str, tip: &str) -> bool {
    let (Ok(old), Ok(tip)) = (
        ObjectId::from_hex(old.as_bytes()),
        ObjectId::from_hex(tip.as_bytes()),
    ) else {
        return false;
    };
    ctx.repo.gix().has_object(old)
        && crate::git::merge::merge_base(ctx.repo.gix(), old, tip)
            .ok()
            .flatten()
            == Some(old)
}

/// The record of `run`, as this machine sees it now.
fn record_of(
    ctx: &Ctx,
    fleet: &Fleet,
    run: &crate::ops::list::Run,
    judged: Option<&crate::events::Judgement>,
) -> Result<Record> {
    let entry = &run.entry;
    let branch = format!("{}/{}", crate::runid::BRANCH_PREFIX, entry.id);
    let tip = ctx.repo.branch_target(&branch)?;
    let base = ctx.repo.resolve_commit(&entry.base_branch);
    let (ahead, behind) = match (tip, base) {
        (Some(tip), Some(base)) => {
            let (a, b) = ctx.repo.ahead_behind(tip, base)?;
            (Some(a), Some(b))
        }
        _ => (None, None),
    };
    Ok(Record {
        version: record::VERSION,
        machine: fleet.name.clone(),
        id: entry.id.to_string(),
        branch,
        base_branch: entry.base_branch.clone(),
        pattern: entry.pattern.clone(),
        status: entry.status,
        created_at: entry.created_at.0.to_string(),
        published_at: crate::time::now().to_string(),
        tip: tip.map(|t| t.to_string()),
        ahead,
        behind,
        activity: run.activity.as_ref().map(|a| RecordActivity {
            activity: a.activity,
            at: a.at.clone(),
            note: a.note.clone(),
        }),
        judge: judged.map(|j| RecordJudge {
            passed: j.passed,
            exit_code: j.exit_code,
            head: j.head.clone(),
        }),
        handoff: handed_off(ctx, &entry.id)?,
        landed: None,
    })
}

/// The hand-off of run `id` (`refs/loop/handoff/<id>` here), if any: the
/// snapshot and when it was taken (the ref's commit's time).
fn handed_off(ctx: &Ctx, id: &str) -> Result<Option<record::Handoff>> {
    let gix = ctx.repo.gix();
    let Ok(Some(value)) = crate::git::refs::find(gix, &format!("{}{id}", super::HANDOFF_REFS))
    else {
        return Ok(None);
    };
    let Some(snapshot) = value.id() else {
        return Ok(None);
    };
    let at = gix
        .find_commit(snapshot)
        .ok()
        .and_then(|c| c.time().ok())
        .and_then(|t| jiff::Timestamp::from_second(t.seconds).ok())
        .unwrap_or_else(crate::time::now);
    Ok(Some(record::Handoff {
        snapshot: snapshot.to_string(),
        at: at.to_string(),
    }))
}

/// Each run's latest judgement, from the event log.
fn judgements(ctx: &Ctx) -> Result<HashMap<String, crate::events::Judgement>> {
    let mut found = HashMap::new();
    if !ctx.loop_dir_exists()? {
        return Ok(found);
    }
    let (events, _) = crate::events::read(&ctx.loop_dir())?;
    for j in events
        .iter()
        .filter_map(crate::events::Judgement::from_event)
    {
        found.insert(j.id.clone(), j);
    }
    Ok(found)
}

/// The one atomic push of every lease.
fn push(
    ctx: &Ctx,
    remote: &str,
    leases: &[Lease],
    timeout: Option<std::time::Duration>,
) -> Result<()> {
    if leases.is_empty() {
        return Ok(());
    }
    match plumbing::push_leased(ctx.repo.root(), remote, leases, timeout)? {
        LeasedPush::Done => Ok(()),
        LeasedPush::Stale { reason, .. } => Err(Error::FleetMoved {
            remote: remote.to_owned(),
            reason,
        }),
        LeasedPush::Failed { reason } => Err(Error::Remote {
            remote: remote.to_owned(),
            reason,
        }),
    }
}
