//! Patch ids: what a commit changes, independent of where it applies.
//!
//! git-loop's patch id is in the spirit of `git patch-id --stable`, not
//! byte-compatible with it. For a non-merge commit it is the hash in the
//! repository's object format (SHA-1, or SHA-256) of, for each changed file in path order (the diff of the commit's tree against
//! its first parent's, with no rename detection, so a rename is a deletion
//! plus an addition on both sides alike):
//! - the path and the old and new modes;
//! - for a text file, each hunk of a histogram line diff as the old file's
//!   line before it and line after it (or the file's start or end), then
//!   its removed lines, then its added lines — no line numbers, so a change
//!   rebased onto moved surroundings, or surroundings edited beyond those
//!   two lines, keeps its id, while the same line added elsewhere in the
//!   file does not;
//! - for a binary file (a NUL in its first 8,000 bytes, git's rule) or a
//!   submodule, the old and new object ids.
//!
//! **The bytes hashed are unambiguous**: every item is a tag byte, then (for
//! a path or a line) its length and its bytes; a line's bytes exclude its
//! newline and are followed by `\n`, or by a backslash for a last line
//! without one (git's "\ No newline at end of file"). Without lengths, a removed last
//! line `a` with no newline followed by an added `b` hashed as `-a+b\n`,
//! exactly as the removed line `a+b`: two different changes, one id.
//!
//! Whitespace is significant. Merge commits (and root commits are diffed
//! against the empty tree) have no single patch, and a commit that changes
//! nothing has no patch at all: [`PatchIds::of`] and [`PatchIds::key`]
//! return `None` for both.
//!
//! Two commits with the same patch id make the same change to files of the
//! same paths, with the same line either side of each hunk. That is
//! evidence, not proof, that one's change is in the other's tree: the same
//! edit in another copy of identical lines (two `if err != nil { return err
//! }` in one file) has the same id. So patch ids only ever say "probably
//! rebase-merged", or name a merge already proven otherwise; see
//! [`super::merged`].

use std::collections::HashMap;

use gix::ObjectId;
use gix::bstr::BString;
use gix::diff::blob::{Algorithm, InternedInput, sources::byte_lines};

use crate::error::{Error, Result};

fn repo_err(e: impl std::fmt::Display) -> Error {
    Error::Repository(e.to_string())
}

/// A cache of patch ids by commit, and of a cheaper key: the changed paths
/// alone. Two commits can share a patch id only if they share the key, so a
/// commit whose key matches nothing on the other side needs no blob diff.
pub struct PatchIds<'r> {
    repo: &'r gix::Repository,
    ids: HashMap<ObjectId, Option<ObjectId>>,
    keys: HashMap<ObjectId, Option<ObjectId>>,
    state: gix::diff::tree::State,
}

/// A changed file: path, old and new (mode, id); `None` on the side where
/// it does not exist.
type FileChange = (BString, Option<(u16, ObjectId)>, Option<(u16, ObjectId)>);

