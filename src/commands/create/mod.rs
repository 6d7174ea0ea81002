//! `git loop create <RUN_ID> --pattern <LABEL> [--base <BRANCH>]`: the
//! adapter from [`CreateArgs`] to the create operation
//! ([`crate::ops::create`], whose module doc is the order of work) and its
//! report; with `--attempts`, to [`crate::ops::create::attempts`].

mod report;

pub use crate::ops::create::validate;
pub use report::{AttemptsReport, CreateReport};

use crate::cli::CreateArgs;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::output::Out;

/// Create the run, and report it. A failed post-command is in the report's
/// `error`: the run exists, and the command exits 1.
pub fn run(ctx: &Ctx, args: &CreateArgs, out: &mut Out<'_>) -> Result<CreateReport> {
    let created = crate::ops::create::run(ctx, args, out)?;
    Ok(CreateReport::new(created, args.reuse))
}

/// `create <TASK> --attempts <N>`: make the attempts (all or none), and
/// report them.
pub fn attempts(ctx: &Ctx, args: &CreateArgs, n: u32, out: &mut Out<'_>) -> Result<AttemptsReport> {
    let created = crate::ops::create::attempts::run(ctx, args, n, out)?;
    Ok(AttemptsReport::new(created))
}
