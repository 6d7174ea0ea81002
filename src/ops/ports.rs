//! Ports that never collide: `create.ports = <N>` (or `create --ports <N>`)
//! leases N free TCP ports to a run, given to it as `GIT_LOOP_PORT` (the
//! first) and `GIT_LOOP_PORT_1`…`GIT_LOOP_PORT_<N>` (see
//! [`crate::configured_command::env_for`]).
//!
//! # The lease file
//!
//! `<git common dir>/git-loop/ports.json`: one file for the repository and
//! all its worktrees, in git's own directory — never under
//! `.loop-worktrees/`, where a checkout or a clone could bring a file of that
//! name along. Each lease names the run (its id and `createdAt`, the pair
//! that tells one run of an id from a later one), its ports, its worktree
//! (absolute) and when it was leased. It is read without a lock (it is only
//! ever replaced by a rename, so a reader sees a whole file) and written only
//! under the manifest mutex, atomically, by the manifest's own helper
//! ([`crate::manifest::replace_atomically`]).
//!
//! # Leasing
//!
//! Under the mutex, in the same hold as the manifest write that records the
//! run (so no other create can see a lease without its run, or a run without
//! its lease):
//! 1. leases are reclaimed whose run is no longer `active` in the manifest
//!    (a run marked otherwise, dropped, or never recorded: a create killed
//!    between this lease and its manifest write) or whose worktree directory
//!    is gone. That is how a `kill -9` mid-create never leaks a lease for
//!    good: the next create that leases reclaims it;
//! 2. N ports are picked that are leased to no live run and bindable right
//!    now on 127.0.0.1: the kernel chooses each (a listener bound to port 0,
//!    from its ephemeral range), so a port any listener holds — a foreign
//!    program's included — is never picked. Every listener stays open until
//!    all N are picked, so the kernel never hands the same port twice, and
//!    one it hands that is leased already is kept open (and skipped) too;
//! 3. the leases are written, and the listeners closed before the create
//!    returns: a port is free at lease time, and the run's program should
//!    bind it soon (nothing reserves a port that nobody listens on).
//!
//! A lease is released when the run's worktree is removed (`remove`,
//! `cleanup`, anything through [`crate::ops::reclaim`]), when its create is
//! undone, and otherwise reclaimed as in step 1. Ports are unique among the
//! live runs of one repository; two repositories lease independently (the
//! kernel's choice makes a clash between them unlikely, not impossible).

use std::collections::HashSet;
use std::net::{Ipv4Addr, TcpListener};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::lock::ManifestMutex;
use crate::manifest::{CreatedAt, Entry, Manifest, Status};

/// The lease file, relative to the git common dir.
pub const LEASE_FILE: [&str; 2] = ["git-loop", "ports.json"];
/// A lease file larger than this is not one git-loop wrote.
const LEASE_CAP: u64 = 16 << 20;
/// Ports the kernel may hand that are leased already, beyond the N wanted,
/// before leasing gives up.
const EXTRA_TRIES: usize = 4096;

/// The lease file's content.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Leases {
    version: u32,
    leases: Vec<Lease>,
}

/// One run's ports.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Lease {
    pub id: String,
    /// The run's `createdAt`: with the id, which run this is.
    pub created_at: CreatedAt,
    pub ports: Vec<u16>,
    /// The run's worktree, absolute.
    pub path: PathBuf,
    /// When the ports were leased.
    pub leased_at: CreatedAt,
}

impl Lease {
    fn of(&self, entry: &Entry) -> bool {
        self.id == entry.id.as_str() && self.created_at == entry.created_at
    }
}

fn lease_path(common_dir: &Path) -> PathBuf {
    common_dir.join(LEASE_FILE[0]).join(LEASE_FILE[1])
}

/// The leases as written; none when there is no file.
fn load(path: &Path) -> Result<Leases> {
    let Some(bytes) = crate::fsx::read_regular(path, LEASE_CAP)? else {
        return Ok(Leases::default());
    };
    serde_json::from_slice(&bytes).map_err(|e| Error::InvalidManifest {
        path: path.to_path_buf(),
        reason: format!("not a port lease file git-loop wrote: {e}"),
    })
}

fn store(path: &Path, leases: &Leases, mutex: &ManifestMutex) -> Result<()> {
    let dir = path.parent().expect("the lease file is in a directory");
    std::fs::create_dir_all(dir).map_err(|e| Error::io("could not create", dir, e))?;
    let mut text = serde_json::to_string_pretty(leases).expect("leases serialize");
    text.push('\n');
    crate::manifest::replace_atomically(path, text.as_bytes(), mutex, None)
}

/// The ports leased to the run `entry` (empty when it has none). Read
/// without a lock.
pub fn of(ctx: &Ctx, entry: &Entry) -> Result<Vec<u16>> {
    let leases = load(&lease_path(ctx.repo.common_dir()))?;
    Ok(leases
        .leases
        .into_iter()
        .find(|l| l.of(entry))
        .map(|l| l.ports)
        .unwrap_or_default())
}

