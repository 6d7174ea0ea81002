//! The fleet: every machine's runs, seen and claimed through the git
//! remote the repository already has, with no coordinator of git-loop's
//! own (docs/fleet.md is the design).
//!
//! - **Identity** ([`identity`]): this machine's name (`fleet.name`, else
//!   the host name) and the remote (`fleet.remote`, else the base branch's
//!   upstream remote, else `origin`).
//! - **Records** ([`record`]): each published run is a ref
//!   `refs/loop/fleet/<machine>/<id>` on the remote, a commit whose tree
//!   holds `record.json` and whose parent is the run's tip, so the tip
//!   travels with it.
//! - **Publish** ([`publish`]), **see** ([`see`]), **claim** ([`claim`]):
//!   every remote ref changes by the remote's own compare-and-swap (`git
//!   push --atomic --force-with-lease=<ref>:<expected>`), never forced.
//!
//! Nothing read from the remote ever runs: a record is data, its names
//! validated as run ids and branch names, its size capped, its text
//! escaped when shown; a bad one is reported (a [`FleetCode`]) and skipped.

pub mod claim;
pub mod handoff;
pub mod landed;
pub mod publish;
pub mod record;
pub mod see;
pub mod take;

use std::time::Duration;

use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::git::error::CommandError;

/// The remote's namespace of published runs: `<FLEET_REFS><machine>/<id>`.
pub const FLEET_REFS: &str = "refs/loop/fleet/";
/// The remote's namespace of task leases: `<CLAIM_REFS><task>`.
pub const CLAIM_REFS: &str = "refs/loop/claims/";
/// This machine's marks of runs handed off: `<HANDOFF_REFS><id>`, local
/// (see [`handoff`]).
pub const HANDOFF_REFS: &str = "refs/loop/handoff/";
/// The largest record or lease read from the remote; a larger one is
/// skipped unread (`too-large`).
pub const MAX_RECORD_BYTES: u64 = 64 << 10;

crate::vocab::vocabulary! {
    /// Why a record (or lease) on the remote was skipped: `list --fleet`'s
    /// `skipped[].code`, and `publish`'s `kept[].code` for a run's branch it
    /// did not push.
    pub enum FleetCode {
        /// The ref's name is not `<machine>/<id>`, each a valid run id.
        BadName = "bad-name",
        /// The ref points at an object the remote does not have.
        MissingObject = "missing-object",
        /// The record is larger than 64 KiB: not read.
        TooLarge = "too-large",
        /// Not a commit holding a `record.json` this version reads.
        Malformed = "malformed",
        /// The record names another machine, run or branch than its ref,
        /// or a tip that is not its commit's parent.
        Mismatch = "mismatch",
        /// `publish`: the run's branch on the remote is at a commit this
        /// machine did not publish and its tip does not contain: not
        /// overwritten (another machine's run of the same id?).
        BranchDiverged = "branch-diverged",
    }
}

/// This machine in the fleet: its name and the remote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fleet {
    pub name: String,
    pub remote: String,
}

/// This machine's name and the fleet's remote, from the settings.
pub fn identity(ctx: &Ctx) -> Result<Fleet> {
    let settings = ctx.settings()?;
    let name = match &settings.fleet_name.value {
        Some(name) => name.clone(),
        None => host_name(),
    };
    let remote = match &settings.fleet_remote.value {
        Some(remote) => remote.clone(),
        None => upstream_remote(ctx, &settings.base.value).unwrap_or_else(|| "origin".to_owned()),
    };
    Ok(Fleet { name, remote })
}

/// The host name as a run id: each byte a run id may not hold becomes
/// `-`; `unnamed` when nothing is left (read from the kernel, else
/// `/etc/hostname`, else `$HOSTNAME`).
pub fn host_name() -> String {
    let read = |p: &str| std::fs::read_to_string(p).ok();
    let raw = read("/proc/sys/kernel/hostname")
        .or_else(|| read("/etc/hostname"))
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_default();
    machine_name(&raw)
}

