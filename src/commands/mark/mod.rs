//! `git loop mark <RUN_ID> <STATUS>`: record what a run became (see
//! [`crate::ops::mark`]); `--detect-merged`: see [`detect`].

use serde::Serialize;

pub mod detect;

use crate::cli::RunId;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::manifest::{Entry, Status};
use crate::output::{Out, Report};

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct MarkReport {
    pub entry: Entry,
    #[serde(skip)]
    pub previous: Status,
}

impl Report for MarkReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        out.note(format_args!(
            "{}: {} -> {}",
            self.entry.id, self.previous, self.entry.status
        ));
        out.stdout.flush()
    }
}

pub fn run(ctx: &Ctx, run_id: &RunId, status: Status, out: &mut Out<'_>) -> Result<MarkReport> {
    let marked = crate::ops::mark::set_status(ctx, run_id, status, out)?;
    Ok(MarkReport {
        entry: marked.entry,
        previous: marked.previous,
    })
}
