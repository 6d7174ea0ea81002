//! `git loop claim <TASK> [--release]`: a lease on a task on the fleet's
//! remote ([`crate::ops::fleet::claim`]). stdout: `claimed <task>` (or
//! `took over <task> from <machine>`, `released <task>`, `<task> was not
//! claimed`); refused: `claimed`, exit 1, naming the holder.

use serde::Serialize;

use crate::cli::ClaimArgs;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::ops::fleet::claim::ClaimOutcome;
use crate::output::{Out, Report};
use crate::style::escape;

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct ClaimReport(pub ClaimOutcome);

impl Report for ClaimReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        let o = &self.0;
        let task = escape(&o.task);
        match (o.action.as_str(), &o.previous) {
            ("taken-over", Some(prev)) => {
                writeln!(out.stdout, "took over {task} from {}", escape(prev))
            }
            ("released", _) => writeln!(out.stdout, "released {task}"),
            ("not-claimed", _) => writeln!(out.stdout, "{task} was not claimed"),
            _ => writeln!(out.stdout, "claimed {task} as {}", escape(&o.machine)),
        }
    }
}

pub fn exec(ctx: &Ctx, args: &ClaimArgs) -> Result<ClaimReport> {
    Ok(ClaimReport(crate::ops::fleet::claim::claim(
        ctx,
        &args.task,
        args.release,
    )?))
}
