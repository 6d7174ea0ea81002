//! The evidence `judge` reads from an attempt's committed tip, in memory:
//! whether it merges cleanly into its base as the base is now, what it
//! changes (its hunks, against the merge base) and how much.
//!
//! **A hunk** is one hunk of a histogram line diff of a file between the
//! merge base of the base's tip and the attempt's tip, and the tip: the
//! file's path, the lines it removes and the lines it adds, byte for byte
//! (whitespace counts), without line numbers or context, so the same fix
//! made by two attempts is one hunk wherever else they differ. A binary
//! file (a NUL in its first 8,000 bytes, git's rule) or a submodule change
//! is one hunk: its path and its old and new object ids. A file added or
//! deleted is diffed against the empty file.
//!
//! **linesChanged** is the number of lines removed plus added over every
//! text hunk; **filesChanged** the number of paths changed (no rename
//! detection: a rename is a deletion and an addition).

use std::collections::HashSet;

use gix::ObjectId;
use gix::bstr::BString;
use gix::diff::blob::{Algorithm, InternedInput, sources::byte_lines};

use crate::error::{Error, Result};
use crate::git::merge::Merger;

fn repo_err(e: impl std::fmt::Display) -> Error {
    Error::Repository(e.to_string())
}

/// One hunk (see the module doc): path, removed lines, added lines (each
/// with its newline, if it has one).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Hunk {
    Text {
        path: BString,
        removed: Vec<Vec<u8>>,
        added: Vec<Vec<u8>>,
    },
    Binary {
        path: BString,
        old: Option<ObjectId>,
        new: Option<ObjectId>,
    },
}

/// What an attempt's tip shows.
#[derive(Debug, Clone, Default)]
pub struct Evidence {
    pub conflicts_with_base: bool,
    pub hunks: HashSet<Hunk>,
    pub lines_changed: u64,
    pub files_changed: u64,
}

/// The evidence of `tip` against `base` (the base's current tip).
pub fn read(merger: &Merger, base: ObjectId, tip: ObjectId) -> Result<Evidence> {
    let merged = merger.merge_commits(base, tip)?;
    let repo = merger.repo();
    let tree_of = |commit: ObjectId| -> Result<ObjectId> {
        Ok(repo
            .find_commit(commit)
            .map_err(repo_err)?
            .tree_id()
            .map_err(repo_err)?
            .detach())
    };
    let old_tree = match merger.merge_base(base, tip)? {
        Some(mb) => tree_of(mb)?,
        None => ObjectId::empty_tree(repo.object_hash()),
    };
    let new_tree = tree_of(tip)?;
    let mut evidence = Evidence {
        conflicts_with_base: !merged.is_clean(),
        ..Evidence::default()
    };
    for (path, old, new) in changes(repo, old_tree, new_tree)? {
        evidence.files_changed += 1;
        let blob = |side: Option<(u16, ObjectId)>| -> Result<Option<Vec<u8>>> {
            match side {
                Some((mode, id)) if mode != 0o160000 => {
                    Ok(Some(repo.find_blob(id).map_err(repo_err)?.take_data()))
                }
                Some(_) => Ok(None),
                None => Ok(Some(Vec::new())),
            }
        };
        match (blob(old)?, blob(new)?) {
            (Some(a), Some(b)) if !is_binary(&a) && !is_binary(&b) => {
                let input = InternedInput::new(byte_lines(&a), byte_lines(&b));
                let diff =
                    gix::diff::blob::diff_with_slider_heuristics(Algorithm::Histogram, &input);
                for hunk in diff.hunks() {
                    let lines = |tokens: &[gix::diff::blob::Token]| -> Vec<Vec<u8>> {
                        tokens.iter().map(|t| input.interner[*t].to_vec()).collect()
                    };
                    let removed =
                        lines(&input.before[hunk.before.start as usize..hunk.before.end as usize]);
                    let added =
                        lines(&input.after[hunk.after.start as usize..hunk.after.end as usize]);
                    evidence.lines_changed += (removed.len() + added.len()) as u64;
                    evidence.hunks.insert(Hunk::Text {
                        path: path.clone(),
                        removed,
                        added,
                    });
                }
            }
            _ => {
                evidence.hunks.insert(Hunk::Binary {
                    path: path.clone(),
                    old: old.map(|(_, id)| id),
                    new: new.map(|(_, id)| id),
                });
            }
        }
    }
    Ok(evidence)
}

/// git's rule for "binary": a NUL byte in the first 8,000 bytes.
fn is_binary(data: &[u8]) -> bool {
    data[..data.len().min(8000)].contains(&0)
}

type Side = Option<(u16, ObjectId)>;

/// The files that differ between two trees, sorted by path: (path, old,
/// new), `None` on the side where the file does not exist.
fn changes(
    repo: &gix::Repository,
    old: ObjectId,
    new: ObjectId,
) -> Result<Vec<(BString, Side, Side)>> {
    let old = repo.find_tree(old).map_err(repo_err)?;
    let new = repo.find_tree(new).map_err(repo_err)?;
    let mut recorder = gix::diff::tree::Recorder::default();
    gix::diff::tree(
        gix::objs::TreeRefIter::from_bytes(&old.data, repo.object_hash()),
        gix::objs::TreeRefIter::from_bytes(&new.data, repo.object_hash()),
        &mut gix::diff::tree::State::default(),
        &repo.objects,
        &mut recorder,
    )
    .map_err(repo_err)?;
    use gix::diff::tree::recorder::Change;
    let side =
        |mode: gix::objs::tree::EntryMode, id| (!mode.is_tree()).then_some((mode.value(), id));
    let mut out: Vec<(BString, Side, Side)> = recorder
        .records
        .into_iter()
        .filter_map(|change| match change {
            Change::Addition {
                entry_mode,
                oid,
                path,
                ..
            } => side(entry_mode, oid).map(|s| (path, None, Some(s))),
            Change::Deletion {
                entry_mode,
                oid,
                path,
                ..
            } => side(entry_mode, oid).map(|s| (path, Some(s), None)),
            Change::Modification {
                previous_entry_mode,
                previous_oid,
                entry_mode,
                oid,
                path,
            } => {
                let (old, new) = (
                    side(previous_entry_mode, previous_oid),
                    side(entry_mode, oid),
                );
                (old.is_some() || new.is_some()).then_some((path, old, new))
            }
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// The share of `mine` that some other passing attempt's hunks (`others`)
/// also hold: agreed hunks / `mine`'s hunks, 0 when it has none.
pub fn agreement<'a>(mine: &HashSet<Hunk>, others: impl Iterator<Item = &'a HashSet<Hunk>>) -> f64 {
    if mine.is_empty() {
        return 0.0;
    }
    let others: Vec<&HashSet<Hunk>> = others.collect();
    let agreed = mine
        .iter()
        .filter(|h| others.iter().any(|o| o.contains(*h)))
        .count();
    agreed as f64 / mine.len() as f64
}
