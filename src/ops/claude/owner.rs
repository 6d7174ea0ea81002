//! Which runs are the hook's own: the ownership record it writes into a run
//! it made, and the choice of id for a Claude Code name (see the parent
//! module's doc).

use serde::Deserialize;

use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::manifest::{Entry, Manifest, Status};
use crate::runid::RunId;

/// The most ids tried for one name (`<id>`, `<id>-2`, … `<id>-<MAX>`).
pub(super) const MAX_CANDIDATES: usize = 100;

/// The file, in a run's git administrative directory, that records that
/// the hook made the run, and for which Claude Code name.
const OWNER_FILE: &str = "git-loop-claude-hook";

/// The ownership record (see the module doc).
#[derive(Debug, serde::Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Owner {
    pub(super) id: String,
    pub(super) created_at: String,
    pub(super) name: String,
}

/// The ids tried for a name made into `base`, in order.
pub(super) fn candidates(base: &RunId) -> impl Iterator<Item = RunId> + '_ {
    std::iter::once(base.clone())
        .chain((2..=MAX_CANDIDATES).filter_map(move |n| RunId::parse(&format!("{base}-{n}")).ok()))
}

/// The ownership record of `entry`'s registration, if it is there and is
/// of this very run (same id, same creation instant).
pub(super) fn owner_of(ctx: &Ctx, entry: &Entry) -> Option<Owner> {
    let registrations = ctx.repo.loop_worktrees().ok()?;
    let (_, wt) = registrations.iter().find(|(name, _)| *name == entry.id)?;
    let bytes = crate::fsx::read_regular(&wt.admin_dir.join(OWNER_FILE), 64 * 1024)
        .ok()
        .flatten()?;
    let owner: Owner = serde_json::from_slice(&bytes).ok()?;
    let created_at = serde_json::to_value(entry.created_at).ok()?;
    (owner.id == entry.id && Some(owner.created_at.as_str()) == created_at.as_str())
        .then_some(owner)
}

/// Write the ownership record of the run the hook just made.
pub(super) fn record_owner(ctx: &Ctx, entry: &Entry, name: &str) -> Result<()> {
    let registrations = ctx.repo.loop_worktrees()?;
    let Some((_, wt)) = registrations.iter().find(|(n, _)| *n == entry.id) else {
        return Err(Error::Repository(format!(
            "{} is not a registered worktree",
            entry.path()
        )));
    };
    let created_at = serde_json::to_value(entry.created_at)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    let owner = Owner {
        id: entry.id.to_string(),
        created_at,
        name: name.to_owned(),
    };
    let path = wt.admin_dir.join(OWNER_FILE);
    let text = serde_json::to_string(&owner).expect("the record serializes");
    crate::fsx::open_regular(
        &path,
        std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true),
    )?
    .ok_or_else(|| Error::Repository(format!("could not create {}", path.display())))
    .and_then(|mut f| {
        std::io::Write::write_all(&mut f, text.as_bytes())
            .map_err(|e| Error::io("could not write", &path, e))
    })
}

/// What `create` does with the id `id` for the Claude Code name `name`.
pub(super) enum Choice {
    /// The hook's own active run for this name: reuse it.
    Reuse,
    /// Nothing has this id: create it.
    Create,
    /// Someone else's (or another name's) run, branch or directory: why.
    Taken(String),
}

pub(super) fn choose(
    ctx: &Ctx,
    manifest: &Manifest,
    id: &RunId,
    name: &str,
    pattern: &str,
) -> Result<Choice> {
    let id_str = id.as_str();
    if let Some(entry) = manifest.find(id_str) {
        let on_disk = std::fs::symlink_metadata(ctx.worktree_path(id_str)).is_ok();
        if entry.status == Status::Active {
            if entry.pattern == pattern && owner_of(ctx, entry).is_some_and(|o| o.name == name) {
                return Ok(Choice::Reuse);
            }
            let whose = if entry.pattern == pattern {
                "made for another name or not by this hook".to_owned()
            } else {
                format!("pattern {:?}", entry.pattern)
            };
            return Ok(Choice::Taken(format!("run {id_str} is active ({whose})")));
        }
        if on_disk {
            return Ok(Choice::Taken(format!(
                "run {id_str} ({}) still has its worktree",
                entry.status
            )));
        }
    }
    if std::fs::symlink_metadata(ctx.worktree_path(id_str)).is_ok() {
        return Ok(Choice::Taken(format!(
            "{} exists",
            crate::runid::rel_path(id_str)
        )));
    }
    let branch = crate::runid::branch_name(id_str);
    if ctx.repo.branch_exists(&branch)? {
        return Ok(Choice::Taken(format!("branch {branch} exists")));
    }
    Ok(Choice::Create)
}
