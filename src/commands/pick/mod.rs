//! `git loop pick <ID> [--land [land's options]] [--salvage] [--dry-run]`:
//! the winner of a best-of-N task escalated (or landed), its siblings
//! rejected (see [`crate::ops::pick`]), and the report of it ([`report`]).

pub mod report;

pub use report::PickReport;

use crate::cli::PickArgs;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::ops::pick::{Landing, Request};
use crate::output::Out;

pub fn run(ctx: &Ctx, args: &PickArgs, out: &mut Out<'_>) -> Result<PickReport> {
    let o = &args.land_options;
    let request = Request {
        id: &args.run_id,
        land: args.land.then_some(Landing {
            into: o.into.as_deref(),
            strategy: o.strategy,
            gate: o.gate.as_deref(),
            message: o.message.as_deref(),
            keep: o.keep,
            push: o.push,
        }),
        salvage: args.salvage,
        dry_run: args.dry_run,
    };
    let outcome = crate::ops::pick::pick(ctx, &request, out)?;
    Ok(PickReport::new(outcome))
}
