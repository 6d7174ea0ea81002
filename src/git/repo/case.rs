//! `core.ignorecase` on a case-sensitive filesystem (see [`case_overrides`]).

use std::path::Path;

use super::repo_err;
use crate::error::Result;

/// The `-c` settings every status read of the worktree at `dir` runs with
/// (git's and gix's): `core.ignoreCase=false` unless `dir` is on a
/// case-insensitive filesystem.
///
/// A repository copied from macOS or Windows keeps `core.ignorecase=true`;
/// on a case-sensitive filesystem git then matches an untracked `A.TXT`
/// against the tracked `a.txt`, calls the worktree clean, and `git worktree
/// remove` deletes `A.TXT`. Turning it off is safe wherever the two names are
/// two files; on a case-insensitive filesystem it would report a file whose
/// name's case changed as untracked (a refusal, never a deletion) and make
/// salvage's `git add -A` record both names, so there it is left alone.
pub fn case_overrides(dir: &Path) -> &'static [&'static str] {
    if case_insensitive(dir) {
        &[]
    } else {
        &["core.ignoreCase=false"]
    }
}

/// Whether the directory `dir` is on a case-insensitive filesystem (or is a
/// case-folding directory): its `.git` and `.GIT` are one file. Probed
/// without creating anything; when it cannot tell (no `.git`), `false`.
pub fn case_insensitive(dir: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let (Ok(lower), Ok(upper)) = (
        dir.join(".git").symlink_metadata(),
        dir.join(".GIT").symlink_metadata(),
    ) else {
        return false;
    };
    (lower.dev(), lower.ino()) == (upper.dev(), upper.ino())
}

/// Open the worktree at `path` for a status read, with
/// [`case_overrides`].
pub fn open_worktree(path: &Path) -> Result<gix::Repository> {
    let overrides = case_overrides(path).iter().copied();
    gix::open_opts(path, gix::open::Options::default().cli_overrides(overrides)).map_err(repo_err)
}
