//! A **half-removed** run: `git worktree remove` failed part way (a file it
//! could not delete) after deleting some files, and then deleted the
//! registration anyway. What is left is a directory under
//! `.loop-worktrees/<id>` that git no longer knows: its `.git` names a
//! `<common dir>/worktrees/<x>` that is gone, or is gone itself. Without the
//! admin dir its HEAD and index are lost, so what is left cannot be compared
//! with a commit; it is finished only when every file's bytes are an object
//! of this repository (nothing would be lost but the names), and kept
//! otherwise, naming the first file that is not.

use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::verify::{Stamp, Verified, hash_file};

/// Why the unregistered directory `dir` looks like a half-removed run of
/// this repository (whose common dir is `common_dir`), or `None` (another
/// clone's worktree, a plain directory holding a `.git` of its own).
pub fn recognise(common_dir: &Path, dir: &Path) -> Option<String> {
    let dot_git = dir.join(".git");
    let meta = match fs::symlink_metadata(&dot_git) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Some(
                "git no longer knows it and its .git is gone: a removal that failed part way"
                    .into(),
            );
        }
        Err(_) => return None,
    };
    if !meta.is_file() {
        return None;
    }
    let bytes = crate::fsx::read_regular(&dot_git, 4096).ok()??;
    let text = String::from_utf8_lossy(&bytes);
    let target = Path::new(text.trim().strip_prefix("gitdir:")?.trim());
    let target = if target.is_absolute() {
        target.to_path_buf()
    } else {
        dir.join(target)
    };
    let target = crate::git::repo::canonical_best_effort(&target);
    let worktrees = crate::git::repo::canonical_best_effort(&common_dir.join("worktrees"));
    let name = target.file_name()?.to_string_lossy().into_owned();
    if target.parent() != Some(worktrees.as_path()) || target.symlink_metadata().is_ok() {
        return None;
    }
    Some(format!(
        "git no longer knows it: its .git names .git/worktrees/{name}, which git deleted (a removal that failed part way)"
    ))
}

/// Every file left in `top` if each one's bytes (a symlink's target) are an
/// object of `repo`, and every directory; the `Err` names the first thing
/// that is not provably in git. The top-level `.git` file is not listed.
pub(super) fn walk_disposable(
    repo: &gix::Repository,
    top: &Path,
) -> std::result::Result<(Vec<Verified>, Vec<PathBuf>), String> {
    let (mut files, mut dirs) = (Vec::new(), Vec::new());
    let mut pending = vec![top.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries =
            fs::read_dir(&dir).map_err(|e| format!("cannot read {}: {e}", shown(&dir, top)))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("cannot read {}: {e}", shown(&dir, top)))?;
            let path = entry.path();
            let rel = shown(&path, top);
            let meta =
                fs::symlink_metadata(&path).map_err(|e| format!("cannot read {rel}: {e}"))?;
            if entry.file_name() == ".git" {
                if dir == top && meta.is_file() {
                    continue;
                }
                return Err(format!("{rel} is a repository's, not in git"));
            }
            let kind = meta.file_type();
            if kind.is_dir() {
                dirs.push(path.clone());
                pending.push(path);
                continue;
            }
            let id = if kind.is_symlink() {
                let target = fs::read_link(&path).map_err(|e| format!("cannot read {rel}: {e}"))?;
                gix::objs::compute_hash(
                    repo.object_hash(),
                    gix::objs::Kind::Blob,
                    target.as_os_str().as_bytes(),
                )
                .map_err(|e| format!("cannot hash {rel}: {e}"))?
            } else if kind.is_file() {
                hash_file(repo, &path).map_err(|e| format!("cannot hash {rel}: {e}"))?
            } else {
                return Err(format!("{rel} is not a regular file"));
            };
            if !repo.has_object(id) {
                return Err(format!(
                    "{rel} is not in git (an ignored or new file: with the registration gone, git-loop cannot tell which)"
                ));
            }
            files.push(Verified {
                path,
                stamp: Stamp::of(&meta),
            });
        }
    }
    Ok((files, dirs))
}

fn shown(path: &Path, top: &Path) -> String {
    path.strip_prefix(top).unwrap_or(path).display().to_string()
}
