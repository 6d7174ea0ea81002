//! Whether `git read-tree -m -u <old> <new>` would go through in a
//! checkout, answered in-process when the answer is certainly yes: the
//! dry run of `ops::land::advance::check` without a `git read-tree -n` process (which
//! reads the whole index, 10,000 entries in the benchmark's repository, for
//! every landing of a queue).
//!
//! [`certainly_clean`] says `true` only when every path the landing
//! changes is, in the checkout, exactly as git's two-tree merge needs it,
//! judged more strictly than git judges it:
//! - a path `old` has (changed or deleted by the landing): its index entry
//!   is at stage 0, with `old`'s blob and mode and no flag
//!   (skip-worktree, intent-to-add, assume-unchanged); the file is a
//!   regular file whose executable bit agrees, and its `lstat` equals the
//!   entry's cached stat in every field (times to the nanosecond, size,
//!   inode, device, owner) while the entry is not racy (its mtime is before
//!   the index was written, to the nanosecond, as
//!   [`crate::git::repo::open_worktree`] has status reads judge it). git
//!   calls such an entry up to date without reading the file. When the
//!   entry is racy, smudged (git zeroes a racy entry's size when it writes
//!   the index) or the file only touched, the file's bytes are read and
//!   hashed: it is up to date when they are exactly `old`'s blob, as git
//!   reads a racy entry's file, and as `read-tree` finds it once the index
//!   is refreshed (so nothing the write replaces is lost: the bytes are in
//!   `old`'s blob). A file over 16 MiB is not read: unsure;
//! - a path only `new` has: no index entry, nothing at the path, and
//!   nothing but directories above it;
//! - a regular file or an executable on both sides (a symlink, a submodule
//!   or a type change: unsure);
//! - the whole index: no unresolved conflict, not sparse, not split
//!   (`link` extension), and the repository neither case-insensitive nor
//!   sparse-checked-out.
//!
//! Anything else is *unsure*, not *dirty*: the caller asks git
//! (`read-tree -n`, the index refreshed and asked again), whose answer and
//! words decide, as before. A file that changes after this check is caught
//! by the checkout itself ([`super::write`] proves it again under the
//! index lock; `read-tree -m -u` refuses), and the ref is moved back
//! (`ops::land::advance`): the same race as with git's own dry run.
//!
//! [`plan`] gives the proof's paths, for [`super::permit`] and the
//! in-process checkout ([`super::write`]).

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice};
use gix::index::entry::{Flags, Mode, Stage};
use gix::object::tree::diff::ChangeDetached as Change;

use crate::error::{Error, Result};

fn err(e: impl std::fmt::Display) -> Error {
    Error::Repository(e.to_string())
}

/// One path the landing changes, proved ready for the two-tree merge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// Slash-separated, relative to the checkout.
    pub path: BString,
    /// `old`'s blob at the path (the file is up to date with it) and
    /// whether it is executable, or none: an addition (nothing is there).
    pub was: Option<(ObjectId, bool)>,
    /// `new`'s blob and whether it is executable, or none: a deletion.
    pub is: Option<(ObjectId, bool)>,
}

/// `true`: `read-tree -m -u old new` in `checkout` (whose index is
/// `index`) certainly goes through (see the module doc); `false`: unsure,
/// ask git.
pub fn certainly_clean(
    gix: &gix::Repository,
    checkout: &Path,
    index: &gix::index::File,
    old: ObjectId,
    new: ObjectId,
) -> Result<bool> {
    Ok(plan(gix, checkout, index, old, new)?.is_some())
}

/// The tree of the commit `id`.
pub fn tree_of(gix: &gix::Repository, id: ObjectId) -> Result<gix::Tree<'_>> {
    gix.find_commit(id).map_err(err)?.tree().map_err(err)
}

/// What changes from the tree `old` to `new`, path by path as `read-tree
/// -m -u` sees it: no rename detection (a rename is a deletion and an
/// addition).
pub fn changes(
    gix: &gix::Repository,
    old: &gix::Tree<'_>,
    new: &gix::Tree<'_>,
) -> Result<Vec<Change>> {
    gix.diff_tree_to_tree(
        Some(old),
        Some(new),
        gix::diff::Options::default().with_rewrites(None),
    )
    .map_err(err)
}

