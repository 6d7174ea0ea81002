//! Which branches are checked out, as `git branch -d` judges: the one list
//! a deletion ([`super::branch`]) and a landing (which updates the
//! checkout that has its target, `crate::ops::land::advance`) both read.
//!
//! A branch is checked out in a worktree when that worktree's `HEAD`
//! reaches it — directly (`ref: refs/heads/loop/x`) or through symbolic
//! refs (`HEAD → review → loop/x`: git refuses `git branch -d loop/x`
//! there too; deleting it would leave that checkout on an unborn branch
//! with every file staged as new) — and while `HEAD` is detached when a
//! rebase or a bisect started on it ([`BRANCH_FILES`], whose name may be a
//! symbolic ref too). Symbolic refs are followed by
//! [`crate::git::refs::chain`].

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::error::Result;
use crate::git::repo::Repo;

/// The files of a worktree's admin dir that name its branch while `HEAD`
/// is detached, and the operation each means.
pub const BRANCH_FILES: [(&str, &str); 3] = [
    ("rebase-merge/head-name", "rebase"),
    ("rebase-apply/head-name", "rebase"),
    ("BISECT_START", "bisect"),
];

/// The full ref name a branch file holds: `refs/heads/main` as a rebase
/// writes it, `main` as a bisect does.
fn named_in(admin_dir: &Path, file: &str) -> Option<String> {
    let text = crate::fsx::read_regular(&admin_dir.join(file), 4096).ok()??;
    let name = String::from_utf8_lossy(text.trim_ascii()).into_owned();
    match name.starts_with("refs/") {
        true => Some(name),
        false if name.is_empty() => None,
        false => Some(format!("refs/heads/{name}")),
    }
}

/// Whether `full` (a `HEAD`'s target, a branch file's name) reaches
/// `refs/heads/<branch>`, itself or through symbolic refs.
pub fn reaches(repo: &gix::Repository, full: &str, branch: &str) -> bool {
    let want = format!("refs/heads/{branch}");
    crate::git::refs::chain(repo, full).contains(&want)
}

/// The operation in `admin_dir` that has `branch` as its branch while
/// `HEAD` is detached (see [`BRANCH_FILES`]), if any.
pub fn working_on(repo: &gix::Repository, admin_dir: &Path, branch: &str) -> Option<&'static str> {
    BRANCH_FILES
        .iter()
        .find(|(file, _)| named_in(admin_dir, file).is_some_and(|n| reaches(repo, &n, branch)))
        .map(|(_, operation)| *operation)
}

/// Every branch (short name) checked out anywhere, and the worktree it is
/// checked out in (the first found: the main checkout first), which a
/// refusal names: each name on the way from the main checkout's `HEAD`
/// (there is none in the bare-repository layout) and every linked
/// worktree's, and from each one's branch files (see the module doc).
pub fn branches(repo: &Repo) -> Result<HashMap<String, PathBuf>> {
    let gix = repo.gix();
    let mut starts = Vec::new();
    // A bare repository's `HEAD` (the bare-repository layout) names a
    // branch but checks nothing out: as git's `branch -d` judges, it is no
    // checkout.
    if !repo.is_bare_layout()
        && let Some(head) = crate::git::refs::head_name(gix)?
    {
        starts.push((head, repo.root().to_path_buf()));
    }
    let mut admin_dirs = vec![(repo.common_dir().to_path_buf(), repo.root().to_path_buf())];
    for wt in repo.worktrees()? {
        if let Some(branch) = wt.branch {
            starts.push((format!("refs/heads/{branch}"), wt.path.clone()));
        }
        admin_dirs.push((wt.admin_dir, wt.path));
    }
    for (dir, path) in &admin_dirs {
        starts.extend(
            BRANCH_FILES
                .iter()
                .filter_map(|(f, _)| named_in(dir, f))
                .map(|name| (name, path.clone())),
        );
    }
    let mut out = HashMap::new();
    for (start, path) in starts {
        for name in crate::git::refs::chain(gix, &start) {
            if let Some(short) = name.strip_prefix("refs/heads/") {
                out.entry(short.to_owned()).or_insert_with(|| path.clone());
            }
        }
    }
    Ok(out)
}
