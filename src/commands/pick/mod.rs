//! `git loop pick <ID> [--land [land's options]] [--salvage] [--dry-run]`:
//! the winner of a best-of-N task escalated (or landed), its siblings
//! rejected (see [`crate::ops::pick`]), and the report of it ([`report`]).

pub mod report;

pub use report::PickReport;

use crate::cli::PickArgs;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::ops::land::Landing;
use crate::ops::pick::PickRequest;
use crate::output::Out;

pub fn exec(ctx: &Ctx, args: &PickArgs, out: &mut Out<'_>) -> Result<PickReport> {
    let request = PickRequest {
        id: &args.run_id,
        land: args.land.then(|| Landing::from(&args.land_options)),
        salvage: args.salvage,
        dry_run: args.dry_run,
    };
    let outcome = crate::ops::pick::pick(ctx, &request, &mut out.notes())?;
    Ok(PickReport::new(outcome))
}