/// Every path `read-tree -m -u old new` changes in `checkout`, when it
/// certainly goes through ([`certainly_clean`]); `None`: unsure.
pub fn plan(
    gix: &gix::Repository,
    checkout: &Path,
    index: &gix::index::File,
    old: ObjectId,
    new: ObjectId,
) -> Result<Option<Vec<Step>>> {
    let config = gix.config_snapshot();
    let on = |key: &str| config.boolean(key).unwrap_or(false);
    if on("core.ignoreCase")
        || on("core.sparseCheckout")
        || crate::git::repo::case_insensitive(checkout)
    {
        return Ok(None);
    }
    let (old_tree, new_tree) = (tree_of(gix, old)?, tree_of(gix, new)?);
    let changes = changes(gix, &old_tree, &new_tree)?;
    if index.is_sparse()
        || index.link().is_some()
        || index
            .entries()
            .iter()
            .any(|e| e.stage() != Stage::Unconflicted)
    {
        return Ok(None);
    }
    let stamp = (
        index.timestamp().unix_seconds(),
        index.timestamp().nanoseconds(),
    );
    let mut steps = Vec::new();
    for change in &changes {
        let Some((path, was, is)) = sides(change) else {
            return Ok(None);
        };
        // A directory's own entry: what is in it is listed on its own.
        let tree = |side: Side| side.is_some_and(|(m, _)| m.is_tree());
        if tree(was) && (is.is_none() || tree(is)) || was.is_none() && tree(is) {
            continue;
        }
        let file = |side: Side| side.is_none_or(|(m, _)| m.is_blob() && !m.is_link());
        if !file(was) || !file(is) || !plain_path(path.as_bstr()) {
            return Ok(None);
        }
        let fine = match was {
            Some((mode, id)) => up_to_date(index, checkout, path.as_bstr(), mode, id, stamp)?,
            None => free(index, checkout, path.as_bstr()),
        };
        if !fine {
            return Ok(None);
        }
        let executable = |m: gix::object::tree::EntryMode| {
            m.kind() == gix::object::tree::EntryKind::BlobExecutable
        };
        steps.push(Step {
            path: path.clone(),
            was: was.map(|(m, id)| (id, executable(m))),
            is: is.map(|(m, id)| (id, executable(m))),
        });
    }
    Ok(Some(steps))
}

/// One side of a change: its entry's mode and object, or `None` where
/// the path is absent.
type Side = Option<(gix::object::tree::EntryMode, ObjectId)>;

/// A change's path and its two sides; `None` for a rewrite (not asked
/// for: the diff runs without rewrite tracking).
fn sides(change: &Change) -> Option<(&BString, Side, Side)> {
    Some(match change {
        Change::Addition {
            location,
            entry_mode,
            id,
            ..
        } => (location, None, Some((*entry_mode, *id))),
        Change::Deletion {
            location,
            entry_mode,
            id,
            ..
        } => (location, Some((*entry_mode, *id)), None),
        Change::Modification {
            location,
            previous_entry_mode,
            previous_id,
            entry_mode,
            id,
            ..
        } => (
            location,
            Some((*previous_entry_mode, *previous_id)),
            Some((*entry_mode, *id)),
        ),
        Change::Rewrite { .. } => return None,
    })
}

