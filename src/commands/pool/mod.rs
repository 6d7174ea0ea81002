//! `git loop pool [status | fill [<N>] | drain]`: the adapter from
//! [`PoolArgs`] to the warm pool's operations ([`crate::ops::pool`], whose
//! module doc says what a member is and how it is claimed and checked) and
//! their report.

pub mod report;

use crate::cli::{PoolAction, PoolArgs};
use crate::ctx::Ctx;
use crate::error::Result;
use crate::output::Out;
use report::PoolReport;

pub fn exec(ctx: &Ctx, args: &PoolArgs, out: &mut Out<'_>) -> Result<PoolReport> {
    Ok(match args.action.unwrap_or(PoolAction::Status) {
        PoolAction::Status => crate::ops::pool::status(ctx)?.into(),
        PoolAction::Fill { n } => {
            crate::ops::pool::fill(ctx, n.map(usize::from), &mut out.notes())?.into()
        }
        PoolAction::Drain => crate::ops::pool::drain(ctx, &mut out.notes())?.into(),
    })
}
