//! The record of a published run (`record.json` in the tree of
//! `refs/loop/fleet/<machine>/<id>` on the remote) and the lease of a
//! claimed task (`lease.json` in `refs/loop/claims/<task>`): their format,
//! how each is written, and how one from the remote is read — as data
//! only, every name checked and the size capped before it is read.

use gix::ObjectId;
use serde::{Deserialize, Serialize};

use super::{FleetCode, MAX_RECORD_BYTES};
use crate::ctx::Ctx;
use crate::error::Result;
use crate::git::record::{self as objects, Read};
use crate::manifest::Status;

/// The record's file in its commit's tree.
pub const RECORD_FILE: &str = "record.json";
/// The lease's file in its commit's tree.
pub const LEASE_FILE: &str = "lease.json";
/// The format written; a reader takes this one (unknown fields ignored,
/// so a later version may add some).
pub const VERSION: u32 = 1;

/// A published run, as `record.json` holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    pub version: u32,
    /// The machine that published it (`fleet.name`).
    pub machine: String,
    /// The run's id; its branch is `loop/<id>`.
    pub id: String,
    pub branch: String,
    pub base_branch: String,
    pub pattern: String,
    pub status: Status,
    pub created_at: String,
    /// When it was published.
    pub published_at: String,
    /// The run's tip (its branch's commit), also the record commit's
    /// parent; none when its branch is gone.
    pub tip: Option<String>,
    /// Commits of its own over its base, and of the base it lacks, as the
    /// publishing machine saw its base.
    pub ahead: Option<usize>,
    pub behind: Option<usize>,
    /// Its latest `git loop activity`, if any.
    pub activity: Option<RecordActivity>,
    /// Its latest `git loop judge` result, if any.
    pub judge: Option<RecordJudge>,
    /// The hand-off (`git loop handoff`), if the run was handed off: the
    /// snapshot commit of its uncommitted work (the record commit's second
    /// parent) and when it was taken.
    #[serde(default)]
    pub handoff: Option<Handoff>,
    /// The landing of this tip by `git loop land --queue --fleet --push`
    /// (on any machine), written into the record by the landing machine;
    /// the run's own machine marks it `merged` at its next publish.
    #[serde(default)]
    pub landed: Option<RecordLanded>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecordActivity {
    pub activity: crate::events::Activity,
    pub at: String,
    pub note: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecordJudge {
    pub passed: bool,
    pub exit_code: Option<i32>,
    /// The commit judged.
    pub head: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Handoff {
    /// The snapshot commit (the run's tip, plus its uncommitted work).
    pub snapshot: String,
    pub at: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecordLanded {
    /// The branch it landed in, on the fleet's remote.
    pub into: String,
    /// The target's commit once it landed.
    pub commit: String,
    /// The run's tip that landed (the record's tip).
    pub tip: String,
    /// The machine that landed it.
    pub by: String,
    pub at: String,
}

/// A task's lease, as `lease.json` holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Lease {
    pub version: u32,
    pub task: String,
    /// The machine holding it.
    pub machine: String,
    /// When it was taken or last renewed.
    pub at: String,
    /// Unique to the process that wrote it, so that two leases written in
    /// one instant on one machine are two commits: a push of a commit the
    /// remote already has at the ref would be "up to date", a second win.
    #[serde(default)]
    pub nonce: String,
}

/// A value no other process writes: its pid and the instant, to the
/// nanosecond, of the system clock (not the test clock).
pub fn nonce() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{}-{nanos}", std::process::id())
}

/// The commit of `record`: `record.json` on the run's tip.
pub fn write_record(ctx: &Ctx, record: &Record) -> Result<ObjectId> {
    let bytes = serde_json::to_vec_pretty(record).expect("a record is JSON");
    // The tip, then a hand-off's snapshot: fetching the record brings both.
    let parents: Vec<ObjectId> = record
        .tip
        .as_deref()
        .into_iter()
        .chain(record.handoff.as_ref().map(|h| h.snapshot.as_str()))
        .filter_map(|t| ObjectId::from_hex(t.as_bytes()).ok())
        .collect();
    let message = format!("git-loop record {}/{}", record.machine, record.id);
    objects::write(&ctx.repo, RECORD_FILE, &bytes, &parents, &message)
}

/// The commit of `lease` (no parent).
pub fn write_lease(ctx: &Ctx, lease: &Lease) -> Result<ObjectId> {
    let bytes = serde_json::to_vec_pretty(lease).expect("a lease is JSON");
    let message = format!("git-loop lease {} by {}", lease.task, lease.machine);
    objects::write(&ctx.repo, LEASE_FILE, &bytes, &[], &message)
}

/// Why a record or lease read from the remote is not used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bad {
    pub code: FleetCode,
    pub reason: String,
}

