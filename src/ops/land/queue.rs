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
use crate::output::Notes;

/// Say on stderr what the queue took — the statuses it lands (and, from
/// the setting, which one), how many runs — and what it left, by status,
/// with the one step that lands active runs: a queue of nothing is never
/// left unexplained.
pub(super) fn say_what_it_took(
    manifest: &Manifest,
    statuses: &[Status],
    from_setting: bool,
    taken: usize,
    out: &mut Notes<'_>,
) {
    let names: Vec<&str> = statuses.iter().map(|s| s.as_str()).collect();
    let whence = if from_setting {
        format!(
            " ({}; --status to choose)",
            crate::config::keys::LAND_QUEUE_STATUS.toml
        )
    } else {
        String::new()
    };
    let left: Vec<String> = Status::ALL
        .into_iter()
        .filter(|s| !statuses.contains(s) && *s != Status::Merged)
        .filter_map(|s| {
            let n = manifest.worktrees.iter().filter(|e| e.status == s).count();
            (n > 0).then(|| format!("{n} {}", s.as_str()))
        })
        .collect();
    let left = if left.is_empty() {
        String::new()
    } else {
        format!("; left: {}", left.join(", "))
    };
    out.note(format_args!(
        "the queue lands runs marked {}{whence}: {taken} run{}{left}",
        names.join(","),
        if taken == 1 { "" } else { "s" }
    ));
    let active = manifest
        .worktrees
        .iter()
        .filter(|e| e.status == Status::Active)
        .count();
    if active > 0 && !statuses.contains(&Status::Active) {
        out.note(format_args!(
            "hint: to land the active ones too: git loop land --queue --status {},active (or mark them escalated)",
            names.join(",")
        ));
    }
}

/// The runs of `manifest` with a status in `statuses`, in landing order.
pub(super) fn ordered(
    ctx: &Ctx,
    manifest: &Manifest,
    statuses: &[Status],
    into: Option<&str>,
    out: &mut Notes<'_>,
) -> Result<Vec<Entry>> {
    let analysis = crate::ops::conflicts::predict_for(ctx, into, statuses, out)?;
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
