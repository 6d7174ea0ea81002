//! `git loop run <RUN_ID> [--] <COMMAND>...`: the adapter to
//! [`crate::ops::run`] (where the command runs, with what, and how its exit
//! code passes through). It prints no report: the exit code is the answer.

use crate::cli::RunArgs;
use crate::ctx::Ctx;
use crate::error::Result;

pub fn exec(ctx: &Ctx, args: &RunArgs) -> Result<i32> {
    crate::ops::run::command_in(ctx, &args.run_id, &args.command)
}
