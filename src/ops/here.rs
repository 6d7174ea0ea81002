//! A stand-in, until `crate::ops::infer` (the run a directory is in, being
//! built for `mark` and `path`) reaches main: the same signatures, so the
//! callers switch by their import. The directory is in run `<id>` when,
//! symlinks resolved, it is `.loop-worktrees/<id>` or anything below it and
//! the manifest records `<id>`; anything else is refused, naming it.

use std::path::{Component, Path, PathBuf};

use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::runid::RunId;

/// The directory a command runs from: `-C <DIR>` (made absolute), else the
/// current directory.
pub fn start_dir(repo: Option<&Path>) -> Result<PathBuf> {
    let cwd = || std::env::current_dir().map_err(|e| Error::io("could not read", ".", e));
    Ok(match repo {
        Some(dir) if dir.is_absolute() => dir.to_path_buf(),
        Some(dir) => cwd()?.join(dir),
        None => cwd()?,
    })
}

/// The run whose worktree holds `dir`; `usage` is the command to type
/// instead.
pub fn run_at(ctx: &Ctx, dir: &Path, usage: &str) -> Result<RunId> {
    let refuse = || Error::InvalidRunId {
        id: String::new(),
        reason: format!(
            "{} is not inside a run's worktree: name the run ({usage})",
            dir.display()
        ),
    };
    let below = match (dir.canonicalize(), ctx.loop_dir().canonicalize()) {
        (Ok(dir), Ok(loop_dir)) => dir.strip_prefix(&loop_dir).ok().map(Path::to_path_buf),
        _ => None,
    };
    let Some(Component::Normal(name)) = below.as_ref().and_then(|b| b.components().next()) else {
        return Err(refuse());
    };
    let manifest = ctx.manifest.load_or_default()?;
    match manifest.find(&name.to_string_lossy()) {
        Some(entry) => Ok(entry.id.clone()),
        None => Err(refuse()),
    }
}