/// The path's index entry holds `id` with `mode`, no flag, and the file's
/// `lstat` equals its cached stat, not racily.
fn up_to_date(
    index: &gix::index::File,
    checkout: &Path,
    path: &BStr,
    mode: gix::object::tree::EntryMode,
    id: ObjectId,
    stamp: (i64, u32),
) -> Result<bool> {
    let Some(entry) = index.entry_by_path(path) else {
        return Ok(false);
    };
    let executable = mode.kind() == gix::object::tree::EntryKind::BlobExecutable;
    let want_mode = if executable {
        Mode::FILE_EXECUTABLE
    } else {
        Mode::FILE
    };
    let flagged = Flags::SKIP_WORKTREE | Flags::INTENT_TO_ADD | Flags::ASSUME_VALID;
    if entry.id != id || entry.mode != want_mode || entry.flags.intersects(flagged) {
        return Ok(false);
    }
    let Ok(rel) = gix::path::from_bstr(path) else {
        return Ok(false);
    };
    let Ok(meta) = checkout.join(&rel).symlink_metadata() else {
        return Ok(false);
    };
    if !dirs_above(checkout, &rel) {
        return Ok(false);
    }
    if !meta.file_type().is_file() || (meta.permissions().mode() & 0o100 != 0) != executable {
        return Ok(false);
    }
    let s = &entry.stat;
    // Racy: written at or after the index, to the nanosecond (see
    // `crate::git::repo::open_worktree`).
    let racy = (i64::from(s.mtime.secs), s.mtime.nsecs) >= stamp;
    if !racy && crate::git::repo::stat_matches(s, &meta) {
        return Ok(true);
    }
    // Racy, smudged or only touched: the file's bytes read and hashed, as
    // git reads a racy entry's file (and as `read-tree` after the index is
    // refreshed judges a touched one).
    Ok(meta.len() <= HASHED_AT_MOST && holds(&checkout.join(&rel), id))
}

/// The largest file [`up_to_date`] reads to hash it (a larger one whose
/// stat does not prove it: unsure, git is asked).
const HASHED_AT_MOST: u64 = 16 << 20;

/// Whether the regular file at `path` holds exactly the blob `id` (its
/// bytes hashed as a blob of `id`'s kind).
fn holds(path: &Path, id: ObjectId) -> bool {
    std::fs::read(path).is_ok_and(|bytes| {
        gix::objs::compute_hash(id.kind(), gix::objs::Kind::Blob, &bytes).is_ok_and(|h| h == id)
    })
}

/// Nothing in the index or on disk at `path`, and nothing but directories
/// (or nothing) above it.
fn free(index: &gix::index::File, checkout: &Path, path: &BStr) -> bool {
    if index.entry_by_path(path).is_some() {
        return false;
    }
    let Ok(rel) = gix::path::from_bstr(path) else {
        return false;
    };
    let full = checkout.join(&rel);
    if full.symlink_metadata().is_ok() {
        return false;
    }
    let mut above = rel.parent();
    while let Some(dir) = above.filter(|d| !d.as_os_str().is_empty()) {
        match checkout.join(dir).symlink_metadata() {
            Ok(meta) if meta.file_type().is_dir() => {}
            // Not there yet: git makes it.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            // A file or a symlink in the way.
            _ => return false,
        }
        above = dir.parent();
    }
    true
}

/// Every directory above `rel` in `checkout` is a directory, not a symlink
/// to one (through which a write would land outside the checkout).
fn dirs_above(checkout: &Path, rel: &Path) -> bool {
    let mut above = rel.parent();
    while let Some(dir) = above.filter(|d| !d.as_os_str().is_empty()) {
        match checkout.join(dir).symlink_metadata() {
            Ok(meta) if meta.file_type().is_dir() => {}
            _ => return false,
        }
        above = dir.parent();
    }
    true
}

/// A path git checks out on every platform without a second thought: each
/// component printable ASCII without `\\` or `:`, not `.` or `..`, not
/// `git~…` (an NTFS short name), and neither `.git` (git's own directory)
/// nor `.gitattributes` (which changes how files are written) nor
/// `.gitmodules`, in any case, with or without trailing dots and spaces
/// (which NTFS drops). Anything else is left to git, which knows its rules.
pub(super) fn plain_path(path: &BStr) -> bool {
    path.split(|b| *b == b'/').all(|c| {
        let lower = c.to_ascii_lowercase();
        let core = lower.trim_end_with(|ch| ch == '.' || ch == ' ');
        !c.is_empty()
            && c != b"."
            && c != b".."
            && !lower.starts_with(b"git~")
            && ![&b".git"[..], b".gitattributes", b".gitmodules"].contains(&core)
            && c.iter()
                .all(|b| (0x20..0x7f).contains(b) && !b"\\:".contains(b))
    })
}
