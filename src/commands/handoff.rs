//! `git loop handoff <ID>`: the run published with its uncommitted work,
//! for another machine to take ([`crate::ops::fleet::handoff`]). stdout:
//! `handed off <id> as <machine> (snapshot <commit>)`; `--json` the
//! outcome.

use serde::Serialize;

use crate::cli::HandoffArgs;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::ops::fleet::handoff::HandoffOutcome;
use crate::output::{Out, Report};
use crate::style::escape;

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct HandoffReport(pub HandoffOutcome);

impl Report for HandoffReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        let o = &self.0;
        writeln!(
            out.stdout,
            "handed off {} as {} (snapshot {}); take it with: git loop create {} --from {}",
            escape(&o.id),
            escape(&o.machine),
            o.snapshot,
            escape(&o.id),
            escape(&o.machine)
        )?;
        let i = &o.ignored;
        if i.count > 0 {
            out.note(format_args!(
                "not kept: {} ignored file(s), {} bytes",
                i.count, i.bytes
            ));
        }
        Ok(())
    }
}

pub fn exec(ctx: &Ctx, args: &HandoffArgs, out: &mut Out<'_>) -> Result<HandoffReport> {
    Ok(HandoffReport(crate::ops::fleet::handoff::handoff(
        ctx,
        &args.run_id,
        &mut out.notes(),
    )?))
}