fn bad(code: FleetCode, reason: impl Into<String>) -> Bad {
    Bad {
        code,
        reason: reason.into(),
    }
}

/// `<machine>/<id>` of a ref under `refs/loop/fleet/`, each a valid run
/// id.
pub fn parse_name(name: &str) -> std::result::Result<(String, String), Bad> {
    let rest = name.strip_prefix(super::FLEET_REFS).unwrap_or(name);
    let Some((machine, id)) = rest.split_once('/') else {
        return Err(bad(FleetCode::BadName, "not <machine>/<id>"));
    };
    for (what, part) in [("machine", machine), ("run id", id)] {
        if let Some(why) = crate::runid::problem(part) {
            return Err(bad(
                FleetCode::BadName,
                format!("invalid {what} {:?}: {why}", crate::style::escape(part)),
            ));
        }
    }
    Ok((machine.to_owned(), id.to_owned()))
}

/// The JSON file `file` of commit `id`, read if at most
/// [`MAX_RECORD_BYTES`], and the commit's parents.
fn read_json<T: serde::de::DeserializeOwned>(
    ctx: &Ctx,
    id: &str,
    file: &str,
) -> Result<std::result::Result<(T, Vec<ObjectId>), Bad>> {
    let Ok(oid) = ObjectId::from_hex(id.as_bytes()) else {
        return Ok(Err(bad(
            FleetCode::Malformed,
            format!("{id:?} is no object id"),
        )));
    };
    let (bytes, parents) = match objects::read(&ctx.repo, oid, file, MAX_RECORD_BYTES)? {
        Read::Found { bytes, parents } => (bytes, parents),
        Read::Missing => {
            return Ok(Err(bad(
                FleetCode::MissingObject,
                format!("{id} is not on the remote"),
            )));
        }
        Read::Malformed(why) => return Ok(Err(bad(FleetCode::Malformed, why))),
        Read::TooLarge(size) => {
            return Ok(Err(bad(
                FleetCode::TooLarge,
                format!("{file} is {size} bytes, more than {MAX_RECORD_BYTES}: not read"),
            )));
        }
    };
    Ok(match serde_json::from_slice::<T>(&bytes) {
        Ok(value) => Ok((value, parents)),
        Err(e) => Err(bad(FleetCode::Malformed, format!("{file}: {e}"))),
    })
}

/// The record at `id` (the object of ref `refs/loop/fleet/<machine>/<id>`),
/// checked against its ref's name: its machine, id and branch, and its
/// tip the commit's parent.
pub fn read_record(
    ctx: &Ctx,
    machine: &str,
    run: &str,
    id: &str,
) -> Result<std::result::Result<Record, Bad>> {
    let (record, parents) = match read_json::<Record>(ctx, id, RECORD_FILE)? {
        Ok(found) => found,
        Err(bad) => return Ok(Err(bad)),
    };
    Ok(check_record(record, &parents, machine, run))
}

