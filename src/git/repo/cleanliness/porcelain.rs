//! The pass through `git status`, for a worktree whose refs are a reftable:
//! gix's status reads `HEAD` itself (to find `.gitmodules` when neither the
//! worktree nor the index holds one), and gix cannot read a reftable's
//! `HEAD`, which names `refs/heads/.invalid`. git's own status judges what
//! the pass judges (the module doc of [`super`]): a line other than `??`
//! is a tracked change, `??` an untracked file; submodules as configured.
//! `--no-optional-locks`: reading writes nothing (no index refresh);
//! `--no-renames`: one path a line.

use std::path::Path;

use crate::error::Result;

/// Whether the worktree at `path` has tracked changes, and (when
/// `untracked` is asked for) untracked files.
pub(super) fn status(path: &Path, untracked: bool) -> Result<(bool, bool)> {
    let walk = if untracked {
        "--untracked-files=normal"
    } else {
        "--untracked-files=no"
    };
    let args = [
        "--no-optional-locks",
        "status",
        "--porcelain",
        "-z",
        "--no-renames",
        walk,
    ];
    let out = crate::git::plumbing::git_str(path, None, &args)?;
    let mut found = (false, false);
    for line in out.split('\0').filter(|l| !l.is_empty()) {
        if line.starts_with("??") {
            found.1 = true;
        } else {
            found.0 = true;
        }
    }
    Ok(found)
}
