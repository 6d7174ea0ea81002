//! `git loop list --fleet`: every machine's published runs, read from the
//! remote's `refs/loop/fleet/*` alone.
//!
//! One `ls-remote` of the namespace (its pattern matched by git: the remote
//! advertises every ref, see docs/fleet.md's "How it grows"), then one
//! fetch of the record commits
//! this repository does not have yet, by id: no ref and no `FETCH_HEAD` is
//! written here, only objects (records already fetched are not fetched
//! again). When the remote refuses that fetch (a ref pointing at an
//! object it does not have), each is fetched alone and the missing ones
//! are skipped. Each record is then checked ([`super::record`]): a bad
//! one is reported with its [`super::FleetCode`] and skipped.

use serde::Serialize;

use super::record::{self, Record};
use super::{FLEET_REFS, FleetCode};
use crate::ctx::Ctx;
use crate::error::Result;

/// A record on the remote that was skipped, and why.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Skipped {
    /// The ref on the remote (escaped when shown).
    #[serde(rename = "ref")]
    pub name: String,
    pub code: FleetCode,
    pub reason: String,
}

/// One published run.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FleetRun {
    /// Published by this machine.
    pub mine: bool,
    #[serde(flatten)]
    pub record: Record,
    /// The record's commit (the ref's value on the remote), for a
    /// compare-and-swap of it (`land --fleet`); not printed.
    #[serde(skip)]
    #[schemars(skip)]
    pub commit: String,
}

/// What `list --fleet` found.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FleetOutcome {
    pub remote: String,
    /// This machine's name.
    pub machine: String,
    /// By machine, then id.
    pub runs: Vec<FleetRun>,
    pub skipped: Vec<Skipped>,
}

/// Every machine's published runs.
pub fn survey(ctx: &Ctx) -> Result<FleetOutcome> {
    let fleet = super::identity(ctx)?;
    let refs = super::remote_refs(ctx, &fleet.remote, &[&format!("{FLEET_REFS}*")], None)?;
    let mut skipped = Vec::new();
    let mut named = Vec::new();
    for (name, id) in refs.iter().filter(|(n, _)| n.starts_with(FLEET_REFS)) {
        match record::parse_name(name) {
            Ok((machine, run)) => named.push((name, machine, run, id)),
            Err(bad) => skipped.push(skip(name, bad)),
        }
    }
    let ids: Vec<&str> = named.iter().map(|(_, _, _, id)| id.as_str()).collect();
    let missing = super::fetch_missing(ctx, &fleet.remote, &ids, None)?;
    let mut runs = Vec::new();
    for (name, machine, run, id) in named {
        if missing.contains(id.as_str()) {
            skipped.push(skip(
                name,
                record::Bad {
                    code: FleetCode::MissingObject,
                    reason: format!("{id} could not be fetched from the remote"),
                },
            ));
            continue;
        }
        let read = super::read_fetched(ctx, &fleet.remote, id, || {
            record::read_record(ctx, &machine, &run, id)
        })?;
        match read {
            Ok(record) => runs.push(FleetRun {
                mine: machine == fleet.name,
                record,
                commit: id.clone(),
            }),
            Err(bad) => skipped.push(skip(name, bad)),
        }
    }
    Ok(FleetOutcome {
        remote: fleet.remote,
        machine: fleet.name,
        runs,
        skipped,
    })
}

fn skip(name: &str, bad: record::Bad) -> Skipped {
    Skipped {
        name: name.to_owned(),
        code: bad.code,
        reason: bad.reason,
    }
}
