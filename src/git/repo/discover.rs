//! Discovery: the repository containing a directory, bound to its main
//! worktree, or to the directory of the bare-repository layout (see the
//! parent module's doc: the root, bare repositories).

use std::path::Path;

use super::{Repo, canonical_best_effort};
use crate::error::{Error, Result};

impl Repo {
    /// Discover the repository containing `start`, then bind its main worktree.
    pub fn discover(start: &Path) -> Result<Repo> {
        let start = std::path::absolute(start).unwrap_or_else(|_| start.to_path_buf());
        if !start.is_dir() {
            return Err(Error::NotARepo {
                detail: " (no such directory)".into(),
                path: start,
                given: false,
            });
        }
        let found = match gix::discover_with_environment_overrides(&start) {
            Ok(found) => found,
            Err(e) => return Err(not_found(&start, e)),
        };
        let mut main = found.main_repo().map_err(|e| Error::NotARepo {
            detail: format!(" (could not open the main repository: {e})"),
            path: start.clone(),
            given: false,
        })?;
        super::format::check(
            &canonical_best_effort(main.common_dir()),
            &main.config_snapshot(),
        )?;
        // Bare as git judges it: git reads `core.bare` from the main
        // worktree's `config.worktree` too (`extensions.worktreeConfig`;
        // `git sparse-checkout` in a linked worktree moves `core.bare`
        // there), which gix, opened through the layout's `.git` file, does
        // not when it decides the work tree: it would take `project/` for one.
        let bare =
            main.workdir().is_none() || main.config_snapshot().boolean("core.bare") == Some(true);
        let root = match main.workdir().filter(|_| !bare) {
            Some(workdir) => workdir
                .canonicalize()
                .map_err(|e| Error::io("could not resolve", workdir, e))?,
            None => layout_root(&main, &found)?,
        };
        // The layout's worktrees log ref updates (git judges a worktree not
        // bare); git-loop, working from the bare repository, logs them the
        // same unless the user set `core.logAllRefUpdates`: in process here,
        // through git by [`Repo::git`].
        let log_refs = bare
            && main
                .config_snapshot()
                .string("core.logAllRefUpdates")
                .is_none();
        if log_refs {
            main.refs.write_reflog = gix::refs::store::WriteReflog::Normal;
        }
        Ok(Repo {
            repo: main,
            here: found,
            root,
            bare,
            log_refs,
            walks: Default::default(),
        })
    }
}

/// Why no repository was found from `start` (gix's `e`): a format gix
/// refuses outright, named when it is that; else not a repository.
fn not_found(start: &Path, e: impl std::fmt::Display) -> Error {
    // No repository anywhere up: said once, as git says it (not the path
    // again in gix's words).
    let nothing_up = std::env::var_os("GIT_DIR").is_none()
        && !start.ancestors().any(|d| d.join(".git").exists());
    let detail = match nothing_up {
        true => " (nor any of its parents)".to_owned(),
        false => format!(" ({e})"),
    };
    super::format::refusal_on_disk(start).unwrap_or(Error::NotARepo {
        detail,
        path: start.to_path_buf(),
        given: false,
    })
}

/// The root of the bare-repository layout `main` belongs to (found from
/// `found`), or the refusal of a bare repository outside it.
fn layout_root(main: &gix::Repository, found: &gix::Repository) -> Result<std::path::PathBuf> {
    // Canonical: from a linked worktree gix reaches the bare repository as
    // `<bare>/worktrees/<name>/../..`.
    let git_dir = canonical_best_effort(main.git_dir());
    match super::bare::layout_root(&git_dir) {
        // Not yet on reftable refs: gix reads a bare repository's `HEAD`
        // for every tree diff (an index from `HEAD`'s tree), and a
        // reftable leaves only a stub there.
        Some(_) if crate::git::refs::reftable(main) => Err(Error::UnsupportedRepository {
            path: git_dir,
            extension: "extensions.refStorage".into(),
            value: "reftable".into(),
        }),
        Some(root) => Ok(root),
        None => Err(refusal(main, found, git_dir)),
    }
}

/// The refusal of the bare repository `main` (at `git_dir`, canonical)
/// outside the layout, found from `found`.
fn refusal(main: &gix::Repository, found: &gix::Repository, git_dir: std::path::PathBuf) -> Error {
    // Named as a worktree only when it is a linked one.
    let here = found
        .workdir()
        .filter(|_| found.git_dir() != found.common_dir())
        .map(canonical_best_effort);
    let linked: Vec<_> = main
        .worktrees()
        .unwrap_or_default()
        .iter()
        .filter_map(|p| p.base().ok())
        .collect();
    super::bare::refusal(git_dir, here.as_deref(), &linked)
}
