//! `pool status`: each member and its state, claimed and checked one at a
//! time (also what `fill` and `drain` report after they are done).

use serde::Serialize;

use super::check::unfit;
use super::{Claim, Member, members};
use crate::ctx::Ctx;
use crate::error::Result;
use crate::worktree::Remover;

/// One member.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct MemberState {
    pub name: String,
    pub path: String,
    /// The commit its HEAD is detached at (from its name).
    pub commit: Option<String>,
    /// `"ready"`, `"busy"` (claimed by a create, fill or drain right now) or
    /// `"unfit"` (fails its checks: the next create or fill discards it).
    pub state: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// What `pool status` found.
#[derive(Debug)]
pub struct Surveyed {
    /// `pool.size`.
    pub size: usize,
    pub members: Vec<MemberState>,
}

pub fn status(ctx: &Ctx) -> Result<Surveyed> {
    Ok(Surveyed {
        size: ctx.settings()?.pool_size.value,
        members: survey_if_any(ctx)?,
    })
}

pub(super) fn describe(m: &Member, state: &'static str, reason: Option<String>) -> MemberState {
    MemberState {
        name: m.name.clone(),
        path: m.rel(),
        commit: m.commit.map(|c| c.to_string()),
        state,
        reason,
    }
}

/// [`survey`], or no members when there is no `.loop-worktrees/`.
pub(super) fn survey_if_any(ctx: &Ctx) -> Result<Vec<MemberState>> {
    if ctx.loop_dir_exists()? {
        survey(ctx)
    } else {
        Ok(Vec::new())
    }
}

/// Each member and its state, claimed and checked one at a time.
pub(super) fn survey(ctx: &Ctx) -> Result<Vec<MemberState>> {
    let git = ctx.repo.git();
    let remover = Remover::new(&ctx.repo, &git)?;
    let mut out = Vec::new();
    for m in members(&ctx.repo)? {
        let Some(_claim) = Claim::try_take(&m.abs) else {
            let missing = std::fs::symlink_metadata(&m.abs).is_err();
            out.push(match missing {
                true => describe(&m, "unfit", Some("its directory is missing".into())),
                false => describe(&m, "busy", None),
            });
            continue;
        };
        out.push(
            match unfit(&remover, &m).unwrap_or_else(|e| Some(e.to_string())) {
                Some(why) => describe(&m, "unfit", Some(why)),
                None => describe(&m, "ready", None),
            },
        );
    }
    Ok(out)
}
