//! The manifest: `.loop-worktrees/manifest.json`, shaped exactly
//! `{"version":1,"worktrees":[…]}`.
//!
//! Invariants:
//! - Parsing is strict: unknown or missing keys, a version other than 1, a status
//!   outside the five, a `createdAt` that is not ISO-8601 UTC with `Z`, duplicate
//!   ids, an invalid id, or a `path`/`branch` that differs from what the id
//!   derives are all refused. A manifest that fails validation is never
//!   rewritten: every mutating command parses before it writes, and stops on
//!   the first error, so a file git-loop does not understand is left
//!   byte-identical for a person to look at.
//! - Writes are atomic: a temp file in `.loop-worktrees/`, fsync, rename over
//!   `manifest.json`, fsync the directory. A reader sees the old file or the
//!   new one, never a partial one.
//! - `manifest.json` must be a regular file, not a symlink (which could point a
//!   write outside the repository); it is opened with `O_NOFOLLOW`.
//! - A write replaces the file only while the writer still holds the mutex
//!   (see [`ManifestFile::write`]).
//! - The common shape is read and written by hand, a window at a time
//!   ([`fast`]); serde reads anything else: the same bytes, the same refusals.

use std::collections::HashSet;

use jiff::Timestamp;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::runid::{self, RunId};

mod fast;
mod file;
mod timestamp;

pub use crate::runid::LOOP_DIR;
pub use file::{MANIFEST_FILE, ManifestFile, Points, Snapshot, replace_atomically};
pub use timestamp::{CreatedAt, parse_utc_fast};

crate::vocab::vocabulary! {
    /// What a run became: the contract's five statuses.
    pub enum Status {
        Active = "active",
        Rejected = "rejected",
        Escalated = "escalated",
        Merged = "merged",
        Stale = "stale",
    }
}

/// One run. `path` and `branch` are not stored: they are derived from the id
/// (`.loop-worktrees/<id>`, `loop/<id>`), checked against it when a manifest
/// is read, and written from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Validated when the entry is read: a manifest holding an invalid id is
    /// refused whole.
    pub id: RunId,
    pub base_branch: String,
    pub pattern: String,
    pub created_at: CreatedAt,
    pub status: Status,
}

/// `<prefix>/<id>`, written without building a string.
struct Derived<'a>(&'static str, &'a str);

impl Serialize for Derived<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(&format_args!("{}/{}", self.0, self.1))
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct EntryOut<'a> {
    id: &'a str,
    path: Derived<'a>,
    branch: Derived<'a>,
    base_branch: &'a str,
    pattern: &'a str,
    created_at: CreatedAt,
    status: Status,
}

impl Serialize for Entry {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        EntryOut {
            id: &self.id,
            path: Derived(LOOP_DIR, &self.id),
            branch: Derived(runid::BRANCH_PREFIX, &self.id),
            base_branch: &self.base_branch,
            pattern: &self.pattern,
            created_at: self.created_at,
            status: self.status,
        }
        .serialize(s)
    }
}

/// The entry as written, borrowing from the manifest text where it can.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct EntryIn<'a> {
    #[serde(borrow)]
    id: std::borrow::Cow<'a, str>,
    #[serde(borrow)]
    path: std::borrow::Cow<'a, str>,
    #[serde(borrow)]
    branch: std::borrow::Cow<'a, str>,
    #[serde(borrow)]
    base_branch: std::borrow::Cow<'a, str>,
    #[serde(borrow)]
    pattern: std::borrow::Cow<'a, str>,
    created_at: CreatedAt,
    status: Status,
}

