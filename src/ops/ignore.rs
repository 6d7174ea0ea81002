//! The ignore line for `.loop-worktrees/`, in the file `create.ignore-file`
//! names: written by `create` and by `pool fill`, whichever first makes
//! `.loop-worktrees/`.
//!
//! In the bare-repository layout nothing is written: `.loop-worktrees/` is
//! beside the bare git dir and the user's worktrees, inside no work tree, so
//! no `git status` would ever show it (and a `.gitignore` there would be an
//! untracked file in no repository's view, `info/exclude` a line for a
//! path no work tree holds).

use std::fs::{self, OpenOptions};
use std::io::{ErrorKind, Write};

use crate::config::{IgnoreFile, keys};
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::manifest::LOOP_DIR;
use crate::output::Notes;

/// The file `create` adds `.loop-worktrees/` to (`create.ignore-file`):
/// the root `.gitignore` (the default; a tracked file, so `create` says when
/// it edits it) or `<git common dir>/info/exclude` (private to this clone).
/// Neither is ever written through a symlink.
pub struct IgnoreTarget {
    kind: IgnoreFile,
    path: std::path::PathBuf,
    /// `false` in the bare-repository layout: nothing to ignore, nothing
    /// read or written (see the module doc).
    in_work_tree: bool,
}

impl IgnoreTarget {
    pub fn of(ctx: &Ctx, kind: IgnoreFile) -> IgnoreTarget {
        let path = match kind {
            IgnoreFile::Gitignore => ctx.repo.root().join(".gitignore"),
            IgnoreFile::InfoExclude => ctx.repo.common_dir().join("info").join("exclude"),
        };
        IgnoreTarget {
            kind,
            path,
            in_work_tree: !ctx.repo.is_bare_layout(),
        }
    }

    /// git does not read a `.gitignore` that is a symlink, and git-loop never
    /// writes through one (it could point outside the repository); nor
    /// through a symlinked `info/` or `info/exclude`.
    pub fn refuse_symlink(&self) -> Result<()> {
        if !self.in_work_tree {
            return Ok(());
        }
        let refuse = |path: &std::path::Path, reason: &str| match fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => Err(Error::UnsafePath {
                path: path.to_path_buf(),
                reason: reason.to_owned(),
            }),
            _ => Ok(()),
        };
        match self.kind {
            IgnoreFile::Gitignore => refuse(
                &self.path,
                "it is a symlink: git does not read it, and git-loop will not write through it; replace it with a regular file",
            ),
            IgnoreFile::InfoExclude => {
                let reason = "it is a symlink: git-loop will not write through it; replace it with a regular file or directory";
                refuse(self.path.parent().expect("info/exclude"), reason)?;
                refuse(&self.path, reason)
            }
        }
    }

    /// Whether the file already ignores `.loop-worktrees/` with one of the
    /// usual spellings (always, in the bare-repository layout: there it is
    /// in no work tree, so [`IgnoreTarget::ensure`] is never called).
    pub fn has_loop_dir(&self) -> Result<bool> {
        if !self.in_work_tree {
            return Ok(true);
        }
        Ok(has_loop_dir_line(&read_ignore_file(&self.path)?))
    }

    /// Append `.loop-worktrees/` unless an equivalent line is already there,
    /// and say so once on stderr. Handles a missing file and a last line
    /// without a newline. Called under the mutex, so concurrent creates
    /// append once.
    pub fn ensure(&self, out: &mut Notes<'_>) -> Result<()> {
        self.refuse_symlink()?;
        let existing = read_ignore_file(&self.path)?;
        if has_loop_dir_line(&existing) {
            return Ok(());
        }
        if self.kind == IgnoreFile::InfoExclude {
            let dir = self.path.parent().expect("info/exclude");
            match fs::create_dir(dir) {
                Err(e) if e.kind() != ErrorKind::AlreadyExists => {
                    return Err(Error::io("could not create", dir, e));
                }
                _ => {}
            }
        }
        let mut line = String::new();
        if !existing.is_empty() && !existing.ends_with(b"\n") {
            line.push('\n');
        }
        line.push_str(LOOP_DIR);
        line.push_str("/\n");
        // O_NOFOLLOW: a symlink that appeared since the check is refused too.
        let Some(mut file) =
            crate::fsx::open_regular(&self.path, OpenOptions::new().create(true).append(true))?
        else {
            return Err(Error::io(
                "could not create",
                &self.path,
                std::io::Error::from(ErrorKind::NotFound),
            ));
        };
        file.write_all(line.as_bytes())
            .map_err(|e| Error::io("could not write", &self.path, e))?;
        match self.kind {
            // Short, one name (the git config key a git user types), and
            // the one command that chooses the other file, as git's hints.
            IgnoreFile::Gitignore => {
                out.note(format_args!("added {LOOP_DIR}/ to .gitignore"));
                out.note(format_args!(
                    "hint: to keep it in .git/info/exclude instead: git config {} {}",
                    keys::CREATE_IGNORE_FILE.git,
                    IgnoreFile::InfoExclude.as_str(),
                ));
            }
            IgnoreFile::InfoExclude => {
                out.note(format_args!("added {LOOP_DIR}/ to {}", self.path.display()))
            }
        }
        Ok(())
    }
}

/// Far above any real ignore file; a larger file is refused unread.
const IGNORE_FILE_CAP: u64 = 64 << 20;

/// An ignore file, read without following a symlink; empty when absent.
fn read_ignore_file(path: &std::path::Path) -> Result<Vec<u8>> {
    Ok(crate::fsx::read_regular(path, IGNORE_FILE_CAP)?.unwrap_or_default())
}

/// Whether an ignore file already ignores `.loop-worktrees/` with one of
/// the usual spellings.
fn has_loop_dir_line(bytes: &[u8]) -> bool {
    String::from_utf8_lossy(bytes).lines().any(|l| {
        let l = l.trim_end();
        let l = l.strip_prefix('/').unwrap_or(l);
        l.strip_suffix('/').unwrap_or(l) == LOOP_DIR
    })
}
