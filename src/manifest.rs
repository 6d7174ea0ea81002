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

use std::collections::HashSet;
use std::fs::{self, File, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::{Error, Result};
use crate::lock::ManifestMutex;
use crate::runid;

/// The directory under the root that holds everything git-loop owns.
pub const LOOP_DIR: &str = ".loop-worktrees";
pub const MANIFEST_FILE: &str = "manifest.json";
/// Far above 10,000 entries (about 2.5 MB); a larger file is refused unread.
const MANIFEST_CAP: u64 = 256 << 20;

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

/// The common shape `YYYY-MM-DDTHH:MM:SS[.f{1,9}]Z`, parsed without jiff's
/// general parser (10,000 entries). Anything else — or anything this does not
/// handle, like a leap second — returns `None` and goes to jiff, so what is
/// accepted is exactly what jiff accepts (checked by a property test).
pub fn parse_utc_fast(text: &str) -> Option<Timestamp> {
    let b = text.as_bytes();
    if b.len() < 20
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
    {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        b[r].iter().try_fold(0i64, |acc, c| {
            c.is_ascii_digit().then(|| acc * 10 + i64::from(c - b'0'))
        })
    };
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hour, minute, second) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let nanos = match (b[19], b.len()) {
        (b'Z', 20) => 0,
        (b'.', n) if (22..=30).contains(&n) && b[n - 1] == b'Z' => {
            let digits = n - 21;
            num(20..n - 1)? * 10i64.pow(9 - digits as u32)
        }
        _ => return None,
    };
    let date = jiff::civil::Date::new(
        i16::try_from(year).ok()?,
        i8::try_from(month).ok()?,
        i8::try_from(day).ok()?,
    )
    .ok()?;
    // Days since 1970-01-01 (Howard Hinnant's days_from_civil).
    let (y, m, d) = (
        i64::from(date.year()),
        i64::from(date.month()),
        i64::from(date.day()),
    );
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Timestamp::new(
        days * 86_400 + hour * 3600 + minute * 60 + second,
        nanos as i32,
    )
    .ok()
}

impl Serialize for CreatedAt {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for CreatedAt {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        // Borrowed from the input when it has no escapes: no allocation.
        let text = std::borrow::Cow::<'de, str>::deserialize(d)?;
        let text = text.as_ref();
        if !text.ends_with('Z') || !text.contains('T') {
            return Err(serde::de::Error::custom(format_args!(
                "createdAt {text:?} is not an ISO-8601 UTC timestamp ending in Z"
            )));
        }
        if let Some(ts) = parse_utc_fast(text) {
            return Ok(CreatedAt(ts));
        }
        text.parse::<Timestamp>().map(CreatedAt).map_err(|e| {
            serde::de::Error::custom(format_args!(
                "createdAt {text:?} is not a valid timestamp: {e}"
            ))
        })
    }
}

/// One run. `path` and `branch` are not stored: they are derived from the id
/// (`.loop-worktrees/<id>`, `loop/<id>`), checked against it when a manifest
/// is read, and written from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub id: String,
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
            branch: Derived("loop", &self.id),
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
        // Checked without building the derived strings (10k entries).
        let derived = |text: &str, prefix: &str| {
            text.strip_prefix(prefix)
                .and_then(|rest| rest.strip_prefix('/'))
                == Some(&*e.id)
        };
        if !derived(&e.path, LOOP_DIR) {
            return Err(serde::de::Error::custom(format_args!(
                "path {:?} is not {:?} (derived from id {:?})",
                e.path,
                runid::rel_path(&e.id),
                e.id
            )));
        }
        if !derived(&e.branch, "loop") {
            return Err(serde::de::Error::custom(format_args!(
                "branch {:?} is not {:?} (derived from id {:?})",
                e.branch,
                runid::branch_name(&e.id),
                e.id
            )));
        }
        Ok(Entry {
            id: e.id.into_owned(),
            base_branch: e.base_branch.into_owned(),
            pattern: e.pattern.into_owned(),
            created_at: e.created_at,
            status: e.status,
        })
    }
}

