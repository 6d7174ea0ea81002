//! Discovery: the repository containing a directory, bound to its main
//! worktree (see the parent module's doc: the root, bare repositories).

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
            // gix refuses some formats outright: say which, when it is that.
            Err(e) => {
                return Err(
                    super::format::refusal_on_disk(&start).unwrap_or(Error::NotARepo {
                        detail: format!(" ({e})"),
                        path: start.clone(),
                        given: false,
                    }),
                );
            }
        };
        let main = found.main_repo().map_err(|e| Error::NotARepo {
            detail: format!(" (could not open the main repository: {e})"),
            path: start.clone(),
            given: false,
        })?;
        super::format::check(
            &canonical_best_effort(main.common_dir()),
            &main.config_snapshot(),
        )?;
        let Some(workdir) = main.workdir() else {
            // Canonical: from a linked worktree gix reaches the bare
            // repository as `<bare>/worktrees/<name>/../..`.
            let path = canonical_best_effort(main.git_dir());
            let what = match found.workdir() {
                Some(wt) => format!(
                    "{} is a worktree of the bare repository {}",
                    canonical_best_effort(wt).display(),
                    path.display()
                ),
                None => format!("{} is a bare repository", path.display()),
            };
            return Err(Error::BareRepo { path, what });
        };
        let root = workdir
            .canonicalize()
            .map_err(|e| Error::io("could not resolve", workdir, e))?;
        Ok(Repo {
            repo: main,
            here: found,
            root,
            walks: Default::default(),
        })
    }
}
