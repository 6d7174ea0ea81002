//! A run of this machine landed by another (`git loop land --queue --fleet
//! --push`, which writes `landed` into the run's record on the remote):
//! marked `merged` here at the next publish, when its branch is still at
//! the tip that landed; a branch that moved since is left as it is, and
//! said (what landed is in the target; the commits since are not).

use std::collections::{BTreeMap, HashMap};

use super::record::{self, RecordLanded};
use super::{FLEET_REFS, Fleet};
use crate::ctx::Ctx;
use crate::error::Result;
use crate::manifest::{Entry, Status};
use crate::ops::mark::Needs;
use crate::output::Notes;

/// The landings the remote's records of this machine name (`remote`: the
/// refs `ls-remote` showed), by run id; a record that cannot be read is
/// left out (the publish replaces it).
pub(super) fn read(
    ctx: &Ctx,
    fleet: &Fleet,
    remote: &BTreeMap<String, String>,
    timeout: Option<std::time::Duration>,
) -> Result<HashMap<String, RecordLanded>> {
    let mine = format!("{FLEET_REFS}{}/", fleet.name);
    let records: Vec<(&str, &String)> = remote
        .iter()
        .filter_map(|(n, id)| n.strip_prefix(&mine).map(|run| (run, id)))
        .collect();
    let ids: Vec<&str> = records.iter().map(|(_, id)| id.as_str()).collect();
    let missing = super::fetch_missing(ctx, &fleet.remote, &ids, timeout)?;
    let mut found = HashMap::new();
    for (run, id) in records {
        if missing.contains(id.as_str()) || crate::runid::problem(run).is_some() {
            continue;
        }
        if let Ok(record::Record {
            landed: Some(landed),
            ..
        }) = record::read_record(ctx, &fleet.name, run, id)?
        {
            found.insert(run.to_owned(), landed);
        }
    }
    Ok(found)
}

/// Each run of `landings` (named by the publish) not `merged` here yet:
/// marked `merged` when its branch is at the tip that landed (by
/// compare-and-swap of its status); else left as it is, and said.
pub(super) fn mark_merged(
    ctx: &Ctx,
    landings: &HashMap<String, RecordLanded>,
    named: &dyn Fn(&str) -> bool,
    notes: &mut Notes<'_>,
) -> Result<()> {
    if landings.is_empty() || !ctx.loop_dir_exists()? {
        return Ok(());
    }
    let manifest = ctx.read_manifest()?;
    let mut merged: Vec<&Entry> = Vec::new();
    for entry in manifest
        .worktrees
        .iter()
        .filter(|e| e.status != Status::Merged && named(&e.id))
    {
        let Some(landed) = landings.get(entry.id.as_str()) else {
            continue;
        };
        let tip = ctx.repo.branch_target(&entry.branch())?;
        if tip.map(|t| t.to_string()).as_deref() == Some(landed.tip.as_str()) {
            merged.push(entry);
        } else {
            notes.note(format_args!(
                "{} landed in {} by {} at {}, but its branch moved since: not marked merged",
                entry.id,
                crate::style::escape(&landed.into),
                landed.by,
                &landed.tip[..landed.tip.len().min(12)],
            ));
        }
    }
    let changes: Vec<(&Entry, Status)> = merged.into_iter().map(|e| (e, Status::Merged)).collect();
    crate::ops::mark::set_statuses_from(ctx, &changes, Needs::Nothing, notes)?;
    Ok(())
}

/// How many times [`say_landed`] reads a record that moved and writes it
/// again.
const SAY_TRIES: usize = 3;

/// `record` (the remote's `refs/loop/fleet/<machine>/<id>`, at `commit`)
/// written again with `landed` (in `into` at `target`, by this machine,
/// now), on the same parents, pushed by compare-and-swap against `commit`.
/// When its machine published it again meanwhile, read again and written
/// again while it is at the same tip; `Err` why it could not be (its run
/// moved on, the remote refused), nothing else changed.
pub fn say_landed(
    ctx: &Ctx,
    record: &record::Record,
    commit: &str,
    (into, target): (&str, &str),
) -> Result<std::result::Result<(), String>> {
    let fleet = super::identity(ctx)?;
    let name = format!("{FLEET_REFS}{}/{}", record.machine, record.id);
    let Some(tip) = record.tip.clone() else {
        return Ok(Err("its record names no tip".to_owned()));
    };
    let landed = RecordLanded {
        into: into.to_owned(),
        commit: target.to_owned(),
        tip: tip.clone(),
        by: fleet.name.clone(),
        at: crate::time::now().to_string(),
    };
    let (mut record, mut commit) = (record.clone(), commit.to_owned());
    for _ in 0..SAY_TRIES {
        record.landed = Some(landed.clone());
        let new = record::write_record(ctx, &record)?;
        let lease = crate::git::plumbing::Lease {
            dst: name.clone(),
            new: Some(new.to_string()),
            expected: Some(commit.clone()),
        };
        let root = ctx.repo.root();
        match crate::git::plumbing::push_leased(root, &fleet.remote, &[lease], None)? {
            crate::git::plumbing::LeasedPush::Done => return Ok(Ok(())),
            crate::git::plumbing::LeasedPush::Failed { reason } => return Ok(Err(reason)),
            crate::git::plumbing::LeasedPush::Stale { .. } => {}
        }
        match reread(ctx, &fleet, &record, &name)? {
            Ok((again, at)) if again.tip.as_deref() == Some(tip.as_str()) => {
                (record, commit) = (again, at);
            }
            Ok(_) => return Ok(Err(format!("{name} moved on to another tip"))),
            Err(why) => return Ok(Err(why)),
        }
    }
    Ok(Err(format!("{name} moved under every write ({SAY_TRIES})")))
}

/// The record at `name` on the remote now, and its commit.
fn reread(
    ctx: &Ctx,
    fleet: &Fleet,
    old: &record::Record,
    name: &str,
) -> Result<std::result::Result<(record::Record, String), String>> {
    let refs = super::remote_refs(ctx, &fleet.remote, &[name], None)?;
    let Some(id) = refs.get(name) else {
        return Ok(Err(format!("{name} is gone (unpublished)")));
    };
    super::fetch_missing(ctx, &fleet.remote, &[id.as_str()], None)?;
    Ok(match record::read_record(ctx, &old.machine, &old.id, id)? {
        Ok(record) => Ok((record, id.clone())),
        Err(bad) => Err(format!("{name}: {} ({})", bad.reason, bad.code.as_str())),
    })
}
