//! The paths one side of a three-way merge changes, and whether two sides'
//! changes can meet — the proof that lets a merge be skipped as clean.
//!
//! A three-way tree merge conflicts only where both sides touch the same
//! path, or where one side's file stands where the other side has a
//! directory: a content conflict, modify/delete, add/add, a type change,
//! rename/rename and rename/delete (a rename is a deletion of its source
//! and an addition of its destination, on the side that made it), and
//! file/directory. So when no path one side changes equals a path the other
//! changes or one of its parent directories, the merge is clean: each side's
//! changes are taken as they are. gix's merge pairs renames only within one
//! side and does not detect directory renames, and paths are compared byte
//! for byte, as the merge compares them.
//!
//! The diff is made without rename tracking: a rename shows as both of its
//! paths. Directories' own entries are left out (what is in them is listed);
//! a directory a side adds or removes as a whole still shows each file.

use std::collections::HashSet;

use gix::ObjectId;
use gix::bstr::{BString, ByteSlice};
use gix::object::tree::diff::ChangeDetached as Change;

use crate::error::{Error, Result};

/// The files one side changes (added, deleted, modified, type changed) and
/// their parent directories.
#[derive(Debug, Default)]
pub struct Changes {
    files: HashSet<BString>,
    dirs: HashSet<BString>,
}

impl Changes {
    /// What changes from tree-ish `old` to tree-ish `new` (commits stand
    /// for their trees).
    pub fn between(repo: &gix::Repository, old: ObjectId, new: ObjectId) -> Result<Changes> {
        let err = |e: &dyn std::fmt::Display| {
            Error::Repository(format!("could not diff {old} and {new}: {e}"))
        };
        let tree = |id: ObjectId| {
            repo.find_object(id)
                .map_err(|e| err(&e))?
                .peel_to_tree()
                .map_err(|e| err(&e))
        };
        let (old_tree, new_tree) = (tree(old)?, tree(new)?);
        let changes = repo
            .diff_tree_to_tree(
                Some(&old_tree),
                Some(&new_tree),
                gix::diff::Options::default().with_rewrites(None),
            )
            .map_err(|e| err(&e))?;
        let mut out = Changes::default();
        for change in &changes {
            let (location, was, is) = match change {
                Change::Addition {
                    location,
                    entry_mode,
                    ..
                } => (location, None, Some(*entry_mode)),
                Change::Deletion {
                    location,
                    entry_mode,
                    ..
                } => (location, Some(*entry_mode), None),
                Change::Modification {
                    location,
                    previous_entry_mode,
                    entry_mode,
                    ..
                } => (location, Some(*previous_entry_mode), Some(*entry_mode)),
                Change::Rewrite {
                    source_location,
                    location,
                    ..
                } => {
                    // Not made without rename tracking; both paths count.
                    out.add(source_location.clone());
                    out.add(location.clone());
                    continue;
                }
            };
            // A directory's own entry, unless a file took or left its place.
            let tree_or_none =
                |m: Option<gix::object::tree::EntryMode>| m.is_none_or(|m| m.is_tree());
            if tree_or_none(was) && tree_or_none(is) {
                continue;
            }
            out.add(location.clone());
        }
        Ok(out)
    }

    fn add(&mut self, path: BString) {
        let mut at = path.len();
        while let Some(slash) = path[..at].rfind_byte(b'/') {
            if !self.dirs.insert(path[..slash].into()) {
                break;
            }
            at = slash;
        }
        self.files.insert(path);
    }

    /// Whether a path changed here is one changed there, or a parent
    /// directory of one, or the other way round. When not, merging the two
    /// sides over their common ancestor cannot conflict.
    pub fn can_meet(&self, other: &Changes) -> bool {
        let (small, large) = if self.files.len() <= other.files.len() {
            (self, other)
        } else {
            (other, self)
        };
        small
            .files
            .iter()
            .any(|p| large.files.contains(p) || large.dirs.contains(p))
            || large.files.iter().any(|p| small.dirs.contains(p))
    }
}
