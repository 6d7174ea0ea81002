//! The event log: `.loop-worktrees/events.jsonl`, one JSON object a line,
//! for every mutation (create, mark with old and new status, remove, skip
//! with its code, drop, orphan-remove, reuse).
//!
//! Lines are only ever appended, under the manifest mutex; the file is never
//! rewritten. A line that does not parse (say, cut short by a crash) is
//! reported and skipped by `git loop log`, never "repaired". A failure to
//! append is reported on stderr but does not undo the mutation it describes:
//! the manifest stays the source of truth.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::Error;

pub const EVENTS_FILE: &str = "events.jsonl";

/// What an event records. Written from this enum; read back as the string
/// it was written as (a log written by a newer version may hold kinds this
/// one does not know, and `git loop log` still shows them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    Create,
    /// With the old and new status.
    Mark,
    /// A worktree removed (by cleanup), with a note when git-loop finished an
    /// interrupted removal.
    Remove,
    /// A worktree left alone, with its code.
    Skip,
    /// An entry whose directory was gone, dropped by reconcile.
    Drop,
    OrphanRemove,
    /// `create --reuse` handed an active run back.
    Reuse,
    /// `--delete-merged-branches` deleted a removed run's branch.
    BranchDelete,
    /// `reconcile --adopt` recorded an orphan as an active run.
    Adopt,
    /// A worktree saved to `refs/loop/salvage/<id>` before its removal.
    Salvage,
    /// A salvaged run brought back by `git loop restore`.
    Restore,
    /// A trash entry brought back by `git loop trash restore`.
    TrashRestore,
    /// A trash entry dropped (`git loop trash empty`, or older than
    /// `trash.keep` at a cleanup).
    TrashExpire,
}

impl EventKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Create => "create",
            EventKind::Mark => "mark",
            EventKind::Remove => "remove",
            EventKind::Skip => "skip",
            EventKind::Drop => "drop",
            EventKind::OrphanRemove => "orphan-remove",
            EventKind::Reuse => "reuse",
            EventKind::BranchDelete => "branch-delete",
            EventKind::Adopt => "adopt",
            EventKind::Salvage => "salvage",
            EventKind::Restore => "restore",
            EventKind::TrashRestore => "trash-restore",
            EventKind::TrashExpire => "trash-expire",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    /// ISO-8601 UTC.
    pub at: String,
    /// An [`EventKind`]'s name.
    pub event: String,
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

impl Event {
    pub fn new(kind: EventKind, id: &str) -> Event {
        Event {
            at: crate::time::now().to_string(),
            event: kind.as_str().to_owned(),
            id: id.to_owned(),
            from: None,
            to: None,
            code: None,
            detail: None,
        }
    }
}

pub fn path(loop_dir: &Path) -> PathBuf {
    loop_dir.join(EVENTS_FILE)
}

/// The log is read whole; a larger file is refused unread.
const READ_CAP: u64 = 256 << 20;

/// Append `events` (callers hold the manifest mutex). Returns the error
/// text on failure, for the caller to report. The file is opened with
/// `O_NOFOLLOW`: a symlink (or anything but a regular file) is refused at the
/// open itself, never written through.
pub fn append(loop_dir: &Path, events: &[Event]) -> Result<(), String> {
    if events.is_empty() {
        return Ok(());
    }
    let path = path(loop_dir);
    let mut text = String::new();
    for e in events {
        text.push_str(&serde_json::to_string(e).expect("event serializes"));
        text.push('\n');
    }
    let mut file = crate::fsx::open_regular(&path, OpenOptions::new().create(true).append(true))
        .map_err(|e| match e {
            Error::UnsafePath { reason, .. } => {
                format!("{} is not written: {reason}", path.display())
            }
            e => e.to_string(),
        })?
        .ok_or_else(|| format!("could not create {}", path.display()))?;
    file.write_all(text.as_bytes())
        .map_err(|e| format!("could not append to {}: {e}", path.display()))
}

/// Read the log: the events, and the line numbers of malformed lines. A
/// symlink or non-regular file is refused, naming it, never read through.
pub fn read(loop_dir: &Path) -> crate::error::Result<(Vec<Event>, Vec<usize>)> {
    let text = match crate::fsx::read_regular(&path(loop_dir), READ_CAP)? {
        Some(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        None => String::new(),
    };
    let mut events = Vec::new();
    let mut bad = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Event>(line) {
            Ok(e) => events.push(e),
            Err(_) => bad.push(i + 1),
        }
    }
    Ok((events, bad))
}
