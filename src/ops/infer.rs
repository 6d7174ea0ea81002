//! The run a directory is in: `git loop mark <STATUS>`, `path`, `activity`
//! and `env` (and `claude-hook activity`, from its hook's `cwd`),
//! typed with no run id inside a run's worktree, act on that run.
//!
//! The directory is the one the command runs from: `-C <DIR>` when given
//! (git's own meaning of `-C`: as if started there), else the current
//! directory. It is in run `<id>` when, symlinks resolved, it is
//! `.loop-worktrees/<id>` or anything below it, at any depth, and the
//! manifest records `<id>`. Judged by the path, not by asking git which
//! worktree holds it: a run's worktree is always `.loop-worktrees/<id>`, and
//! the name is what the manifest records.
//!
//! Never a guess. Anything else is refused, naming the directory and what it
//! is — outside `.loop-worktrees/` (the main checkout, say), in a pool member
//! (`.loop-worktrees/.pool/…`, which is no run), or in a directory of
//! `.loop-worktrees/` no run records — with code `usage` and exit 2, the
//! class of the missing argument it stands for (what these commands said
//! before they could infer a run).

use std::path::{Component, Path, PathBuf};

use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::ops::pool::POOL_DIR;
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

/// The run whose worktree holds `dir` (see the module doc); `usage` names
/// the command to type instead (`git loop mark <RUN_ID> <STATUS>`).
pub fn run_at(ctx: &Ctx, dir: &Path, usage: &str) -> Result<RunId> {
    let refuse = |what: String| Error::NotInRun {
        dir: dir.to_path_buf(),
        what,
        help: format!(
            "run it inside .loop-worktrees/<RUN_ID>/, or name the run: {usage} (`git loop list` shows the runs)"
        ),
    };
    let below = match (dir.canonicalize(), ctx.loop_dir().canonicalize()) {
        (Ok(dir), Ok(loop_dir)) => dir.strip_prefix(&loop_dir).ok().map(Path::to_path_buf),
        _ => None,
    };
    let Some(Component::Normal(name)) = below.as_ref().and_then(|b| b.components().next()) else {
        return Err(refuse(String::new()));
    };
    let name = name.to_string_lossy();
    let rel = crate::runid::rel_path(&name);
    if name == POOL_DIR {
        return Err(refuse(format!(
            " (it is in {rel}/, the warm pool: its members are no runs)"
        )));
    }
    let manifest = ctx.manifest.load_or_default()?;
    match manifest.find(&name) {
        Some(entry) => Ok(entry.id.clone()),
        None => Err(refuse(format!(" (it is in {rel}, which no run records)"))),
    }
}