impl<'de> Deserialize<'de> for Entry {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let e = EntryIn::deserialize(d)?;
        // The id first: the path and branch are derived from it.
        let id = RunId::parse(&e.id).map_err(serde::de::Error::custom)?;
        if !derived(&e.path, LOOP_DIR, &e.id) {
            return Err(serde::de::Error::custom(format_args!(
                "path {:?} is not {:?} (derived from id {:?})",
                e.path,
                runid::rel_path(&e.id),
                e.id
            )));
        }
        if !derived(&e.branch, runid::BRANCH_PREFIX, &e.id) {
            return Err(serde::de::Error::custom(format_args!(
                "branch {:?} is not {:?} (derived from id {:?})",
                e.branch,
                runid::branch_name(&e.id),
                e.id
            )));
        }
        Ok(Entry {
            id,
            base_branch: e.base_branch.into_owned(),
            pattern: e.pattern.into_owned(),
            created_at: e.created_at,
            status: e.status,
        })
    }
}

/// Whether `text` is `<prefix>/<id>`, checked without building it (10k
/// entries).
fn derived(text: &str, prefix: &str, id: &str) -> bool {
    text.strip_prefix(prefix)
        .and_then(|rest| rest.strip_prefix('/'))
        == Some(id)
}

impl Entry {
    /// A new active run. `id` must be a valid run id: every caller got it as
    /// a [`RunId`] from the command line (and passes it on as `&str` until
    /// the signatures between take `&RunId`); an invalid one is a bug, and
    /// panics rather than reach the manifest.
    pub fn new(id: &str, base: &str, pattern: &str, created_at: Timestamp) -> Entry {
        Entry {
            id: RunId::parse(id).expect("Entry::new is given a valid run id"),
            base_branch: base.to_owned(),
            pattern: pattern.to_owned(),
            created_at: CreatedAt(created_at),
            status: Status::Active,
        }
    }

    /// `.loop-worktrees/<id>`, relative to the root.
    pub fn path(&self) -> String {
        runid::rel_path(&self.id)
    }

    /// `loop/<id>`.
    pub fn branch(&self) -> String {
        runid::branch_name(&self.id)
    }

    /// True when `other` is the same run that was observed earlier: same id and
    /// same creation instant. Changes decided outside the mutex are applied only
    /// to the entry they were decided on.
    pub fn same_run(&self, other: &Entry) -> bool {
        self.id == other.id && self.created_at == other.created_at
    }
}

// Its JSON Schema, for the documents that hold entries (the shape `Entry`
// serializes to, `EntryOut`).
/// A run's manifest entry.
#[derive(schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct EntryShape {
    /// The run id
    id: String,
    /// `.loop-worktrees/<id>`, relative to the repository's root
    path: String,
    /// `loop/<id>`
    branch: String,
    /// The branch or commit the run started from
    base_branch: String,
    /// The label given with --pattern
    pattern: String,
    /// When the run was created: ISO-8601 UTC, ending in Z
    #[schemars(extend("format" = "date-time"))]
    created_at: String,
    status: Status,
}

impl schemars::JsonSchema for Entry {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Entry".into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        EntryShape::json_schema(generator)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub version: u32,
    pub worktrees: Vec<Entry>,
}

impl Default for Manifest {
    fn default() -> Self {
        Manifest {
            version: 1,
            worktrees: Vec::new(),
        }
    }
}

impl Manifest {
    /// Parse and validate manifest text. The error is the reason only; the
    /// caller names the file.
    pub fn parse(text: &str) -> std::result::Result<Manifest, String> {
        // The common shape by hand; anything else, and every error, by serde.
        let manifest = match fast::parse(text) {
            Some(manifest) => manifest,
            None => serde_json::from_str(text).map_err(|e| e.to_string())?,
        };
        manifest.validate()?;
        Ok(manifest)
    }

