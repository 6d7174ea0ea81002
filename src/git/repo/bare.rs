//! The bare-repository layout (see the parent module's doc):
//!
//! ```text
//! project/.bare/     the bare repository (git clone --bare <url> project/.bare)
//! project/.git       a file: "gitdir: ./.bare"
//! project/main/      git worktree add main main (every branch a linked worktree)
//! ```
//!
//! The directory holding the bare git dir is the root when its `.git` names
//! that git dir (a gitfile, or the git dir itself: `git clone --bare <url>
//! project/.git`). A bare repository with no such `.git` is refused
//! (`bare-repo`) with the exact commands that set the layout up.

use std::path::{Path, PathBuf};

use super::canonical_best_effort;
use crate::error::Error;

/// The root of the layout whose bare git dir is `git_dir` (canonical): the
/// directory holding it, when that directory's `.git` is `git_dir` itself
/// or a gitfile naming it.
pub(super) fn layout_root(git_dir: &Path) -> Option<PathBuf> {
    let parent = git_dir.parent()?;
    let dot_git = parent.join(".git");
    let named = match std::fs::metadata(&dot_git).ok()? {
        m if m.is_file() => gitfile_target(&dot_git, parent)?,
        m if m.is_dir() => dot_git,
        _ => return None,
    };
    (named.canonicalize().ok()? == git_dir).then(|| parent.to_path_buf())
}

/// The git dir a gitfile `file` (in `dir`) names: `gitdir: <path>`, a
/// relative path read from `dir`, as git reads it.
fn gitfile_target(file: &Path, dir: &Path) -> Option<PathBuf> {
    let text = std::fs::read_to_string(file).ok()?;
    let line = text.lines().next()?.strip_prefix("gitdir: ")?;
    Some(dir.join(line.trim_end_matches('\r')))
}

/// The refusal of a bare repository `git_dir` (canonical) outside the
/// layout; `here` the linked worktree discovery started in, if any, and
/// `linked` every linked worktree's path (moving the repository breaks
/// their links, which `git worktree repair` mends).
pub(super) fn refusal(git_dir: PathBuf, here: Option<&Path>, linked: &[PathBuf]) -> Error {
    let what = match here {
        Some(wt) => format!(
            "{} is a worktree of the bare repository {}",
            wt.display(),
            git_dir.display()
        ),
        None => format!("{} is a bare repository", git_dir.display()),
    };
    // Already `<dir>/.bare` with nothing at `<dir>/.git`: only the file is
    // missing (nothing moves, so no link breaks).
    let only_the_file = git_dir.parent().filter(|p| {
        git_dir.file_name() == Some(".bare".as_ref()) && p.join(".git").symlink_metadata().is_err()
    });
    if let Some(parent) = only_the_file {
        return Error::BareRepo {
            what,
            setup: format!("printf 'gitdir: ./.bare\\n' > {}/.git", quote(parent)),
            project: parent.to_path_buf(),
        };
    }
    let project = project_dir(&git_dir);
    let (p, g) = (quote(&project), quote(&git_dir));
    let mut setup =
        format!("mkdir {p} && mv {g} {p}/.bare && printf 'gitdir: ./.bare\\n' > {p}/.git");
    if !linked.is_empty() {
        let paths: Vec<String> = linked.iter().map(|w| quote(w)).collect();
        setup.push_str(&format!(
            " && git -C {p} worktree repair {}",
            paths.join(" ")
        ));
    }
    Error::BareRepo {
        what,
        setup,
        project,
    }
}

/// Where the layout of `git_dir` would go: beside it, named as it is
/// without `.git` (`x.git` -> `x`), or `<name>-project` when it has no
/// such suffix (a directory cannot be moved into itself).
fn project_dir(git_dir: &Path) -> PathBuf {
    let name = git_dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = match name.strip_suffix(".git") {
        Some(stem) if !stem.is_empty() && stem != "." => stem.to_owned(),
        _ => format!("{name}-project"),
    };
    canonical_best_effort(git_dir).with_file_name(stem)
}

/// `path` as one shell word (single-quoted unless every byte is plainly
/// safe).
pub fn quote(path: &Path) -> String {
    let s = path.to_string_lossy();
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+,:@%".contains(c);
    if !s.is_empty() && s.chars().all(plain) {
        s.into_owned()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}
