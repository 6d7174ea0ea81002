//! Reading a salvage back with gix and comparing it with the worktree, file
//! by file: content (the blob id of the bytes on disk), the executable bit,
//! symlink targets, and nothing missing or extra but ignored files.

use std::collections::{HashMap, HashSet};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use gix::bstr::{BString, ByteSlice};
use gix::object::tree::EntryKind;

use super::IgnoredFiles;

type Check<T> = std::result::Result<T, String>;

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// Every entry of `commit`'s tree, by path: its kind and object id.
pub fn tree_entries(
    repo: &gix::Repository,
    commit: gix::ObjectId,
) -> Check<HashMap<BString, (EntryKind, gix::ObjectId)>> {
    let tree = repo.find_commit(commit).map_err(err)?.tree().map_err(err)?;
    let mut rec = gix::traverse::tree::Recorder::default();
    tree.traverse().breadthfirst(&mut rec).map_err(err)?;
    Ok(rec
        .records
        .into_iter()
        .filter(|e| e.mode.kind() != EntryKind::Tree)
        .map(|e| (e.filepath, (e.mode.kind(), e.oid)))
        .collect())
}

/// The ignored paths of the worktree (a directory stands for all below it).
fn ignored_paths(repo: &gix::Repository) -> Check<HashSet<BString>> {
    let index = repo.index_or_empty().map_err(err)?;
    let options = repo
        .dirwalk_options()
        .map_err(err)?
        .emit_untracked(gix::dir::walk::EmissionMode::Matching)
        .emit_ignored(Some(gix::dir::walk::EmissionMode::Matching))
        .emit_tracked(false)
        .emit_pruned(false);
    let mut collect = gix::dir::walk::delegate::Collect::default();
    let none: [&gix::bstr::BStr; 0] = [];
    repo.dirwalk(
        &index,
        none,
        &std::sync::atomic::AtomicBool::new(false),
        options,
        &mut collect,
    )
    .map_err(err)?;
    Ok(collect
        .unorded_entries
        .into_iter()
        .filter(|(e, _)| matches!(e.status, gix::dir::entry::Status::Ignored(_)))
        .map(|(e, _)| e.rela_path)
        .collect())
}

fn is_ignored(ignored: &HashSet<BString>, rel: &[u8]) -> bool {
    let mut prefix = rel;
    loop {
        if ignored.contains(prefix.as_bstr()) {
            return true;
        }
        match prefix.rfind_byte(b'/') {
            Some(i) => prefix = &prefix[..i],
            None => return false,
        }
    }
}

/// Compare the worktree at `dir` with `commit`'s tree: `Ok` with the
/// ignored files (not kept) when every other file matches, else what differs.
pub fn verify(dir: &Path, commit: gix::ObjectId) -> Check<IgnoredFiles> {
    let repo = gix::open(dir).map_err(err)?;
    let mut expected = tree_entries(&repo, commit)?;
    let ignored = ignored_paths(&repo)?;
    let mut found = IgnoredFiles::default();
    let mut stack: Vec<(BString, std::path::PathBuf)> = vec![(BString::default(), dir.into())];
    while let Some((rel, abs)) = stack.pop() {
        let entries = std::fs::read_dir(&abs).map_err(|e| format!("{}: {e}", abs.display()))?;
        for entry in entries {
            let entry = entry.map_err(err)?;
            let name = entry.file_name();
            if rel.is_empty() && name == ".git" {
                continue;
            }
            let mut path = rel.clone();
            if !path.is_empty() {
                path.push(b'/');
            }
            path.extend_from_slice(name.as_bytes());
            let meta = entry.path().symlink_metadata().map_err(err)?;
            let kept = expected.remove(&path);
            if meta.is_dir() {
                if !matches!(kept, None | Some((EntryKind::Commit, _))) {
                    return Err(format!("{path} is a directory, not a file"));
                }
                stack.push((path, entry.path()));
                continue;
            }
            let Some((kind, id)) = kept else {
                if is_ignored(&ignored, &path) {
                    found.count += 1;
                    found.bytes += meta.len();
                    found.paths.push(path.to_string());
                    continue;
                }
                return Err(format!("{path} is not in the salvage"));
            };
            let (bytes, want) = if meta.file_type().is_symlink() {
                let target = std::fs::read_link(entry.path()).map_err(err)?;
                (target.as_os_str().as_bytes().to_vec(), EntryKind::Link)
            } else if meta.is_file() {
                let exec = meta.permissions().mode() & 0o100 != 0;
                let bytes = std::fs::read(entry.path()).map_err(err)?;
                let want = if exec {
                    EntryKind::BlobExecutable
                } else {
                    EntryKind::Blob
                };
                (bytes, want)
            } else {
                return Err(format!("{path} is not a regular file or symlink"));
            };
            if kind != want {
                return Err(format!("{path}: saved as {kind:?}, is {want:?} on disk"));
            }
            let on_disk =
                gix::objs::compute_hash(repo.object_hash(), gix::objs::Kind::Blob, &bytes)
                    .map_err(err)?;
            if on_disk != id {
                return Err(format!("{path}: saved content differs from the file"));
            }
        }
    }
    if let Some(path) = expected.keys().next() {
        return Err(format!("{path} is in the salvage but not in the worktree"));
    }
    found.paths.sort();
    Ok(found)
}
