//! Building the salvage commit with git plumbing and a temporary index: the
//! worktree's own index is copied, never written.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::git::plumbing::git_str;

/// The temporary index, removed when dropped (also after a failure).
struct TempIndex(PathBuf);

impl Drop for TempIndex {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The salvage of the worktree at `dir` (admin dir `admin_dir`, `HEAD` at
/// `head`): `I`, a commit of its index's tree (first parent `head`), then
/// `W`, a commit whose tree is the worktree — tracked changes and untracked
/// files that are not ignored, what `git add -A` would stage — with parents
/// `[head, I]` and `message`; with `force`, those ignored paths too (in
/// `W` only: a hand-off's files `create.copy` selects). Returns `W`.
pub fn build(
    dir: &Path,
    admin_dir: &Path,
    head: &str,
    message: &str,
    force: &[String],
) -> Result<String> {
    let tmp = TempIndex(admin_dir.join("git-loop-salvage.index"));
    // A leftover of a salvage killed part way is replaced, never written
    // through (the copy would follow a symlink left in its place).
    let _ = std::fs::remove_file(&tmp.0);
    match std::fs::copy(admin_dir.join("index"), &tmp.0) {
        Ok(_) => {}
        // No index yet: an empty one (git creates it).
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let _ = std::fs::remove_file(&tmp.0);
        }
        Err(e) => return Err(Error::io("could not copy the index to", &tmp.0, e)),
    }
    let index = Some(tmp.0.as_path());
    let index_tree = git_str(dir, index, &["write-tree"])?;
    // Every untracked file, whatever core.ignorecase says (see `case_overrides`).
    let mut add: Vec<&str> = crate::git::repo::case_overrides(dir)
        .iter()
        .flat_map(|kv| ["-c", kv])
        .collect();
    add.extend(["add", "-A", "--", "."]);
    git_str(dir, index, &add)?;
    // In batches: a command line never outgrows the system's limit.
    for batch in force.chunks(1000) {
        let mut args = vec!["add", "-f", "--"];
        args.extend(batch.iter().map(String::as_str));
        git_str(dir, index, &args)?;
    }
    let tree = git_str(dir, index, &["write-tree"])?;
    let index_commit = git_str(
        dir,
        None,
        &[
            "commit-tree",
            &index_tree,
            "-p",
            head,
            "-m",
            "git-loop salvage: index",
        ],
    )?;
    git_str(
        dir,
        None,
        &[
            "commit-tree",
            &tree,
            "-p",
            head,
            "-p",
            &index_commit,
            "-m",
            message,
        ],
    )
}