impl<'r> PatchIds<'r> {
    pub fn new(repo: &'r gix::Repository) -> PatchIds<'r> {
        PatchIds {
            repo,
            ids: HashMap::new(),
            keys: HashMap::new(),
            state: Default::default(),
        }
    }

    /// The files `commit` changes against its parent, sorted by path;
    /// `None` for a merge commit.
    fn changes(&mut self, commit: ObjectId) -> Result<Option<Vec<FileChange>>> {
        let c = self.repo.find_commit(commit).map_err(repo_err)?;
        let parents: Vec<ObjectId> = c.parent_ids().map(gix::Id::detach).collect();
        if parents.len() > 1 {
            return Ok(None);
        }
        let new_tree = c.tree_id().map_err(repo_err)?.detach();
        let old_tree = match parents.first() {
            Some(p) => self
                .repo
                .find_commit(*p)
                .map_err(repo_err)?
                .tree_id()
                .map_err(repo_err)?
                .detach(),
            None => ObjectId::empty_tree(self.repo.object_hash()),
        };
        let old = self.repo.find_tree(old_tree).map_err(repo_err)?;
        let new = self.repo.find_tree(new_tree).map_err(repo_err)?;
        let mut recorder = gix::diff::tree::Recorder::default();
        gix::diff::tree(
            gix::objs::TreeRefIter::from_bytes(&old.data, self.repo.object_hash()),
            gix::objs::TreeRefIter::from_bytes(&new.data, self.repo.object_hash()),
            &mut self.state,
            &self.repo.objects,
            &mut recorder,
        )
        .map_err(repo_err)?;
        use gix::diff::tree::recorder::Change;
        let mut out: Vec<FileChange> = recorder
            .records
            .into_iter()
            .filter_map(|change| match change {
                Change::Addition {
                    entry_mode,
                    oid,
                    path,
                    ..
                } => (!entry_mode.is_tree()).then(|| (path, None, Some((entry_mode.value(), oid)))),
                Change::Deletion {
                    entry_mode,
                    oid,
                    path,
                    ..
                } => (!entry_mode.is_tree()).then(|| (path, Some((entry_mode.value(), oid)), None)),
                Change::Modification {
                    previous_entry_mode,
                    previous_oid,
                    entry_mode,
                    oid,
                    path,
                } => {
                    let side = |mode: gix::objs::tree::EntryMode, id| {
                        (!mode.is_tree()).then_some((mode.value(), id))
                    };
                    let (old, new) = (
                        side(previous_entry_mode, previous_oid),
                        side(entry_mode, oid),
                    );
                    (old.is_some() || new.is_some()).then_some((path, old, new))
                }
            })
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(Some(out))
    }

    /// The cheap key of `commit`: a hash of the paths and modes it changes
    /// (`None` for a merge, or a commit that changes nothing).
    pub fn key(&mut self, commit: ObjectId) -> Result<Option<ObjectId>> {
        if let Some(k) = self.keys.get(&commit) {
            return Ok(*k);
        }
        let changes = self.changes(commit)?.filter(|c| !c.is_empty());
        let key = changes.map(|changes| {
            let mut h = gix::hash::hasher(self.repo.object_hash());
            for (path, old, new) in &changes {
                h.update(path);
                h.update(&[0]);
                for side in [old, new] {
                    h.update(&side.map_or(0, |(mode, _)| mode).to_be_bytes());
                }
            }
            h.try_finalize()
                .unwrap_or_else(|_| ObjectId::null(self.repo.object_hash()))
        });
        self.keys.insert(commit, key);
        Ok(key)
    }

    /// The patch id of `commit` (`None` for a merge, or a commit that
    /// changes nothing), see the module docs.
    pub fn of(&mut self, commit: ObjectId) -> Result<Option<ObjectId>> {
        if let Some(id) = self.ids.get(&commit) {
            return Ok(*id);
        }
        let Some(changes) = self.changes(commit)?.filter(|c| !c.is_empty()) else {
            self.ids.insert(commit, None);
            return Ok(None);
        };
        let mut h = gix::hash::hasher(self.repo.object_hash());
        for (path, old, new) in &changes {
            item(&mut h, b'F', path);
            for side in [old, new] {
                h.update(&side.map_or(0, |(mode, _)| mode).to_be_bytes());
            }
            let blob = |side: &Option<(u16, ObjectId)>| -> Result<Option<Vec<u8>>> {
                match side {
                    // Regular files and symlinks are diffed by content.
                    Some((mode, id)) if *mode != 0o160000 => Ok(Some(
                        self.repo.find_blob(*id).map_err(repo_err)?.take_data(),
                    )),
                    Some(_) => Ok(None),
                    None => Ok(Some(Vec::new())),
                }
            };
            let (a, b) = (blob(old)?, blob(new)?);
            match (a, b) {
                (Some(a), Some(b)) if !is_binary(&a) && !is_binary(&b) => {
                    hash_text_diff(&mut h, &a, &b)
                }
                _ => {
                    for side in [old, new] {
                        match side {
                            Some((_, id)) => item(&mut h, b'B', id.as_bytes()),
                            None => h.update(b"N"),
                        }
                    }
                }
            }
        }
        let id = h.try_finalize().map_err(repo_err)?;
        self.ids.insert(commit, Some(id));
        Ok(Some(id))
    }
}

/// git's rule for "binary": a NUL byte in the first 8,000 bytes.
fn is_binary(data: &[u8]) -> bool {
    data[..data.len().min(8000)].contains(&0)
}

/// One length-prefixed item: `tag`, the length of `bytes` (8 bytes, big
/// endian), `bytes`. No item can run into the next.
fn item(h: &mut gix::hash::Hasher, tag: u8, bytes: &[u8]) {
    h.update(&[tag]);
    h.update(&(bytes.len() as u64).to_be_bytes());
    h.update(bytes);
}

/// A line as an [`item`] without its newline, then `\n`, or a backslash
/// when it has none (the last line of a file without a final newline).
fn line(h: &mut gix::hash::Hasher, tag: u8, text: &[u8]) {
    match text.strip_suffix(b"\n") {
        Some(body) => {
            item(h, tag, body);
            h.update(b"\n");
        }
        None => {
            item(h, tag, text);
            h.update(b"\\");
        }
    }
}

fn hash_text_diff(h: &mut gix::hash::Hasher, old: &[u8], new: &[u8]) {
    let input = InternedInput::new(byte_lines(old), byte_lines(new));
    let diff = gix::diff::blob::diff_with_slider_heuristics(Algorithm::Histogram, &input);
    for hunk in diff.hunks() {
        h.update(b"@");
        // One line of context each side (in the old file; `^`/`$` at its
        // ends): the same line added elsewhere in the file is another change.
        let (start, end) = (hunk.before.start as usize, hunk.before.end as usize);
        match start.checked_sub(1).and_then(|i| input.before.get(i)) {
            Some(t) => line(h, b'<', input.interner[*t]),
            None => h.update(b"^"),
        }
        match input.before.get(end) {
            Some(t) => line(h, b'>', input.interner[*t]),
            None => h.update(b"$"),
        }
        for t in &input.before[start..end] {
            line(h, b'-', input.interner[*t]);
        }
        for t in &input.after[hunk.after.start as usize..hunk.after.end as usize] {
            line(h, b'+', input.interner[*t]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::PatchIds;
    use crate::git::merge::tests::Fixture;

    #[test]
    fn the_same_change_on_other_surroundings_has_the_same_id() {
        let f = Fixture::new();
        let a = f.commit(&[("f", "1\n2\n3\n4\n5\n6\n7\n8\n")], &[]);
        let change = f.commit(&[("f", "1\n2\n3\n4\nX\n6\n7\n8\n")], &[a]);
        // Elsewhere: line 1 and an unrelated file differ, same edit.
        let b = f.commit(&[("f", "0\n2\n3\n4\n5\n6\n7\n8\n"), ("g", "g\n")], &[]);
        let replayed = f.commit(&[("f", "0\n2\n3\n4\nX\n6\n7\n8\n"), ("g", "g\n")], &[b]);
        let other = f.commit(&[("f", "0\n2\n3\n4\nY\n6\n7\n8\n"), ("g", "g\n")], &[b]);
        let mut ids = PatchIds::new(&f.repo);
        assert_eq!(ids.of(change).unwrap(), ids.of(replayed).unwrap());
        assert_eq!(ids.key(change).unwrap(), ids.key(other).unwrap());
        assert_ne!(ids.of(change).unwrap(), ids.of(other).unwrap());
    }

    /// Lines were hashed undelimited: removing a last line `a` without a
    /// final newline and adding `b\n` made the bytes `-a+b\n`, as did
    /// removing the line `a+b\n`. Two different changes, one id.
    #[test]
    fn a_line_without_a_final_newline_cannot_run_into_the_next() {
        let f = Fixture::new();
        let one_old = f.commit(&[("f", "ctx\na")], &[]);
        let one = f.commit(&[("f", "ctx\nb\n")], &[one_old]);
        let two_old = f.commit(&[("f", "ctx\na+b\n")], &[]);
        let two = f.commit(&[("f", "ctx\n")], &[two_old]);
        let mut ids = PatchIds::new(&f.repo);
        assert_eq!(ids.key(one).unwrap(), ids.key(two).unwrap());
        assert_ne!(ids.of(one).unwrap(), ids.of(two).unwrap());
        // Only the final newline differs: another change.
        let three = f.commit(&[("f", "ctx\nb")], &[one_old]);
        assert_ne!(ids.of(one).unwrap(), ids.of(three).unwrap());
    }

    #[test]
    fn merge_and_empty_commits_have_no_patch_id_and_a_root_commit_has_one() {
        let f = Fixture::new();
        let root = f.commit(&[("f", "1\n")], &[]);
        let left = f.commit(&[("f", "2\n")], &[root]);
        let right = f.commit(&[("g", "2\n")], &[root]);
        let merge = f.commit(&[("f", "2\n"), ("g", "2\n")], &[left, right]);
        let empty = f.commit(&[("f", "2\n")], &[left]);
        let mut ids = PatchIds::new(&f.repo);
        assert_eq!(ids.of(merge).unwrap(), None);
        // A commit that changes nothing has no patch either: every empty
        // commit would otherwise be every other's twin.
        assert_eq!(
            (ids.of(empty).unwrap(), ids.key(empty).unwrap()),
            (None, None)
        );
        assert!(ids.of(root).unwrap().is_some());
        assert_ne!(ids.of(left).unwrap(), ids.of(right).unwrap());
    }
}
