//! The trash: every tip a destroying step would let become unreachable is
//! kept first under `refs/loop/trash/`, one ref per kept tip, for
//! `trash.keep` (default 30 days). Refs cost nothing and keep the objects
//! alive through `git gc`; no copy of any file is made.
//!
//! # The ref name is the record
//!
//! `refs/loop/trash/<stamp>/<reason>/<original>`:
//! - `<stamp>`: when it was kept, UTC, `YYYYMMDDTHHMMSSZ` (with `.2`, `.3`, …
//!   when the same original was kept twice in one second);
//! - `<reason>`: why the original went, one code (see [`Reason`]);
//! - `<original>`: what it was, without `refs/`: `heads/loop/x` for a deleted
//!   branch, `loop/salvage/x` for a replaced salvage, `runs/<id>/HEAD` for a
//!   removed worktree's HEAD and `runs/<id>/<ref>` for its per-worktree refs
//!   (`refs/worktree/*`, `refs/bisect/*`).
//!
//! Nothing else is stored: the ref points straight at the kept object, so
//! `git log refs/loop/trash/…` shows the work, and no side file can drift
//! from the refs. The event log has a `trash` event for each kept tip.
//!
//! # Names
//!
//! An entry's NAME (what `git loop trash` lists and `trash restore` takes)
//! is the ref name below `refs/loop/trash/`. `trash restore` also takes a
//! branch's name (`loop/x`): its newest entry.
//!
//! Entries older than `trash.keep` are dropped by later cleanups (logged
//! `trash-expire`); `git loop trash empty` drops them on demand.

use gix::refs::FullName;
use jiff::Timestamp;

use crate::error::{Error, Result};
use crate::git::refs::Edit;

pub const PREFIX: &str = "refs/loop/trash/";

fn repo_err(e: impl std::fmt::Display) -> Error {
    Error::Repository(e.to_string())
}

crate::vocab::vocabulary! {
    /// Why a tip went to the trash: the `<reason>` of its ref's name.
    pub enum Reason {
        /// A branch deleted as merged into its base (ancestor).
        MergedAncestor = "merged-ancestor",
        /// A branch deleted as merged into its base (the tree merge changes nothing).
        MergedSquash = "merged-squash",
        /// Proven by the tree merge, and the patch ids agree.
        MergedRebase = "merged-rebase",
        /// A branch with no commits of its own, contained in its base.
        Empty = "empty",
        /// A ref of a worktree that was removed (its HEAD, `refs/worktree/*`,
        /// `refs/bisect/*`).
        WorktreeRemoved = "worktree-removed",
        /// A salvage replaced by a newer salvage of the same run.
        SalvageReplaced = "salvage-replaced",
        /// A salvage dropped by `git loop restore --drop`.
        SalvageDropped = "salvage-dropped",
        /// A run's branch moved by `git loop sync` (its tip before).
        Sync = "sync",
        /// The snapshot of a run handed off (`git loop handoff`), kept as a
        /// salvage of the run.
        HandedOff = "handed-off",
    }
}

impl Reason {
    pub fn of_merge(by: Option<crate::git::merged::MergedBy>) -> Reason {
        use crate::git::merged::MergedBy;
        match by {
            Some(MergedBy::Ancestor) => Reason::MergedAncestor,
            Some(MergedBy::Squash) => Reason::MergedSquash,
            Some(MergedBy::Rebase) => Reason::MergedRebase,
            None => Reason::Empty,
        }
    }
}

/// What a kept tip was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A branch (`refs/heads/…`): `trash restore` recreates it.
    Branch,
    /// A removed worktree's HEAD.
    Head,
    /// A removed worktree's own ref (`refs/worktree/*`, `refs/bisect/*`).
    Ref,
    /// A replaced or dropped salvage (`refs/loop/salvage/<id>`).
    Salvage,
}

/// One entry of the trash.
#[derive(Debug, Clone, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    /// The entry's name: its ref below `refs/loop/trash/`.
    pub name: String,
    /// The full ref name.
    #[serde(rename = "ref")]
    pub refname: String,
    pub kind: Kind,
    /// The ref it was (`refs/heads/loop/x`; for a worktree's refs, the
    /// run's id and the ref as the worktree named it: `HEAD`,
    /// `refs/worktree/experiment`).
    pub original: String,
    /// The run it belonged to, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<String>,
    /// The kept object.
    pub tip: String,
    /// When it was kept (ISO-8601 UTC).
    pub trashed_at: String,
    #[serde(skip)]
    pub trashed: Timestamp,
    /// Why: `merged-ancestor`, `merged-squash`, `merged-rebase`, `empty`,
    /// `worktree-removed`, `salvage-replaced`, `salvage-dropped`, `sync`,
    /// `handed-off`.
    pub reason: String,
}

/// What is to be kept: the original ref name (see the module doc), its tip.
#[derive(Debug, Clone)]
pub struct Keep {
    /// Below `refs/`: `heads/loop/x`, `loop/salvage/x`, `runs/x/HEAD`, …
    pub original: String,
    pub tip: gix::ObjectId,
    pub reason: Reason,
}

