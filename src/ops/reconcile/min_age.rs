//! `--min-age`: an orphan that changed moments ago may be a create that has
//! run `git worktree add` but not yet recorded the run; it is neither
//! removed nor adopted.

use super::ReconcileRequest;
use crate::ctx::Ctx;
use crate::git::repo::Worktree;
use crate::worktree::Remover;

/// How long ago the orphan's directory or its git admin directory last
/// changed — the younger of the two. `None` when neither can be read.
fn orphan_age(ctx: &Ctx, id: &str, remover: &Remover<'_>) -> Option<jiff::SignedDuration> {
    let admin = remover
        .registration(id)
        .map(|wt: &Worktree| wt.admin_dir.clone());
    let newest = [Some(ctx.worktree_path(id)), admin]
        .into_iter()
        .flatten()
        .filter_map(|p| std::fs::symlink_metadata(p).and_then(|m| m.modified()).ok())
        .max()?;
    let newest = jiff::Timestamp::try_from(newest).ok()?;
    Some(crate::time::now().duration_since(newest))
}

/// Why the orphan `id` is too young to remove or adopt under `--min-age`: a
/// worktree that changed moments ago may be a create not recorded yet.
pub(super) fn too_young(
    ctx: &Ctx,
    id: &str,
    remover: &Remover<'_>,
    req: &ReconcileRequest<'_>,
) -> Option<String> {
    let age = orphan_age(ctx, id, remover).filter(|age| *age < req.min_age)?;
    Some(format!(
        "too young: changed {}s ago, under --min-age {} (a create may still be recording it; --min-age 0 overrides)",
        age.as_secs(),
        req.min_age_text
    ))
}
