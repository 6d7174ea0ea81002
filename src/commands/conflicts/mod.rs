//! `git loop conflicts [--base <BRANCH>] [--status <S,…>]`: the adapter to
//! [`crate::ops::conflicts`] (read-only, in memory: the rules and the
//! merges are there) and the report built from its outcome.

mod report;

pub use report::ConflictsReport;

use crate::cli::ConflictsArgs;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::output::Out;

pub fn exec(ctx: &Ctx, args: &ConflictsArgs, out: &mut Out<'_>) -> Result<ConflictsReport> {
    let statuses = args.status.as_ref().map(|s| s.0.as_slice());
    let outcome =
        crate::ops::conflicts::predict(ctx, args.base.as_deref(), statuses, &mut out.notes())?;
    Ok(ConflictsReport::from(outcome))
}