impl Keep {
    pub fn branch(branch: &str, tip: gix::ObjectId, reason: Reason) -> Keep {
        Keep {
            original: format!("heads/{branch}"),
            tip,
            reason,
        }
    }

    /// A removed worktree's ref: `HEAD` or a full name (`refs/worktree/x`).
    pub fn worktree_ref(id: &str, name: &str, tip: gix::ObjectId) -> Keep {
        let rest = name.strip_prefix("refs/").unwrap_or(name);
        Keep {
            original: format!("runs/{id}/{rest}"),
            tip,
            reason: Reason::WorktreeRemoved,
        }
    }

    pub fn salvage(id: &str, tip: gix::ObjectId) -> Keep {
        Keep {
            original: format!("loop/salvage/{id}"),
            tip,
            reason: Reason::SalvageReplaced,
        }
    }

    /// A hand-off's snapshot: kept as a salvage of the run (`trash
    /// restore` brings it back as `refs/loop/salvage/<id>`, for `restore`).
    pub fn handed_off(id: &str, snapshot: gix::ObjectId) -> Keep {
        Keep {
            original: format!("loop/salvage/{id}"),
            tip: snapshot,
            reason: Reason::HandedOff,
        }
    }
}

/// Drop the salvage `refs/loop/salvage/<id>` at `tip` (`restore --drop`):
/// kept in the trash first (`salvage-dropped`, see [`keep`]), then deleted
/// by a compare-and-swap on that very tip, so a salvage written meanwhile
/// stays. Returns the trash entry's full ref. The caller holds the
/// worktree-operation lock and the run's lock.
pub fn drop_salvage(repo: &gix::Repository, id: &str, tip: gix::ObjectId) -> Result<String> {
    let kept = keep(
        repo,
        &Keep {
            reason: Reason::SalvageDropped,
            ..Keep::salvage(id, tip)
        },
    )?;
    let name = format!("refs/loop/salvage/{id}");
    let delete = Edit::Delete {
        name: name.clone(),
        old: tip,
    };
    crate::git::refs::apply(repo, "git-loop: restore --drop", false, &[delete]).map_err(|e| {
        Error::RefWrite(format!(
            "{name} was not deleted (it is kept in the trash as {kept} all the same): {e}"
        ))
    })?;
    Ok(kept)
}

fn stamp(at: Timestamp) -> String {
    at.strftime("%Y%m%dT%H%M%SZ").to_string()
}

fn parse_stamp(text: &str) -> Option<Timestamp> {
    let base = text.split_once('.').map_or(text, |(b, _)| b);
    let dt = jiff::civil::DateTime::strptime("%Y%m%dT%H%M%SZ", base).ok()?;
    dt.to_zoned(jiff::tz::TimeZone::UTC)
        .ok()
        .map(|z| z.timestamp())
}

/// Keep `what` in the trash; returns the new ref's full name. Never
/// overwrites an entry: a name taken by another tip gets the next `.N`. A
/// name already holding this very tip is shared: two deleters of one
/// branch in one second keep one entry, which is why a failed delete never
/// drops it. Written through the ref layer ([`crate::git::refs`]), so a
/// `reference-transaction` hook runs (and may refuse it: then nothing is
/// deleted).
pub fn keep(repo: &gix::Repository, what: &Keep) -> Result<String> {
    let at = crate::time::now();
    let stamp = stamp(at);
    for n in 1..1000 {
        let stamp = match n {
            1 => stamp.clone(),
            n => format!("{stamp}.{n}"),
        };
        let name = format!("{PREFIX}{stamp}/{}/{}", what.reason.as_str(), what.original);
        FullName::try_from(name.as_str()).map_err(repo_err)?;
        let create = Edit::Create {
            name: name.clone(),
            new: what.tip,
        };
        let message = format!("git-loop: trash ({})", what.reason.as_str());
        match crate::git::refs::apply(repo, &message, false, &[create]) {
            Ok(()) => return Ok(name),
            Err(e) => match crate::git::refs::find(repo, &name).ok().flatten() {
                None => {
                    return Err(Error::RefWrite(format!(
                        "could not keep {} in the trash as {name}: {e}",
                        what.original
                    )));
                }
                // This very tip already: shared (see above).
                Some(r) if r.id() == Some(what.tip) => return Ok(name),
                Some(_) => {}
            },
        }
    }
    Err(Error::RefWrite(format!(
        "could not keep {} in the trash: too many entries in one second",
        what.original
    )))
}

