//! The event log: `.loop-worktrees/events.jsonl`, one JSON object a line,
//! for every mutation: one line per [`EventKind`] (a create, a mark with the
//! old and new status, a removal, a skip with its code, …).
//!
//! Lines are only ever appended, under the manifest mutex; the file is never
//! rewritten. A line that does not parse (say, cut short by a crash) is
//! reported and skipped by `git loop log`, never "repaired". A failure to
//! append is reported on stderr but does not undo the mutation it describes:
//! the manifest stays the source of truth.
//!
//! The fields are typed ([`EventKind`], [`State`], [`Code`]) and written as
//! the strings they always were. Each is read forward-compatibly: a log
//! written by a newer version may hold a kind, a status or a code this one
//! does not know, and `git loop log` still shows it, as it was written (an
//! `Other` value keeps the text). So a line is malformed only when it is not
//! the JSON object of an event, never for a word it uses.

use std::borrow::Cow;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::Error;
use crate::manifest::Status;
use crate::safety::skip::{SkipCode, SkippedEntry};

mod activity;
mod judge;
mod retired;
mod tail;
pub use activity::Activity;
pub use judge::{Judgement, latest_judgements};
pub use tail::{Latest, latest_activities};

pub const EVENTS_FILE: &str = "events.jsonl";

crate::vocab::vocabulary! {
    /// What an event records.
    pub enum EventKind {
        Create = "create",
        /// With the old and new status.
        Mark = "mark",
        /// A worktree removed (by cleanup), with a note when git-loop finished an
        /// interrupted removal.
        Remove = "remove",
        /// A worktree left alone, with its code.
        Skip = "skip",
        /// An entry whose directory was gone, dropped by reconcile.
        Drop = "drop",
        OrphanRemove = "orphan-remove",
        /// `create --reuse` handed an active run back.
        Reuse = "reuse",
        /// `--delete-merged-branches` deleted a removed run's branch.
        BranchDelete = "branch-delete",
        /// `reconcile --adopt` recorded an orphan as an active run.
        Adopt = "adopt",
        /// A worktree saved to `refs/loop/salvage/<id>` before its removal.
        Salvage = "salvage",
        /// A salvaged run brought back by `git loop restore`.
        Restore = "restore",
        /// A salvage dropped by `git loop restore --drop`: `from` its commit,
        /// `detail` the trash entry that keeps it.
        SalvageDrop = "salvage-drop",
        /// A trash entry brought back by `git loop trash restore`.
        TrashRestore = "trash-restore",
        /// A trash entry dropped (`git loop trash empty`, or older than
        /// `trash.keep` at a cleanup).
        TrashExpire = "trash-expire",
        /// `git loop land` moved a target branch (`from` the tip it was built
        /// on, `to` the landed commit), or refused a run (with its code).
        Land = "land",
        /// `git loop sync` moved a run's branch onto its base's tip: `from`
        /// its old tip, `to` the synced one, the base and the strategy in
        /// `detail`.
        Sync = "sync",
        /// What a run is doing, as its agent said (`git loop activity`, or
        /// `claude-hook activity`): the [`Activity`] in `to`, the note in
        /// `detail`.
        Activity = "activity",
        /// `git loop judge` judged an attempt: the commit judged in `to`, the
        /// [`Judgement`] as JSON in `detail`.
        Judge = "judge",
        /// `git loop handoff` published the run with its uncommitted work:
        /// the snapshot commit in `to`, the trash entry keeping it in
        /// `detail`.
        Handoff = "handoff",
        /// `--reap` terminated a process left working in a worktree being
        /// removed: its pid and command in `detail`.
        Reap = "reap",
    }
    other Other;
}

impl EventKind {
    /// The names of the known kinds, comma-separated (for the help).
    pub fn names() -> String {
        EventKind::ALL.map(|k| k.as_str().to_owned()).join(", ")
    }

    fn read(text: String) -> EventKind {
        EventKind::parse(&text)
    }
}

/// What an event's `from` and `to` hold: a run's status (`mark`: from the
/// old to the new), a commit (`salvage`: the commit the worktree was saved
/// to; `restore`: the commit it came back from), or an activity (`activity`:
/// in `to`). Read back by its text: a status name is a status, an activity's
/// name an activity, 40 or 64 lowercase hex digits a commit, anything else
/// (a status a newer version added, say) is kept as [`State::Other`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum State {
    Status(Status),
    Activity(Activity),
    /// A commit id, hex.
    Commit(String),
    /// Text this version does not read as either, as written.
    Other(String),
}

impl State {
    pub fn as_str(&self) -> &str {
        match self {
            State::Status(status) => status.as_str(),
            State::Activity(activity) => activity.as_str(),
            State::Commit(text) | State::Other(text) => text,
        }
    }

    fn read(text: String) -> State {
        let hex = |t: &str| {
            matches!(t.len(), 40 | 64) && t.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        };
        if let Some(activity) = Activity::parse(&text) {
            return State::Activity(activity);
        }
        match Status::parse(&text) {
            Some(status) => State::Status(status),
            None if hex(&text) => State::Commit(text),
            None => State::Other(text),
        }
    }
}