fn check_record(
    record: Record,
    parents: &[ObjectId],
    machine: &str,
    run: &str,
) -> std::result::Result<Record, Bad> {
    if record.version != VERSION {
        return Err(bad(
            FleetCode::Malformed,
            format!("version {} (this git-loop reads {VERSION})", record.version),
        ));
    }
    let shown = |s: &str| crate::style::escape(s).into_owned();
    if record.machine != machine || record.id != run {
        return Err(bad(
            FleetCode::Mismatch,
            format!(
                "it names {:?}/{:?}, not its ref's {machine}/{run}",
                shown(&record.machine),
                shown(&record.id)
            ),
        ));
    }
    if record.branch != format!("{}/{run}", crate::runid::BRANCH_PREFIX) {
        return Err(bad(
            FleetCode::Mismatch,
            format!("its branch {:?} is not loop/{run}", shown(&record.branch)),
        ));
    }
    // Its parents are its tip and its hand-off's snapshot, each if any,
    // in that order, and nothing else.
    let named: Vec<&str> = record
        .tip
        .as_deref()
        .into_iter()
        .chain(record.handoff.as_ref().map(|h| h.snapshot.as_str()))
        .collect();
    let parents: Vec<String> = parents.iter().map(ObjectId::to_string).collect();
    if named != parents.iter().map(String::as_str).collect::<Vec<_>>()
        || (record.handoff.is_some() && record.tip.is_none())
    {
        return Err(bad(
            FleetCode::Mismatch,
            "its tip (and its hand-off's snapshot) are not its commit's parents",
        ));
    }
    if let Some(landed) = &record.landed {
        check_landed(landed, record.tip.as_deref())?;
    }
    for (what, at) in [
        ("createdAt", &record.created_at),
        ("publishedAt", &record.published_at),
    ] {
        if at.parse::<jiff::Timestamp>().is_err() {
            return Err(bad(
                FleetCode::Malformed,
                format!("{what} {:?} is no time", shown(at)),
            ));
        }
    }
    Ok(record)
}

/// A record's `landed`: its tip the record's, its commits object ids, its
/// machine a valid name, its target a branch name, its time a time.
fn check_landed(landed: &RecordLanded, tip: Option<&str>) -> std::result::Result<(), Bad> {
    let shown = |s: &str| crate::style::escape(s).into_owned();
    if tip != Some(landed.tip.as_str()) {
        return Err(bad(
            FleetCode::Mismatch,
            format!("it says {:?} landed, not its tip", shown(&landed.tip)),
        ));
    }
    let hex = |s: &str| ObjectId::from_hex(s.as_bytes()).is_ok();
    let branch = crate::git::refs::valid_branch_name(&landed.into);
    if !hex(&landed.commit)
        || crate::runid::problem(&landed.by).is_some()
        || !branch
        || landed.at.parse::<jiff::Timestamp>().is_err()
    {
        return Err(bad(
            FleetCode::Malformed,
            format!(
                "its landing ({:?} in {:?} by {:?} at {:?}) is not a commit, branch, machine and time",
                shown(&landed.commit),
                shown(&landed.into),
                shown(&landed.by),
                shown(&landed.at)
            ),
        ));
    }
    Ok(())
}

/// The lease at `id` (the object of `refs/loop/claims/<task>`).
pub fn read_lease(ctx: &Ctx, task: &str, id: &str) -> Result<std::result::Result<Lease, Bad>> {
    let (lease, _) = match read_json::<Lease>(ctx, id, LEASE_FILE)? {
        Ok(found) => found,
        Err(bad) => return Ok(Err(bad)),
    };
    if lease.task != task || crate::runid::problem(&lease.machine).is_some() {
        return Ok(Err(bad(
            FleetCode::Mismatch,
            "it names another task, or no valid machine",
        )));
    }
    if lease.at.parse::<jiff::Timestamp>().is_err() {
        return Ok(Err(bad(FleetCode::Malformed, "its time is no time")));
    }
    Ok(Ok(lease))
}
