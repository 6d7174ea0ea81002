//! The checks of [`super::finish_if_only_git`] (listed in the parent module's
//! doc): what the worktree's HEAD is, whether it is locked or mid-operation,
//! whether its index stages anything, and a walk that hashes every file
//! against HEAD's tree; [`only_git`] runs them in that order. Nothing here
//! deletes anything; the removal (of exactly the [`Verified`] files) is the
//! parent's.

use std::collections::HashMap;
use std::fs::{self, OpenOptions};
use std::io::ErrorKind;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use gix::bstr::{BString, ByteVec};

use crate::error::{Error, Result};

/// A file that was verified, and how it looked then.
pub(super) struct Verified {
    pub(super) path: PathBuf,
    pub(super) stamp: Stamp,
}

#[derive(PartialEq, Eq)]
pub(super) struct Stamp {
    dev: u64,
    ino: u64,
    len: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
    symlink: bool,
}

impl Stamp {
    pub(super) fn of(meta: &fs::Metadata) -> Stamp {
        Stamp {
            dev: meta.dev(),
            ino: meta.ino(),
            len: meta.len(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
            symlink: meta.file_type().is_symlink(),
        }
    }
}

fn repo_err(e: impl std::fmt::Display) -> Error {
    Error::Repository(e.to_string())
}

/// What [`super::finish_if_only_git`] verified: the worktree's HEAD,
/// whether it has an index, and exactly the files and directories to delete.
pub(super) struct OnlyGit {
    pub(super) head: gix::ObjectId,
    pub(super) has_index: bool,
    pub(super) files: Vec<Verified>,
    pub(super) dirs: Vec<PathBuf>,
}

/// Every check of the parent module's doc, in its order: HEAD names a
/// commit; not locked, no operation in progress; a detached HEAD held by a
/// branch or tag; the index stages nothing; every file of `dir` (a missing
/// `dir` has none) is in HEAD's tree. The inner `Err` is the first refusal.
pub(super) fn only_git(
    repo: &gix::Repository,
    dir: &Path,
    id: &str,
    admin_dir: &Path,
) -> Result<std::result::Result<OnlyGit, String>> {
    let (head, detached) = match head_commit(repo, admin_dir)? {
        Ok(found) => found,
        Err(why) => return Ok(Err(why)),
    };
    if let Some(why) = refuse_state(admin_dir) {
        return Ok(Err(why));
    }
    if detached && !crate::safety::held_by_a_ref(repo, head, None)? {
        return Ok(Err(format!(
            "its detached HEAD {} is on no branch or tag",
            super::short(head)
        )));
    }
    let tree = tree_of(repo, head)?;
    let has_index = match check_index(repo, admin_dir, &tree) {
        Ok(has) => has,
        Err(why) => return Ok(Err(why)),
    };
    let (files, dirs) = match fs::symlink_metadata(dir) {
        Ok(meta) if meta.is_dir() => match walk(repo, dir, admin_dir, &tree) {
            Ok(found) => found,
            Err(why) => return Ok(Err(why)),
        },
        Ok(_) => {
            return Ok(Err(format!(
                "{} is not a directory",
                crate::runid::rel_path(id)
            )));
        }
        Err(e) if e.kind() == ErrorKind::NotFound => (Vec::new(), Vec::new()),
        Err(e) => return Err(Error::io("could not read", dir, e)),
    };
    Ok(Ok(OnlyGit {
        head,
        has_index,
        files,
        dirs,
    }))
}

/// The commit the worktree's HEAD names, and whether HEAD is detached.
/// The inner `Err` is a refusal.
fn head_commit(
    repo: &gix::Repository,
    admin_dir: &Path,
) -> Result<std::result::Result<(gix::ObjectId, bool), String>> {
    let head = match crate::git::refs::admin_head(repo, admin_dir)? {
        Some(head) => head,
        None => return Ok(Err("its HEAD cannot be read".into())),
    };
    if let crate::git::refs::Value::Symbolic(name) = &head {
        let name = name.as_str();
        let found = crate::git::refs::find(repo, name).ok().flatten();
        let Some(value) = found else {
            return Ok(Err(format!("its HEAD names {name}, which does not exist")));
        };
        let Some(id) = crate::git::refs::peel(repo, &value) else {
            return Ok(Err(format!("its HEAD {name} does not resolve")));
        };
        return Ok(match commit_exists(repo, id) {
            true => Ok((id, false)),
            false => Err(format!("its HEAD {name} is not a commit")),
        });
    }
    match head.id() {
        Some(id) if commit_exists(repo, id) => Ok(Ok((id, true))),
        _ => Ok(Err("its HEAD does not name a commit".into())),
    }
}

fn commit_exists(repo: &gix::Repository, id: gix::ObjectId) -> bool {
    repo.find_commit(id).is_ok()
}

/// Locked, or an operation in progress: the refusal.
fn refuse_state(admin_dir: &Path) -> Option<String> {
    if fs::symlink_metadata(admin_dir.join("locked")).is_ok() {
        return Some("locked".into());
    }
    crate::safety::operation_in_progress(admin_dir)
        .map(|(name, _)| format!("an operation is in progress in it ({name})"))
}

/// Every blob and symlink of `commit`'s tree by path: (is a symlink, id).
type Tree = HashMap<BString, (bool, gix::ObjectId)>;

fn tree_of(repo: &gix::Repository, commit: gix::ObjectId) -> Result<Tree> {
    let tree = repo
        .find_commit(commit)
        .map_err(repo_err)?
        .tree()
        .map_err(repo_err)?;
    let mut recorder = gix::traverse::tree::Recorder::default();
    tree.traverse()
        .breadthfirst(&mut recorder)
        .map_err(repo_err)?;
    Ok(recorder
        .records
        .into_iter()
        .filter(|e| e.mode.is_blob_or_symlink())
        .map(|e| (e.filepath, (e.mode.is_link(), e.oid)))
        .collect())
}

/// Whether there is an index; the inner `Err` is a refusal (staged work, or
/// an index this cannot judge).
fn check_index(
    repo: &gix::Repository,
    admin_dir: &Path,
    tree: &Tree,
) -> std::result::Result<bool, String> {
    let path = admin_dir.join("index");
    match fs::symlink_metadata(&path) {
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(false),
        Ok(meta) if meta.is_file() => {}
        _ => return Err("its index is not a regular file".into()),
    }
    let index = gix::index::File::at(&path, repo.object_hash(), false, Default::default())
        .map_err(|e| format!("its index cannot be read: {e}"))?;
    if index.link().is_some() || index.is_sparse() {
        return Err("its index is split or sparse; not judged".into());
    }
    for entry in index.entries() {
        let at = entry.path(&index);
        if entry.stage() != gix::index::entry::Stage::Unconflicted {
            return Err(format!("{at} has a merge conflict staged"));
        }
        match tree.get(at) {
            Some((_, id)) if *id == entry.id => {}
            Some(_) => return Err(format!("{at} has staged changes")),
            None => return Err(format!("{at} is staged but not in HEAD")),
        }
    }
    Ok(true)
}

/// A file found in the worktree, with the blob HEAD's tree has at its path.
struct Candidate {
    path: PathBuf,
    rel: BString,
    meta: fs::Metadata,
    expected: gix::ObjectId,
}

/// Walk the worktree and verify every file against `tree`; list every
/// directory. The `Err` is a refusal naming the first thing not in git.
/// Cheap checks come first (names, kinds, then sizes), so a worktree with an
/// extra or edited file is refused before much is hashed.
fn walk(
    repo: &gix::Repository,
    top: &Path,
    admin_dir: &Path,
    tree: &Tree,
) -> std::result::Result<(Vec<Verified>, Vec<PathBuf>), String> {
    let (candidates, dirs) = list(top, admin_dir, tree)?;
    check_sizes(repo, &candidates)?;
    Ok((hash_all(repo, candidates)?, dirs))
}

/// What one entry of the walk is, once its name and kind are judged.
enum Found {
    /// The top-level `.git` file, pointing at this registration.
    DotGit,
    /// A directory to walk into (its path, and relative to the top).
    Dir(PathBuf, BString),
    /// A file or symlink at a path where HEAD's tree has one.
    File(Box<Candidate>),
}

/// Walk `top` (never following a symlink): every directory, and every file
/// as a [`Candidate`] once its name and kind match HEAD's tree.
fn list(
    top: &Path,
    admin_dir: &Path,
    tree: &Tree,
) -> std::result::Result<(Vec<Candidate>, Vec<PathBuf>), String> {
    let mut candidates = Vec::new();
    let mut dirs = Vec::new();
    let mut pending: Vec<(PathBuf, BString)> = vec![(top.to_path_buf(), BString::default())];
    while let Some((dir, rel)) = pending.pop() {
        let entries =
            fs::read_dir(&dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
            match judge(&entry, &rel, admin_dir, tree)? {
                Found::DotGit => {}
                Found::Dir(path, rel_path) => {
                    dirs.push(path.clone());
                    pending.push((path, rel_path));
                }
                Found::File(candidate) => candidates.push(*candidate),
            }
        }
    }
    Ok((candidates, dirs))
}

/// Judge one directory entry (in the directory at `rel`) by its name and
/// kind: a `.git` only as the top-level file pointing here, no special
/// files, a file or symlink only where HEAD's tree has one of that kind.
fn judge(
    entry: &fs::DirEntry,
    rel: &BString,
    admin_dir: &Path,
    tree: &Tree,
) -> std::result::Result<Found, String> {
    let name = entry.file_name();
    let path = entry.path();
    let mut rel_path = rel.clone();
    if !rel_path.is_empty() {
        rel_path.push_byte(b'/');
    }
    rel_path.push_str(name.as_bytes());
    let meta = fs::symlink_metadata(&path).map_err(|e| format!("cannot read {rel_path}: {e}"))?;
    if name == ".git" {
        if rel.is_empty() && meta.is_file() {
            check_dot_git(&path, admin_dir)?;
            return Ok(Found::DotGit);
        }
        return Err(format!(
            "{rel_path} is not in git (a repository inside it?)"
        ));
    }
    let kind = meta.file_type();
    if kind.is_dir() {
        return Ok(Found::Dir(path, rel_path));
    }
    if !kind.is_symlink() && !kind.is_file() {
        return Err(format!("{rel_path} is not a regular file"));
    }
    let Some((tree_link, expected)) = tree.get(&rel_path) else {
        return Err(format!("{rel_path} is not in git"));
    };
    if *tree_link != kind.is_symlink() {
        return Err(format!("{rel_path} differs from git"));
    }
    Ok(Found::File(Box::new(Candidate {
        path,
        rel: rel_path,
        meta,
        expected: *expected,
    })))
}

/// Every candidate's size is its blob's (no hashing yet).
fn check_sizes(
    repo: &gix::Repository,
    candidates: &[Candidate],
) -> std::result::Result<(), String> {
    for c in candidates {
        let size = repo.find_header(c.expected).map(|h| h.size()).ok();
        if size != Some(c.meta.len()) {
            return Err(format!("{} differs from git", c.rel));
        }
    }
    Ok(())
}

/// Hash every candidate (a symlink's target, a file's content) and compare
/// it with its blob; the verified files, with how they looked when listed.
fn hash_all(
    repo: &gix::Repository,
    candidates: Vec<Candidate>,
) -> std::result::Result<Vec<Verified>, String> {
    let mut files = Vec::with_capacity(candidates.len());
    for c in candidates {
        let rel = &c.rel;
        let id = if c.meta.file_type().is_symlink() {
            let target = fs::read_link(&c.path).map_err(|e| format!("cannot read {rel}: {e}"))?;
            gix::objs::compute_hash(
                repo.object_hash(),
                gix::objs::Kind::Blob,
                target.as_os_str().as_bytes(),
            )
            .map_err(|e| format!("cannot hash {rel}: {e}"))?
        } else {
            hash_file(repo, &c.path).map_err(|e| format!("cannot hash {rel}: {e}"))?
        };
        if id != c.expected {
            return Err(format!("{rel} differs from git"));
        }
        files.push(Verified {
            path: c.path,
            stamp: Stamp::of(&c.meta),
        });
    }
    Ok(files)
}

/// The top-level `.git` file must point at this registration.
fn check_dot_git(path: &Path, admin_dir: &Path) -> std::result::Result<(), String> {
    let text = crate::fsx::read_regular(path, 4096)
        .ok()
        .flatten()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    let points_here = text
        .trim()
        .strip_prefix("gitdir:")
        .map(|p| crate::git::repo::canonical_best_effort(Path::new(p.trim())))
        == Some(crate::git::repo::canonical_best_effort(admin_dir));
    if points_here {
        Ok(())
    } else {
        Err(".git does not point at this repository's registration".into())
    }
}

pub(super) fn hash_file(
    repo: &gix::Repository,
    path: &Path,
) -> std::result::Result<gix::ObjectId, String> {
    let mut file = crate::fsx::open_regular(path, OpenOptions::new().read(true))
        .map_err(|e| e.to_string())?
        .ok_or_else(|| "it vanished".to_owned())?;
    let len = file.metadata().map_err(|e| e.to_string())?.len();
    gix::objs::compute_stream_hash(
        repo.object_hash(),
        gix::objs::Kind::Blob,
        &mut file,
        len,
        &mut gix::progress::Discard,
        &std::sync::atomic::AtomicBool::new(false),
    )
    .map_err(|e| e.to_string())
}
