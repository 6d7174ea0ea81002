//! `pool drain`: every member (and every staged one) removed with the usual
//! rules, under the worktree-operation lock, each claimed first: one a
//! create is taking right now is left (`in-use`), as is one git refuses to
//! remove.
//!
//! Each removal is a `git worktree remove` of a full checkout, a second or
//! more in a large tree: on a terminal's stderr a count (`removing pool
//! members: 2/4 done`) is drawn once the drain has taken longer than a
//! second, and erased at the end ([`Progress`]: nothing when piped or with
//! `--quiet`).

use super::check::{Discarded, discard};
use super::survey::{MemberState, describe, survey_if_any};
use super::{Claim, POOL_DIR, STAGING_DIR, members, staged};
use crate::ctx::Ctx;
use crate::error::Result;
use crate::lock::OpsLock;
use crate::output::{Notes, Progress};
use crate::worktree::{Remover, SkipCode};

/// What `pool drain` did.
#[derive(Debug)]
pub struct Drained {
    /// `pool.size`.
    pub size: usize,
    /// The members after the drain (those it left).
    pub members: Vec<MemberState>,
    pub removed: Vec<MemberState>,
    /// The members it left, and why.
    pub skipped: Vec<Discarded>,
}

pub fn drain(ctx: &Ctx, out: &mut Notes<'_>) -> Result<Drained> {
    let size = ctx.settings()?.pool_size.value;
    let mut removed = Vec::new();
    let mut skipped: Vec<Discarded> = Vec::new();
    if ctx.loop_dir_exists()? {
        let git = ctx.repo.git();
        let _ops = OpsLock::acquire(&ctx.loop_dir(), |w| out.note(format_args!("{w}")))?;
        let mut remover = Remover::new(&ctx.repo, &git)?;
        let all: Vec<_> = staged(&ctx.repo)?
            .into_iter()
            .chain(members(&ctx.repo)?)
            .collect();
        let mut progress = Progress::start();
        for (done, m) in all.iter().enumerate() {
            progress.show(
                out,
                format_args!("removing pool members: {done}/{} done", all.len()),
            );
            let claim = Claim::try_take(&m.abs);
            if claim.is_none() && std::fs::symlink_metadata(&m.abs).is_ok() {
                skipped.push(Discarded {
                    name: m.name.clone(),
                    path: m.rel(),
                    reason: "another git-loop process is using it".into(),
                    removed: false,
                    left_because: None,
                    code: Some(SkipCode::InUse),
                });
                continue;
            }
            let d =
                discard(&mut remover, m, "drained".into()).inspect_err(|_| progress.done(out))?;
            if d.removed {
                removed.push(describe(m, "removed", None));
            } else {
                skipped.push(d);
            }
        }
        progress.done(out);
        let pool = ctx.loop_dir().join(POOL_DIR);
        let _ = std::fs::remove_dir(pool.join(STAGING_DIR));
        let _ = std::fs::remove_dir(pool);
    }
    Ok(Drained {
        size,
        members: survey_if_any(ctx)?,
        removed,
        skipped,
    })
}