    fn validate(&self) -> std::result::Result<(), String> {
        if self.version != 1 {
            return Err(format!("unsupported version {} (expected 1)", self.version));
        }
        // foldhash, not SipHash: run ids are not attacker-chosen in any way
        // that matters here, and SipHash's cost shows at 10,000 entries.
        let mut seen: HashSet<&str, foldhash::fast::FixedState> =
            HashSet::with_capacity_and_hasher(self.worktrees.len(), Default::default());
        for (i, e) in self.worktrees.iter().enumerate() {
            if !seen.insert(e.id.as_str()) {
                return Err(format!("worktrees[{i}]: duplicate id {:?}", e.id));
            }
            if e.base_branch.is_empty() {
                return Err(format!("worktrees[{i}]: baseBranch is empty"));
            }
            // No git revision contains a control character.
            if e.base_branch.chars().any(char::is_control) {
                return Err(format!(
                    "worktrees[{i}]: baseBranch {:?} contains a control character",
                    e.base_branch
                ));
            }
            if e.pattern.is_empty() {
                return Err(format!("worktrees[{i}]: pattern is empty"));
            }
            // Labels are stored verbatim, but no command line can carry NUL.
            if e.pattern.contains('\0') {
                return Err(format!("worktrees[{i}]: pattern contains NUL"));
            }
        }
        Ok(())
    }

    /// Run `id`'s entry, or the `unknown-id` error naming the nearest
    /// known id.
    pub fn get(&self, id: &str) -> crate::error::Result<&Entry> {
        self.find(id).ok_or_else(|| {
            crate::error::Error::unknown_id(id, self.worktrees.iter().map(|e| e.id.as_str()))
        })
    }

    pub fn find(&self, id: &str) -> Option<&Entry> {
        self.worktrees.iter().find(|e| e.id == id)
    }

    pub fn find_mut(&mut self, id: &str) -> Option<&mut Entry> {
        self.worktrees.iter_mut().find(|e| e.id == id)
    }

    /// The manifest as written: 2-space pretty JSON and a final newline.
    pub fn to_json(&self) -> String {
        fast::write(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{"version":1,"worktrees":[{"id":"a","path":".loop-worktrees/a","branch":"loop/a","baseBranch":"main","pattern":"p","createdAt":"2026-11-30T14:44:32Z","status":"active"}]}"#;

    /// `error` (below the manifest) cannot name `Status::ALL`: its message
    /// lists the statuses by hand, and this keeps the list whole.
    #[test]
    fn the_invalid_status_message_lists_every_status() {
        let e = crate::error::Error::InvalidStatus {
            value: "x".into(),
            origin: "o".into(),
            help: None,
        };
        let names = Status::ALL.map(Status::as_str).join(", ");
        assert!(
            e.to_string().ends_with(&format!("expected one of {names}")),
            "{e}"
        );
    }

    #[test]
    fn round_trip() {
        let m = Manifest::parse(GOOD).unwrap();
        assert_eq!(Manifest::parse(&m.to_json()).unwrap(), m);
        assert!(m.to_json().contains("\n  \"version\": 1,"));
        assert!(
            m.to_json()
                .contains("\"createdAt\": \"2026-11-30T14:44:32Z\"")
        );
    }

    #[test]
    fn refusals() {
        let cases = [
            GOOD.replace("\"version\":1", "\"version\":2"),
            GOOD.replace("\"status\":\"active\"", "\"status\":\"done\""),
            GOOD.replace("14:44:32Z", "14:44:32+01:00"),
            GOOD.replace("\"pattern\":\"p\",", ""),
            GOOD.replace("\"pattern\":\"p\"", "\"pattern\":\"p\",\"extra\":1"),
            GOOD.replace(".loop-worktrees/a", "../a"),
            GOOD.replace("loop/a", "main"),
            GOOD.replace("]}", ",{\"id\":\"a\",\"path\":\".loop-worktrees/a\",\"branch\":\"loop/a\",\"baseBranch\":\"main\",\"pattern\":\"p\",\"createdAt\":\"2026-11-30T14:44:32Z\",\"status\":\"active\"}]}"),
            "[]".to_owned(),
            "".to_owned(),
        ];
        for c in cases {
            assert!(Manifest::parse(&c).is_err(), "accepted {c}");
        }
    }
}
