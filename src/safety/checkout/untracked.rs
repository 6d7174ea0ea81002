//! What a landing's checkout would destroy that git never had: the files
//! not in the checkout's index (ignored ones, such as a `.env`) standing
//! where `git read-tree -m -u <old> <new>` writes.
//!
//! git's two-tree merge (and `git merge --ff-only`) treats an ignored file
//! as expendable: a landing that adds `.env` overwrites the user's own,
//! never committed, `.env`; one that adds a file `build` where an ignored
//! directory `build/` holds build output deletes the whole directory; one
//! that adds `cache/x` where an ignored file `cache` stands deletes it. A
//! file git does not track and does not ignore is refused by git itself
//! (`target-dirty`). git-loop refuses all of them: [`in_the_way`] names
//! them, and the landing is refused (`target-ignored`) before the target
//! moves.
//!
//! Only a path the landing **adds** (one `old`'s tree does not have as a
//! file: a new file, or a file where `old` had a directory) can meet such
//! a file: a path `old` has is tracked, and a deleted file's directory is
//! removed only when empty (git leaves one holding an ignored file). For
//! each added path:
//! - each directory above it: a file or symlink there (git would delete it
//!   to make the directory) that `old` does not have and the index does
//!   not list;
//! - the path itself: a file or symlink there that the index does not
//!   list (a staged one is git's to judge), or a directory there holding
//!   any file the index does not list (git would delete the directory
//!   with it): named as the directory, with a trailing `/`.
//!
//! The in-process checkout ([`super::clean::plan`]) needs nothing at all at
//! an added path, so it never meets one; this is for the checkout left to
//! `git read-tree`. Reads only (`lstat`, the index, the trees); cost: one
//! tree diff and a few `lstat`s per added path, a walk only of a directory
//! standing where a file lands.

use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use gix::ObjectId;
use gix::bstr::{BStr, BString, ByteSlice};
use gix::object::tree::diff::ChangeDetached as Change;

use super::clean::{changes, tree_of};
use crate::error::{Error, Result};

fn err(e: impl std::fmt::Display) -> Error {
    Error::Repository(e.to_string())
}

/// A repository path as a relative file path (bytes as they are: Unix).
fn fs(path: &[u8]) -> &Path {
    Path::new(std::ffi::OsStr::from_bytes(path))
}

/// The files the index of `checkout` does not list that the two-tree
/// checkout from `old` to `new` would overwrite or delete (see the module
/// doc), as repository-relative paths (a directory with a trailing `/`);
/// empty when there is none.
pub fn in_the_way(
    gix: &gix::Repository,
    checkout: &Path,
    index: &gix::index::File,
    old: ObjectId,
    new: ObjectId,
) -> Result<Vec<String>> {
    let (old_tree, new_tree) = (tree_of(gix, old)?, tree_of(gix, new)?);
    let changes = changes(gix, &old_tree, &new_tree)?;
    let mut found = Vec::new();
    for change in &changes {
        let (path, was_file, is_file) = match change {
            Change::Addition {
                location,
                entry_mode,
                ..
            } => (location, false, !entry_mode.is_tree()),
            Change::Modification {
                location,
                previous_entry_mode,
                entry_mode,
                ..
            } => (
                location,
                !previous_entry_mode.is_tree(),
                !entry_mode.is_tree(),
            ),
            Change::Deletion { .. } | Change::Rewrite { .. } => continue,
        };
        if !is_file || was_file {
            continue;
        }
        if let Some(p) = at_added(&old_tree, checkout, index, path.as_bstr())?
            && !found.contains(&p)
        {
            found.push(p);
        }
    }
    found.sort();
    Ok(found)
}

/// The untracked file (or directory holding one) in the way of the added
/// file `path`, if there is one.
fn at_added(
    old_tree: &gix::Tree<'_>,
    checkout: &Path,
    index: &gix::index::File,
    path: &BStr,
) -> Result<Option<String>> {
    let listed = |p: &BStr| index.entry_by_path(p).is_some();
    let components: Vec<&[u8]> = path.split(|b| *b == b'/').collect();
    let mut rel = BString::default();
    for (n, component) in components.iter().enumerate() {
        if n > 0 {
            rel.push(b'/');
        }
        rel.extend_from_slice(component);
        let meta = match checkout.join(fs(&rel)).symlink_metadata() {
            Ok(meta) => meta,
            Err(_) => return Ok(None), // nothing there, nor below
        };
        let last = n + 1 == components.len();
        if meta.is_dir() {
            if last {
                return Ok(
                    holds_untracked(checkout, index, rel.as_bstr())?.then(|| format!("{rel}/"))
                );
            }
            continue;
        }
        // A file or a symlink: tracked (in the index, or `old`'s own file
        // the landing replaces), or in the way.
        let in_old = !last
            && old_tree
                .lookup_entry_by_path(fs(&rel))
                .ok()
                .flatten()
                .is_some_and(|e| !e.mode().is_tree());
        return Ok((!listed(rel.as_bstr()) && !in_old).then(|| rel.to_string()));
    }
    Ok(None)
}

/// Whether the directory `rel` of `checkout` holds, at any depth, a file
/// or symlink the index does not list (symlinks not followed).
fn holds_untracked(checkout: &Path, index: &gix::index::File, rel: &BStr) -> Result<bool> {
    let mut stack = vec![BString::from(rel)];
    while let Some(dir) = stack.pop() {
        let full = checkout.join(fs(&dir));
        let entries = std::fs::read_dir(&full)
            .map_err(|e| err(format!("could not read {}: {e}", full.display())))?;
        for entry in entries {
            let entry =
                entry.map_err(|e| err(format!("could not read {}: {e}", full.display())))?;
            let mut path = dir.clone();
            path.push(b'/');
            path.extend_from_slice(entry.file_name().as_bytes());
            match entry.file_type() {
                Ok(t) if t.is_dir() => stack.push(path),
                _ if index.entry_by_path(path.as_bstr()).is_some() => {}
                _ => return Ok(true),
            }
        }
    }
    Ok(false)
}