/// `raw` (a host name) as a machine name: see [`host_name`].
fn machine_name(raw: &str) -> String {
    let name: String = raw
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '-'
            }
        })
        .collect();
    let name = name.trim_matches(['.', '-']).to_owned();
    if crate::runid::problem(&name).is_none() {
        name
    } else {
        "unnamed".to_owned()
    }
}

/// The remote `base`'s upstream is on, when it is a local branch with one.
fn upstream_remote(ctx: &Ctx, base: &str) -> Option<String> {
    let full = format!("refs/heads/{base}");
    let name: &gix::refs::FullNameRef = full.as_str().try_into().ok()?;
    let remote = ctx
        .repo
        .gix()
        .branch_remote_name(name.shorten(), gix::remote::Direction::Fetch)?;
    let remote = remote.as_bstr().to_string();
    (remote != ".").then_some(remote)
}

/// A failed call to the remote, as the error that names it.
pub(crate) fn unreachable(remote: &str, failure: &CommandError) -> Error {
    Error::Remote {
        remote: remote.to_owned(),
        reason: failure.reason(),
    }
}

/// The remote's refs under `patterns` (git's tail match), by name; with
/// a `timeout`, a remote that does not answer within it fails.
pub(crate) fn remote_refs(
    ctx: &Ctx,
    remote: &str,
    patterns: &[&str],
    timeout: Option<Duration>,
) -> Result<std::collections::BTreeMap<String, String>> {
    match crate::git::plumbing::ls_remote(ctx.repo.root(), remote, patterns, timeout)? {
        Ok(refs) => Ok(refs.into_iter().collect()),
        Err(failure) => Err(unreachable(remote, &failure)),
    }
}

/// `read` of the object `id` (fetched already); while it says the object
/// is missing, fetched again and read again, a few times: another process
/// of this repository fetching it at this moment may have written it in
/// part (a commit before its tree).
pub(crate) fn read_fetched<T>(
    ctx: &Ctx,
    remote: &str,
    id: &str,
    mut read: impl FnMut() -> Result<std::result::Result<T, record::Bad>>,
) -> Result<std::result::Result<T, record::Bad>> {
    let mut got = read()?;
    for _ in 0..5 {
        match &got {
            Err(bad) if bad.code == FleetCode::MissingObject => {
                std::thread::sleep(Duration::from_millis(50));
                crate::git::plumbing::fetch_objects(ctx.repo.root(), remote, &[id], None)?.ok();
                got = read()?;
            }
            _ => break,
        }
    }
    Ok(got)
}

/// How many ids one fetch asks for.
const FETCH_BATCH: usize = 1000;

/// Fetch the objects of `ids` this repository does not have: one fetch
/// (a batch of [`FETCH_BATCH`]), and when the remote refuses it (one of
/// them missing there), one fetch each. The ids that could not be had.
pub(crate) fn fetch_missing(
    ctx: &Ctx,
    remote: &str,
    ids: &[&str],
    timeout: Option<Duration>,
) -> Result<std::collections::BTreeSet<String>> {
    let gix = ctx.repo.gix();
    let absent: Vec<&str> = ids
        .iter()
        .copied()
        .filter(|id| {
            gix::ObjectId::from_hex(id.as_bytes()).map_or(true, |oid| !gix.has_object(oid))
        })
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let mut failed = std::collections::BTreeSet::new();
    if absent.is_empty() {
        return Ok(failed);
    }
    let root = ctx.repo.root();
    // In batches, so that a command line never outgrows the system's limit
    // (100,000 ids would be 4 MB of arguments).
    for batch in absent.chunks(FETCH_BATCH) {
        if crate::git::plumbing::fetch_objects(root, remote, batch, timeout)?.is_ok() {
            continue;
        }
        for id in batch {
            if crate::git::plumbing::fetch_objects(root, remote, &[id], timeout)?.is_err() {
                failed.insert((*id).to_owned());
            }
        }
    }
    Ok(failed)
}

#[cfg(test)]
mod tests;
