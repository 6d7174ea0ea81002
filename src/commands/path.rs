//! `git loop path <RUN_ID>` — the absolute path of a run's worktree.
//! Read-only, no mutex. `--json` prints `{"id":…,"path":…}` (absolute path).

use serde::Serialize;

use crate::commands::Ctx;
use crate::error::{Error, Result};
use crate::{Out, Report};

#[derive(Debug, Serialize)]
pub struct PathReport {
    pub id: String,
    pub path: std::path::PathBuf,
}

impl Report for PathReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        writeln!(out.stdout, "{}", self.path.display())
    }
}

pub fn run(ctx: &Ctx, id: &str) -> Result<PathReport> {
    let found = if ctx.loop_dir_exists()? {
        ctx.manifest.load()?.and_then(|m| m.find(id).cloned())
    } else {
        None
    };
    match found {
        Some(entry) => Ok(PathReport {
            path: ctx.worktree_path(&entry.id),
            id: entry.id,
        }),
        None => Err(Error::UnknownId { id: id.to_owned() }),
    }
}
