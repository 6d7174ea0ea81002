//! `git loop land <ID>... | --queue`: land runs onto their base (see
//! [`crate::ops::land`] for the flow and its safety), and the report of it
//! ([`LandReport`], shared with `pick --land`): one line per run in order,
//! landed, skipped or not attempted, and a summary; exit 1 when any run did
//! not land.

pub use super::shared::land::LandReport;

use std::path::Path;

use crate::cli::LandArgs;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::ops::land::{LandRequest, Landing, Which};
use crate::output::Out;

/// Land the runs `args` names; with no id and no `--queue`, the run whose
/// worktree holds `dir` (where the command runs from), as `mark` infers it.
pub fn exec(ctx: &Ctx, args: &LandArgs, dir: &Path, out: &mut Out<'_>) -> Result<LandReport> {
    let statuses = args.status.as_ref().map(|s| s.0.as_slice());
    let inferred;
    let which = if args.queue {
        Which::Queue(statuses)
    } else if args.run_ids.is_empty() {
        let usage = "git loop land <RUN_ID> (or --queue)";
        inferred = [crate::ops::infer::run_at(ctx, dir, usage)?];
        Which::Runs(&inferred)
    } else {
        Which::Runs(&args.run_ids)
    };
    let request = LandRequest {
        which,
        how: Landing::from(&args.options),
        keep_going: args.keep_going,
        dry_run: args.dry_run,
        fleet: args.fleet,
    };
    let outcome = crate::ops::land::land(ctx, &request, &mut out.notes())?;
    super::shared::fleet::publish_after(ctx, out);
    Ok(LandReport::new(outcome))
}