/// Lease `n` ports to the run `entry`, about to be recorded at `path`, under
/// `mutex` (held by the caller, with `manifest` read under it): reclaim the
/// leases of runs that are not live, pick, write (see the module doc). With
/// `n == 0`, nothing is read or written.
pub fn lease(
    ctx: &Ctx,
    entry: &Entry,
    path: &Path,
    n: usize,
    manifest: &Manifest,
    mutex: &ManifestMutex,
) -> Result<Vec<u16>> {
    if n == 0 {
        return Ok(Vec::new());
    }
    let file = lease_path(ctx.repo.common_dir());
    let mut leases = load(&file)?;
    leases.version = 1;
    let live = |l: &Lease| {
        !l.id.is_empty()
            && l.id != entry.id.as_str()
            && manifest
                .find(&l.id)
                .is_some_and(|e| e.status == Status::Active && e.created_at == l.created_at)
            && l.path.symlink_metadata().is_ok()
    };
    leases.leases.retain(live);
    let taken: HashSet<u16> = leases.leases.iter().flat_map(|l| l.ports.clone()).collect();
    let ports = pick(n, &taken)?;
    leases.leases.push(Lease {
        id: entry.id.to_string(),
        created_at: entry.created_at,
        ports: ports.clone(),
        path: path.to_path_buf(),
        leased_at: CreatedAt(crate::time::now()),
    });
    store(&file, &leases, mutex)?;
    Ok(ports)
}

/// Drop the leases of the runs `gone` (matched by id and `createdAt`), under
/// `mutex`. Nothing is written when none of them has one.
pub fn release(ctx: &Ctx, gone: &[&Entry], mutex: &ManifestMutex) -> Result<()> {
    let file = lease_path(ctx.repo.common_dir());
    if gone.is_empty() || file.symlink_metadata().is_err() {
        return Ok(());
    }
    let mut leases = load(&file)?;
    let before = leases.leases.len();
    leases.leases.retain(|l| !gone.iter().any(|e| l.of(e)));
    if leases.leases.len() == before {
        return Ok(());
    }
    store(&file, &leases, mutex)
}

/// `n` distinct ports, none in `taken`, each bound on 127.0.0.1 by a
/// listener the kernel chose the port of; the listeners are closed when this
/// returns. In ascending order.
fn pick(n: usize, taken: &HashSet<u16>) -> Result<Vec<u16>> {
    let mut held = Vec::with_capacity(n);
    let mut ports = Vec::with_capacity(n);
    let probe = || -> std::io::Result<(TcpListener, u16)> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?;
        let port = listener.local_addr()?.port();
        Ok((listener, port))
    };
    while ports.len() < n {
        if held.len() >= n + EXTRA_TRIES {
            return Err(Error::io(
                "could not lease a port: every port the kernel offered is leased already, on",
                "127.0.0.1",
                std::io::Error::from(std::io::ErrorKind::AddrInUse),
            ));
        }
        let (listener, port) = probe()
            .map_err(|e| Error::io("could not bind a probe listener on", "127.0.0.1:0", e))?;
        if !taken.contains(&port) {
            ports.push(port);
        }
        held.push(listener);
    }
    drop(held);
    ports.sort_unstable();
    Ok(ports)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_distinct_bindable_ports_outside_the_taken_ones() {
        let first = pick(8, &HashSet::new()).unwrap();
        let taken: HashSet<u16> = first.iter().copied().collect();
        let second = pick(8, &taken).unwrap();
        let all: HashSet<u16> = first.iter().chain(&second).copied().collect();
        assert_eq!(all.len(), 16, "{first:?} {second:?}");
        for port in second {
            TcpListener::bind((Ipv4Addr::LOCALHOST, port)).unwrap();
        }
    }

    #[test]
    fn a_port_a_listener_holds_is_never_picked() {
        let held: Vec<TcpListener> = (0..64)
            .map(|_| TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap())
            .collect();
        let held_ports: HashSet<u16> = held
            .iter()
            .map(|l| l.local_addr().unwrap().port())
            .collect();
        let picked = pick(16, &HashSet::new()).unwrap();
        assert!(picked.iter().all(|p| !held_ports.contains(p)));
    }

    #[test]
    fn the_lease_file_round_trips() {
        let json = r#"{"version":1,"leases":[{"id":"a","createdAt":"2026-11-30T14:44:32Z","ports":[40001,40002],"path":"/r/.loop-worktrees/a","leasedAt":"2026-11-30T14:44:33Z"}]}"#;
        let leases: Leases = serde_json::from_str(json).unwrap();
        assert_eq!(leases.leases[0].ports, [40001, 40002]);
        let again: Leases = serde_json::from_str(&serde_json::to_string(&leases).unwrap()).unwrap();
        assert_eq!(again.leases[0].id, "a");
    }
}