impl From<Status> for State {
    fn from(status: Status) -> State {
        State::Status(status)
    }
}

/// A `skip` event's code: a [`SkipCode`], or a code this version does not
/// know (written by a newer one), as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Code {
    Skip(SkipCode),
    Other(String),
}

impl Code {
    pub fn as_str(&self) -> &str {
        match self {
            Code::Skip(code) => code.as_str(),
            Code::Other(text) => text,
        }
    }

    fn read(text: String) -> Code {
        match SkipCode::parse(&text) {
            Some(code) => Code::Skip(code),
            None => Code::Other(text),
        }
    }
}

/// Each field type is written as its text, read back with its `read`
/// (which keeps any text), shown as its text (padded as a `str` is), and
/// described in the schema as a string: a newer version may write words
/// this one does not know.
macro_rules! text_field {
    ($($ty:ident),*) => {$(
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                String::deserialize(d).map($ty::read)
            }
        }

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.pad(self.as_str())
            }
        }

        impl JsonSchema for $ty {
            fn schema_name() -> Cow<'static, str> {
                stringify!($ty).into()
            }
            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                json_schema!({"type": "string"})
            }
        }
    )*};
}

text_field!(EventKind, State, Code);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    /// ISO-8601 UTC.
    pub at: String,
    /// What happened: the event's kind (`create`, `mark`, `land`, …; docs/cli.md's `log` lists them).
    pub event: EventKind,
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<State>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<State>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<Code>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

impl Event {
    pub fn new(kind: EventKind, id: &str) -> Event {
        Event {
            at: crate::time::now().to_string(),
            event: kind,
            id: id.to_owned(),
            from: None,
            to: None,
            code: None,
            detail: None,
        }
    }
}

// Written here rather than in `safety::skip`: the safety kernel knows
// nothing of the log (which depends on it for the codes).
impl SkippedEntry {
    /// The event-log line for this skip: git's reason without its advice
    /// to force (git-loop never forces; `--json` keeps git's whole text).
    pub fn event(&self) -> Event {
        let mut e = Event::new(EventKind::Skip, &self.id);
        e.code = Some(Code::Skip(self.code));
        e.detail = Some(crate::git::refusal::without_force_advice(&self.reason).to_owned());
        e
    }
}

pub fn path(loop_dir: &Path) -> PathBuf {
    loop_dir.join(EVENTS_FILE)
}

/// The log is read whole; a larger file is refused unread.
pub(crate) const READ_CAP: u64 = 256 << 20;

/// Append `events`, under the manifest mutex the caller shows it holds
/// (see [`crate::ctx::Transaction`], the one way a change logs). Returns the
/// error text on failure, for the caller to report. The file is opened with
/// `O_NOFOLLOW`: a symlink (or anything but a regular file) is refused at the
/// open itself, never written through.
pub fn append(
    loop_dir: &Path,
    events: &[Event],
    _held: &crate::lock::ManifestMutex,
) -> Result<(), String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_reads_back_as_itself_and_an_unknown_one_as_written() {
        for kind in EventKind::ALL {
            assert_eq!(EventKind::read(kind.as_str().to_owned()), kind);
        }
        assert_eq!(
            EventKind::read("port-lease".into()),
            EventKind::Other("port-lease".into())
        );
    }

    /// What a newer version may write reads, and is written back, as it was.
    #[test]
    fn a_line_from_a_newer_version_round_trips_byte_identical() {
        let lines = [
            r#"{"at":"2026-01-01T00:00:00Z","event":"mark","id":"a","from":"active","to":"merged"}"#,
            r#"{"at":"2026-01-01T00:00:00Z","event":"mark","id":"a","from":"active","to":"landed"}"#,
            r#"{"at":"2026-01-01T00:00:00Z","event":"skip","id":"a","code":"dirty","detail":"d"}"#,
            r#"{"at":"2026-01-01T00:00:00Z","event":"skip","id":"a","code":"merged"}"#,
            r#"{"at":"2026-01-01T00:00:00Z","event":"skip","id":"a","code":"new-code"}"#,
            r#"{"at":"2026-01-01T00:00:00Z","event":"future-kind","id":"a","from":"x","to":"y"}"#,
            r#"{"at":"2026-01-01T00:00:00Z","event":"salvage","id":"a","to":"0123456789abcdef0123456789abcdef01234567"}"#,
        ];
        for line in lines {
            let e: Event = serde_json::from_str(line).unwrap();
            assert_eq!(serde_json::to_string(&e).unwrap(), line);
        }
        let e: Event = serde_json::from_str(lines[1]).unwrap();
        assert_eq!(e.from, Some(State::Status(Status::Active)));
        assert_eq!(e.to, Some(State::Other("landed".into())));
        let e: Event = serde_json::from_str(lines[3]).unwrap();
        assert_eq!(e.code, Some(Code::Skip(SkipCode::Remarked(Status::Merged))));
        let e: Event = serde_json::from_str(lines[6]).unwrap();
        assert!(matches!(e.to, Some(State::Commit(_))));
        assert_eq!(format!("{:<8}|", EventKind::Skip), "skip    |");
    }
}
