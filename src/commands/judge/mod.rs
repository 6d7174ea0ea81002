//! `git loop judge <TASK>`: run the gate in every active attempt of a task
//! and rank them (see [`crate::ops::judge`] for the flow and the order),
//! and the report of it ([`report`]); exit 1 when no gate passed.

pub mod report;

pub use report::JudgeReport;

use std::time::Duration;

use crate::cli::JudgeArgs;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::ops::judge::JudgeRequest;
use crate::output::{Fail, Out, emit};

pub fn exec(ctx: &Ctx, args: &JudgeArgs, out: &mut Out<'_>) -> Result<JudgeReport> {
    let request = JudgeRequest {
        task: &args.task,
        gate: args.gate.as_deref(),
        jobs: args.jobs.map(usize::from),
        timeout: args
            .timeout
            .map(|c| Duration::from_secs(c.0.as_secs().max(0) as u64)),
    };
    let outcome = crate::ops::judge::judge(ctx, &request, &mut out.notes())?;
    Ok(JudgeReport::new(outcome, ctx.repo.common_dir()))
}

/// Run, print the report, and exit 1 when no gate passed.
pub fn run_and_emit(
    ctx: &Ctx,
    args: &JudgeArgs,
    out: &mut Out<'_>,
) -> std::result::Result<(), Fail> {
    let report = exec(ctx, args, out)?;
    let passed = report.any_passed();
    emit(report, out)?;
    if passed { Ok(()) } else { Err(Fail::Exit(1)) }
}