/// The entry named by the ref `full` pointing at `tip`, if it has the
/// shape this module writes.
fn parse(full: &str, tip: gix::ObjectId) -> Option<Entry> {
    let name = full.strip_prefix(PREFIX)?;
    let mut parts = name.splitn(3, '/');
    let stamp_text = parts.next()?;
    let reason = parts.next()?;
    let original = parts.next()?;
    let trashed = parse_stamp(stamp_text)?;
    let (kind, original_ref, run) = if let Some(branch) = original.strip_prefix("heads/") {
        let run = crate::runid::of_branch(branch).map(str::to_owned);
        (Kind::Branch, format!("refs/{original}"), run)
    } else if let Some(id) = original.strip_prefix("loop/salvage/") {
        (
            Kind::Salvage,
            format!("refs/{original}"),
            Some(id.to_owned()),
        )
    } else if let Some(rest) = original.strip_prefix("runs/") {
        let (id, r) = rest.split_once('/')?;
        if r == "HEAD" {
            (Kind::Head, "HEAD".to_owned(), Some(id.to_owned()))
        } else {
            (Kind::Ref, format!("refs/{r}"), Some(id.to_owned()))
        }
    } else {
        return None;
    };
    Some(Entry {
        name: name.to_owned(),
        refname: full.to_owned(),
        kind,
        original: original_ref,
        run,
        tip: tip.to_string(),
        trashed_at: trashed.to_string(),
        trashed,
        reason: reason.to_owned(),
    })
}

/// Every entry, oldest first. Refs below the prefix of another shape are
/// not git-loop's entries and are left out (and never deleted).
pub fn list(repo: &gix::Repository) -> Result<Vec<Entry>> {
    let mut out = Vec::new();
    for (full, value) in crate::git::refs::prefixed(repo, PREFIX)? {
        let Some(id) = value.id() else {
            continue;
        };
        let Ok(full) = gix::bstr::ByteSlice::to_str(full.as_slice()) else {
            continue;
        };
        if let Some(e) = parse(full, id) {
            out.push(e);
        }
    }
    out.sort_by(|a, b| a.trashed.cmp(&b.trashed).then(a.name.cmp(&b.name)));
    Ok(out)
}

/// The entry `name` names: an entry's name, its full ref, or a branch's
/// short name (`loop/x`: the newest entry of `refs/heads/loop/x`).
pub fn find<'a>(entries: &'a [Entry], name: &str) -> Option<&'a Entry> {
    if let Some(e) = entries.iter().find(|e| e.name == name || e.refname == name) {
        return Some(e);
    }
    let branch = format!(
        "refs/heads/{}",
        name.strip_prefix("refs/heads/").unwrap_or(name)
    );
    entries
        .iter()
        .rev()
        .find(|e| e.kind == Kind::Branch && e.original == branch)
}

/// Drop `entry` (compare-and-swap on its tip: an entry changed meanwhile is
/// left alone and reported).
pub fn drop_entry(repo: &gix::Repository, entry: &Entry) -> Result<()> {
    drop_all(repo, std::slice::from_ref(entry))
}

/// Drop every one of `entries` in one ref transaction, each a
/// compare-and-swap on its tip: all go, or (an entry changed meanwhile, a
/// ref git cannot lock) none does and the caller drops them one by one.
pub fn drop_all(repo: &gix::Repository, entries: &[Entry]) -> Result<()> {
    let mut edits = Vec::with_capacity(entries.len());
    for entry in entries {
        let tip = gix::ObjectId::from_hex(entry.tip.as_bytes()).map_err(repo_err)?;
        edits.push(Edit::Delete {
            name: entry.refname.clone(),
            old: tip,
        });
    }
    crate::git::refs::apply(repo, "git-loop: trash drop", false, &edits).map_err(|e| {
        let what = match entries {
            [one] => one.refname.clone(),
            many => format!("{} trash entries", many.len()),
        };
        Error::RefWrite(format!("could not drop {what}: {e}"))
    })
}

/// The entries kept before `now − keep`.
pub fn older_than(entries: &[Entry], now: Timestamp, keep: jiff::SignedDuration) -> Vec<&Entry> {
    let cutoff = crate::time::cutoff_instant(now, keep);
    entries.iter().filter(|e| e.trashed < cutoff).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        let id = gix::ObjectId::from_hex(b"0123456789012345678901234567890123456789").unwrap();
        let e = parse(
            "refs/loop/trash/20261201T124500Z/merged-squash/heads/loop/x",
            id,
        )
        .unwrap();
        assert_eq!(e.kind, Kind::Branch);
        assert_eq!(e.original, "refs/heads/loop/x");
        assert_eq!(e.run.as_deref(), Some("x"));
        assert_eq!(e.trashed_at, "2026-12-01T12:45:00Z");
        let e = parse(
            "refs/loop/trash/20261201T124500Z.2/worktree-removed/runs/x/worktree/exp",
            id,
        )
        .unwrap();
        assert_eq!(e.kind, Kind::Ref);
        assert_eq!(e.original, "refs/worktree/exp");
        let e = parse(
            "refs/loop/trash/20261201T124500Z/worktree-removed/runs/x/HEAD",
            id,
        )
        .unwrap();
        assert_eq!(e.kind, Kind::Head);
        assert!(parse("refs/loop/trash/garbage", id).is_none());
        assert!(parse("refs/loop/trash/notastamp/x/heads/a", id).is_none());
    }
}
