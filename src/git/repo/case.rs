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

/// gix's status compares file times to the nanosecond, as git built with
/// `USE_NSEC` does: an entry is *racy* (its file's content read, not only
/// its stat) when its file was written at or after the index itself, to
/// the nanosecond, rather than in the same second. Right after a checkout
/// of 10,000 files nearly every entry shares the index's second, and every
/// status read would otherwise read every file. As sound as git's rule: a
/// file changed after the index was written has a later or equal mtime
/// (equal: racy, read); on a filesystem without nanoseconds both are `0`
/// and the second decides, as before.
const NSEC: &str = "gitoxide.core.useNsec=true";

/// Open the worktree at `path` for a status read, with
/// [`case_overrides`] and [`NSEC`].
pub fn open_worktree(path: &Path) -> Result<gix::Repository> {
    let overrides = case_overrides(path).iter().copied().chain([NSEC]);
    gix::open_opts(path, gix::open::Options::default().cli_overrides(overrides)).map_err(repo_err)
}
