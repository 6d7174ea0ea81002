//! `land --queue`: which runs, in which order. Every run whose status is in
//! the set, in the landing order `git loop conflicts` suggests for them
//! ([`crate::ops::conflicts`]: first the runs that land cleanly by
//! themselves, then those with fewer conflicting partners, fewer files, then
//! by id), each landing in `--into`/`land.into` when set, else in its
//! recorded base. Runs `conflicts` could not check (a branch gone, a base
//! that does not resolve) come last, by id: landing them says why.

use crate::ctx::Ctx;
use crate::error::Result;
use crate::manifest::{Entry, Manifest, Status};
use crate::output::Out;

/// The runs of `manifest` with a status in `statuses`, in landing order.
pub(super) fn ordered(
    ctx: &Ctx,
    manifest: &Manifest,
    statuses: &[Status],
    into: Option<&str>,
    out: &mut Out<'_>,
) -> Result<Vec<Entry>> {
    let analysis = crate::ops::conflicts::run_of(ctx, into, statuses, out)?;
    let mut rest: Vec<&str> = analysis.skipped.iter().map(|s| s.id.as_str()).collect();
    rest.sort_unstable();
    Ok(analysis
        .landing_order
        .iter()
        .map(String::as_str)
        .chain(rest)
        .filter_map(|id| manifest.find(id).cloned())
        .collect())
}
