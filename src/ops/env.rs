//! `git loop env [<RUN_ID>]`'s operation: the run whose variables are
//! printed, and where they come from. The variables themselves are
//! [`crate::configured_command::env_for`]'s, the one list that `run`,
//! `create.post-command`, `cleanup.pre-command` and `notify.command` get:
//! `env` prints exactly that set, so `eval "$(git loop env x)"` gives a shell
//! what those commands see — the run's ports too (`GIT_LOOP_PORT`,
//! `GIT_LOOP_PORT_1`…, read from the lease file). Read-only, no mutex. A run whose worktree is gone
//! is refused (`worktree-missing`), as `path` refuses it: the variables would
//! name a directory that is not there.

use std::path::PathBuf;

use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::manifest::Entry;

/// What a run's variables are made of.
#[derive(Debug)]
pub struct RunEnv {
    pub id: String,
    /// The main work tree.
    pub root: PathBuf,
    /// The run's worktree (absolute).
    pub path: PathBuf,
    pub branch: String,
    /// The ports leased to it ([`crate::ops::ports`]), empty when none.
    pub ports: Vec<u16>,
}

impl RunEnv {
    /// The variables, in the order every configured command gets them.
    pub fn variables(&self) -> Vec<crate::configured_command::Var<'_>> {
        crate::configured_command::env_for(
            &self.id,
            &self.root,
            &self.path,
            &self.branch,
            &self.ports,
        )
    }
}

/// The variables of run `id`.
pub fn of(ctx: &Ctx, id: &str) -> Result<RunEnv> {
    let (entry, path) = live(ctx, id)?;
    Ok(RunEnv {
        id: entry.id.to_string(),
        root: ctx.repo.root().to_path_buf(),
        path,
        branch: entry.branch(),
        ports: crate::ops::ports::of(ctx, &entry)?,
    })
}

/// Run `id`'s entry and its worktree's absolute path, which exists (as a
/// directory or anything else: `path` and `env` never name one that is
/// gone). An unknown id is refused naming the nearest known one; a run whose
/// worktree is gone, `worktree-missing`. Read-only, no mutex.
pub fn live(ctx: &Ctx, id: &str) -> Result<(Entry, PathBuf)> {
    let entry = ctx.read_manifest()?.get(id)?.clone();
    let path = ctx.worktree_path(&entry.id);
    if path.symlink_metadata().is_err() {
        return Err(Error::WorktreeMissing {
            id: entry.id.to_string(),
            path: entry.path(),
        });
    }
    Ok((entry, path))
}
