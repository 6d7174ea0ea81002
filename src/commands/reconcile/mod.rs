//! `git loop reconcile [--remove-orphan <ID>]... [--adopt <ID>]... [--dry-run]`:
//! the adapter from the arguments to [`crate::ops::reconcile`] (where the
//! rules are) and the report built from its outcome.

mod report;

pub use report::ReconcileReport;

use crate::cli::ReconcileArgs;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::ops::reconcile::{self, ReconcileRequest};
use crate::output::Out;

pub fn exec(ctx: &Ctx, args: &ReconcileArgs, out: &mut Out<'_>) -> Result<ReconcileReport> {
    let request = ReconcileRequest {
        remove_orphan: args.remove_orphan.iter().map(|id| &**id).collect(),
        adopt: args.adopt.iter().map(|id| &**id).collect(),
        min_age: args.min_age.age,
        min_age_text: &args.min_age.text,
        dry_run: args.dry_run,
    };
    Ok(ReconcileReport::from(reconcile::reconcile(
        ctx,
        &request,
        &mut out.notes(),
    )?))
}
