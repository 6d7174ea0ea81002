//! `git loop path [<RUN_ID>]` — the absolute path of a run's worktree; with
//! no id, of the run whose worktree holds the directory it runs from
//! ([`crate::ops::infer`]: elsewhere a usage error naming that directory).
//! Read-only, no mutex. A run whose worktree is gone (cleaned up, or
//! removed by hand) is refused, `worktree-missing`, exit 1: `cd "$(git loop
//! path x)"` must not quietly land nowhere. `--json` prints `{"id":…,"path":…}` (absolute path);
//! when that path is not UTF-8 it is refused (`unrepresentable-path`, exit 1)
//! and the error document is the only output.

use std::path::Path;

use serde::Serialize;

use crate::cli::RunId;
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::output::{Out, Report};

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PathReport {
    pub id: String,
    pub path: std::path::PathBuf,
}

impl Report for PathReport {
    /// The path byte for byte, so `cd "$(git loop path x)"` works whatever
    /// bytes the repository's path holds.
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        crate::style::write_path_line(&mut *out.stdout, &self.path)
    }

    /// A path that is not UTF-8 cannot be a JSON string: refused, naming it,
    /// before anything is written (never a lossy path a script would `cd` to).
    fn check_json(&self) -> Result<()> {
        match self.path.to_str() {
            Some(_) => Ok(()),
            None => Err(Error::UnrepresentablePath {
                path: self.path.clone(),
            }),
        }
    }
}

/// The path of run `id`, or with none of the run `dir` (where the command
/// runs from) is in.
pub fn exec(ctx: &Ctx, id: Option<&RunId>, dir: &Path) -> Result<PathReport> {
    let inferred;
    let id = match id {
        Some(id) => id,
        None => {
            inferred = crate::ops::infer::run_at(ctx, dir, "git loop path <RUN_ID>")?;
            &inferred
        }
    };
    let (entry, path) = crate::ops::env::live(ctx, id)?;
    Ok(PathReport {
        path,
        id: entry.id.into(),
    })
}