impl Entry {
    pub fn new(id: &str, base: &str, pattern: &str, created_at: Timestamp) -> Entry {
        Entry {
            id: id.to_owned(),
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

/// FNV-1a: run ids are short and not attacker-chosen in any way that matters
/// here; SipHash's cost shows at 10,000 entries.
#[derive(Default, Clone, Copy)]
struct Fnv;

struct FnvHasher(u64);

impl std::hash::BuildHasher for Fnv {
    type Hasher = FnvHasher;
    fn build_hasher(&self) -> FnvHasher {
        FnvHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for FnvHasher {
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn finish(&self) -> u64 {
        self.0
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
        let mut seen: HashSet<&str, Fnv> =
            HashSet::with_capacity_and_hasher(self.worktrees.len(), Fnv);
        for (i, e) in self.worktrees.iter().enumerate() {
            if let Some(reason) = runid::problem(&e.id) {
                return Err(format!("worktrees[{i}]: invalid id {:?}: {reason}", e.id));
            }
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

/// A parsed `manifest.json`, kept open. The manifest is only ever replaced by
/// a rename, never written in place, and an open file's inode cannot be
/// reused: the same (device, inode) at the path means the same content.
#[derive(Debug)]
pub struct Snapshot {
    file: File,
}

impl Snapshot {
    /// Whether `path` still names the file this snapshot parsed.
    pub fn is_current(&self, path: &Path) -> bool {
        use std::os::unix::fs::MetadataExt;
        match (self.file.metadata(), fs::symlink_metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
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

    /// Read and validate. `Ok(None)` when the file does not exist. Opened
    /// with `O_NOFOLLOW` and checked with `fstat` on the open file, so there
    /// is no window between a check and the read.
    pub fn load(&self) -> Result<Option<Manifest>> {
        Ok(self.load_snapshot()?.map(|(manifest, _)| manifest))
    }

    /// [`ManifestFile::load`], with the open file kept as a [`Snapshot`]: a
    /// command that validates before taking the mutex can tell, once it holds
    /// it, whether the file is still the one it parsed — and skip parsing it
    /// again (10,000 entries).
    pub fn load_snapshot(&self) -> Result<Option<(Manifest, Snapshot)>> {
        let file = match OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC | libc::O_NONBLOCK)
            .open(&self.path)
        {
            Ok(file) => file,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
            Err(e) if crate::fsx::is_symlink_error(&e) => {
                return Err(Error::UnsafePath {
                    path: self.path.clone(),
                    reason:
                        "the manifest is a symlink; git-loop only reads and writes a regular file"
                            .into(),
                });
            }
            Err(e) => return Err(Error::io("could not read", &self.path, e)),
        };
        let meta = file
            .metadata()
            .map_err(|e| Error::io("could not read", &self.path, e))?;
        if !meta.is_file() {
            return Err(Error::InvalidManifest {
                path: self.path.clone(),
                reason: "not a regular file".into(),
            });
        }
        let mut bytes = Vec::new();
        (&file)
            .take(MANIFEST_CAP + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| Error::io("could not read", &self.path, e))?;
        if bytes.len() as u64 > MANIFEST_CAP {
            return Err(Error::InvalidManifest {
                path: self.path.clone(),
                reason: format!("larger than {MANIFEST_CAP} bytes"),
            });
        }
        let text = std::str::from_utf8(&bytes).map_err(|_| Error::InvalidManifest {
            path: self.path.clone(),
            reason: "not UTF-8".into(),
        })?;
        let manifest = Manifest::parse(text).map_err(|reason| Error::InvalidManifest {
            path: self.path.clone(),
            reason,
        })?;
        Ok(Some((manifest, Snapshot { file })))
    }

    /// Read and validate; an absent file is the empty manifest.
    pub fn load_or_default(&self) -> Result<Manifest> {
        Ok(self.load()?.unwrap_or_default())
    }

    /// Replace the manifest atomically: temp file in the same directory, fsync,
    /// rename over `manifest.json`, fsync the directory. The caller holds
    /// `mutex`; right before the rename the write checks that it still does
    /// (its token is in the mutex file). A holder whose mutex was broken as
    /// stale meanwhile removes its temp file and fails with `mutex-lost`: it
    /// never replaces a manifest another process wrote after its read.
    pub fn write(&self, manifest: &Manifest, mutex: &ManifestMutex) -> Result<()> {
        crate::crash::point("before-manifest-write");
        let tmp = self.dir.join(format!(
            ".manifest.json.tmp-{}-{}",
            std::process::id(),
            crate::lock::unique_suffix()
        ));
        crate::signals::track_temp(&tmp);
        let result = self.write_via(&tmp, manifest, mutex);
        if result.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        crate::signals::untrack_temp(&tmp);
        result
    }

    fn write_via(&self, tmp: &Path, manifest: &Manifest, mutex: &ManifestMutex) -> Result<()> {
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
        if !mutex.is_held() {
            return Err(Error::MutexLost {
                path: mutex.path().to_path_buf(),
            });
        }
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
