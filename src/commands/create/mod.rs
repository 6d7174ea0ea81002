//! `git loop create <RUN_ID> --pattern <LABEL> [--base <BRANCH>]`: the
//! adapter from [`CreateArgs`] to the create operation
//! ([`crate::ops::create`], whose module doc is the order of work) and its
//! report; with `--attempts`, to [`crate::ops::create::attempts`]; with
//! `--claim`, the task's lease first ([`crate::ops::fleet::claim`]).

mod report;

pub use report::{AttemptsReport, CreateReport};

use crate::cli::CreateArgs;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::ops::create::CreateRequest;
use crate::output::{Fail, Out, emit};

impl From<&CreateArgs> for CreateRequest {
    fn from(args: &CreateArgs) -> CreateRequest {
        CreateRequest {
            run_id: args.run_id.clone(),
            pattern: args.pattern.clone(),
            base: args.base.clone(),
            reuse: args.reuse,
            sparse: args.sparse.clone(),
            fetch: args.fetch,
            ports: args.ports,
        }
    }
}

/// What create refuses before the repository is opened (see
/// [`crate::ops::create::validate`]); with `--attempts`, its rules too.
pub fn validate(args: &CreateArgs) -> Result<()> {
    let request = CreateRequest::from(args);
    crate::ops::create::validate(&request)?;
    match args.attempts {
        Some(n) => crate::ops::create::attempts::validate(&request, n),
        None => Ok(()),
    }
}

/// Create the run, and report it. A failed post-command is in the report's
/// `error`: the run exists, and the command exits 1.
pub fn exec(ctx: &Ctx, args: &CreateArgs, out: &mut Out<'_>) -> Result<CreateReport> {
    let created = crate::ops::create::create(ctx, &CreateRequest::from(args), &mut out.notes())?;
    super::shared::fleet::publish_after(ctx, out);
    Ok(CreateReport::new(created, args.reuse))
}

/// `create <TASK> --attempts <N>`: make the attempts (all or none), and
/// report them.
pub fn attempts(ctx: &Ctx, args: &CreateArgs, n: u32, out: &mut Out<'_>) -> Result<AttemptsReport> {
    let created = crate::ops::create::attempts::create_all(
        ctx,
        &CreateRequest::from(args),
        n,
        &mut out.notes(),
    )?;
    super::shared::fleet::publish_after(ctx, out);
    Ok(AttemptsReport::new(created))
}

/// `create`: with `--from`, the run taken; with `--attempts`, that many
/// runs; else one, and exit 1 when its post-command failed; with
/// `--claim`, the task's lease first.
pub fn emit_created(
    ctx: &Ctx,
    args: &CreateArgs,
    out: &mut Out<'_>,
) -> std::result::Result<(), Fail> {
    if let Some(from) = &args.from {
        return emit(self::from(ctx, args, from, out)?, out);
    }
    if args.claim {
        claim(ctx, args, out)?;
    }
    if let Some(n) = args.attempts {
        let made = attempts(ctx, args, n, out);
        return emit(unclaim_on_failure(ctx, args, out, made)?, out);
    }
    let made = exec(ctx, args, out);
    let report = unclaim_on_failure(ctx, args, out, made)?;
    let failed = report.error.is_some();
    emit(report, out)?;
    if failed {
        // The run exists (its path or entry is printed), but its
        // post-command failed: like `git worktree add` when its
        // post-checkout hook fails, exit non-zero.
        return Err(Fail::Exit(1));
    }
    Ok(())
}

/// `create <RUN_ID> --from <MACHINE>`: the run another machine handed off,
/// recreated here ([`crate::ops::fleet::take`]), said on stderr.
pub fn from(ctx: &Ctx, args: &CreateArgs, from: &str, out: &mut Out<'_>) -> Result<CreateReport> {
    let (created, taken) =
        crate::ops::fleet::take::take(ctx, &CreateRequest::from(args), from, &mut out.notes())?;
    out.note(format_args!(
        "took {} from {} (snapshot {}{})",
        args.run_id.as_str(),
        taken.machine,
        taken.snapshot,
        if taken.lease.is_some() {
            "; its lease taken over"
        } else {
            ""
        }
    ));
    super::shared::fleet::publish_after(ctx, out);
    Ok(CreateReport::new(created, false))
}

/// `create <TASK> --claim`: the task's lease on the fleet's remote first,
/// taken as `claim` takes it and refused as `claim` is (`claimed`, exit 1),
/// before anything is created; said on stderr.
pub fn claim(ctx: &Ctx, args: &CreateArgs, out: &mut Out<'_>) -> Result<()> {
    let outcome = crate::ops::fleet::claim::claim(ctx, args.run_id.as_str(), false)?;
    match &outcome.previous {
        Some(previous) => out.note(format_args!(
            "took over {} from {previous} (its lease expired)",
            outcome.task
        )),
        None => out.note(format_args!(
            "claimed {} as {}",
            outcome.task, outcome.machine
        )),
    }
    Ok(())
}

/// With `--claim`, a create that failed (no run made) releases the lease
/// it took, best effort (a failure to is a note: the lease expires after
/// `fleet.lease`); the create's own result either way.
pub fn unclaim_on_failure<T>(
    ctx: &Ctx,
    args: &CreateArgs,
    out: &mut Out<'_>,
    made: Result<T>,
) -> Result<T> {
    if args.claim
        && made.is_err()
        && let Err(e) = crate::ops::fleet::claim::claim(ctx, args.run_id.as_str(), true)
    {
        out.note(format_args!(
            "note: the claim of {} was not released ({e}); it expires after fleet.lease",
            args.run_id.as_str()
        ));
    }
    made
}
