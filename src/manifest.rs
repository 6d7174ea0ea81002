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
//!   write outside the repository).

use std::collections::HashSet;
use std::fs::{self, File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::{Error, Result};
use crate::runid;

/// The directory under the root that holds everything git-loop owns.
pub const LOOP_DIR: &str = ".loop-worktrees";
pub const MANIFEST_FILE: &str = "manifest.json";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Active,
    Rejected,
    Escalated,
    Merged,
    Stale,
}

impl Status {
    pub const ALL: [Status; 5] = [
        Status::Active,
        Status::Rejected,
        Status::Escalated,
        Status::Merged,
        Status::Stale,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Rejected => "rejected",
            Status::Escalated => "escalated",
            Status::Merged => "merged",
            Status::Stale => "stale",
        }
    }

    pub fn parse(text: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|s| s.as_str() == text)
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An ISO-8601 UTC instant written with a `Z` suffix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct CreatedAt(pub Timestamp);

impl Serialize for CreatedAt {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for CreatedAt {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        if !text.ends_with('Z') || !text.contains('T') {
            return Err(serde::de::Error::custom(format_args!(
                "createdAt {text:?} is not an ISO-8601 UTC timestamp ending in Z"
            )));
        }
        text.parse::<Timestamp>().map(CreatedAt).map_err(|e| {
            serde::de::Error::custom(format_args!(
                "createdAt {text:?} is not a valid timestamp: {e}"
            ))
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Entry {
    pub id: String,
    pub path: String,
    pub branch: String,
    pub base_branch: String,
    pub pattern: String,
    pub created_at: CreatedAt,
    pub status: Status,
}

impl Entry {
    pub fn new(id: &str, base: &str, pattern: &str, created_at: Timestamp) -> Entry {
        Entry {
            id: id.to_owned(),
            path: runid::rel_path(id),
            branch: runid::branch_name(id),
            base_branch: base.to_owned(),
            pattern: pattern.to_owned(),
            created_at: CreatedAt(created_at),
            status: Status::Active,
        }
    }

    /// True when `other` is the same run that was observed earlier: same id and
    /// same creation instant. Changes decided outside the mutex are applied only
    /// to the entry they were decided on.
    pub fn same_run(&self, other: &Entry) -> bool {
        self.id == other.id && self.created_at == other.created_at
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
        let manifest: Manifest = serde_json::from_str(text).map_err(|e| e.to_string())?;
        manifest.validate()?;
        Ok(manifest)
    }

    fn validate(&self) -> std::result::Result<(), String> {
        if self.version != 1 {
            return Err(format!("unsupported version {} (expected 1)", self.version));
        }
        let mut seen = HashSet::with_capacity(self.worktrees.len());
        for (i, e) in self.worktrees.iter().enumerate() {
            if let Some(reason) = runid::problem(&e.id) {
                return Err(format!("worktrees[{i}]: invalid id {:?}: {reason}", e.id));
            }
            if !seen.insert(e.id.as_str()) {
                return Err(format!("worktrees[{i}]: duplicate id {:?}", e.id));
            }
            let want_path = runid::rel_path(&e.id);
            if e.path != want_path {
                return Err(format!(
                    "worktrees[{i}]: path {:?} is not {want_path:?} (derived from id {:?})",
                    e.path, e.id
                ));
            }
            let want_branch = runid::branch_name(&e.id);
            if e.branch != want_branch {
                return Err(format!(
                    "worktrees[{i}]: branch {:?} is not {want_branch:?} (derived from id {:?})",
                    e.branch, e.id
                ));
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

    pub fn find(&self, id: &str) -> Option<&Entry> {
        self.worktrees.iter().find(|e| e.id == id)
    }

    pub fn find_mut(&mut self, id: &str) -> Option<&mut Entry> {
        self.worktrees.iter_mut().find(|e| e.id == id)
    }

    /// The manifest as written: 2-space pretty JSON and a final newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("manifest serializes");
        text.push('\n');
        text
    }
}

/// The manifest file of one repository.
#[derive(Debug, Clone)]
pub struct ManifestFile {
    dir: PathBuf,
    path: PathBuf,
}

impl ManifestFile {
    pub fn new(loop_dir: &Path) -> Self {
        ManifestFile {
            dir: loop_dir.to_path_buf(),
            path: loop_dir.join(MANIFEST_FILE),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Read and validate. `Ok(None)` when the file does not exist.
    pub fn load(&self) -> Result<Option<Manifest>> {
        match fs::symlink_metadata(&self.path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(Error::UnsafePath {
                    path: self.path.clone(),
                    reason:
                        "the manifest is a symlink; git-loop only reads and writes a regular file"
                            .into(),
                });
            }
            Ok(meta) if !meta.is_file() => {
                return Err(Error::InvalidManifest {
                    path: self.path.clone(),
                    reason: "not a regular file".into(),
                });
            }
            Ok(_) => {}
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(Error::io("could not read", &self.path, e)),
        }
        let bytes = fs::read(&self.path).map_err(|e| Error::io("could not read", &self.path, e))?;
        let text = std::str::from_utf8(&bytes).map_err(|_| Error::InvalidManifest {
            path: self.path.clone(),
            reason: "not UTF-8".into(),
        })?;
        Manifest::parse(text)
            .map(Some)
            .map_err(|reason| Error::InvalidManifest {
                path: self.path.clone(),
                reason,
            })
    }

    /// Read and validate; an absent file is the empty manifest.
    pub fn load_or_default(&self) -> Result<Manifest> {
        Ok(self.load()?.unwrap_or_default())
    }

    /// Replace the manifest atomically: temp file in the same directory, fsync,
    /// rename over `manifest.json`, fsync the directory. Callers hold the mutex.
    pub fn write(&self, manifest: &Manifest) -> Result<()> {
        crate::crash::point("before-manifest-write");
        let tmp = self.dir.join(format!(
            ".manifest.json.tmp-{}-{}",
            std::process::id(),
            crate::lock::unique_suffix()
        ));
        crate::signals::track_temp(&tmp);
        let result = self.write_via(&tmp, manifest);
        if result.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        crate::signals::untrack_temp(&tmp);
        result
    }

    fn write_via(&self, tmp: &Path, manifest: &Manifest) -> Result<()> {
        let text = manifest.to_json();
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(tmp)
            .map_err(|e| Error::io("could not create", tmp, e))?;
        crate::crash::fail_point("manifest-write")
            .map_err(|e| Error::io("could not write", tmp, e))?;
        file.write_all(text.as_bytes())
            .and_then(|()| file.sync_all())
            .map_err(|e| Error::io("could not write", tmp, e))?;
        drop(file);
        crate::crash::point("before-manifest-rename");
        fs::rename(tmp, &self.path).map_err(|e| Error::io("could not replace", &self.path, e))?;
        crate::crash::point("after-manifest-rename");
        // Make the rename itself durable.
        if let Ok(dir) = File::open(&self.dir) {
            let _ = dir.sync_all();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{"version":1,"worktrees":[{"id":"a","path":".loop-worktrees/a","branch":"loop/a","baseBranch":"main","pattern":"p","createdAt":"2026-11-30T14:44:32Z","status":"active"}]}"#;

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
