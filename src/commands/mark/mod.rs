//! `git loop mark [<RUN_ID>...] <STATUS>`: record what runs became (see
//! [`crate::ops::mark`]); with no id, the run whose worktree holds the
//! directory it runs from ([`crate::ops::infer`]); `--detect-merged`: see
//! [`detect`].

use std::path::Path;

use serde::Serialize;

pub mod detect;

use crate::cli::RunId;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::manifest::{Entry, Status};
use crate::output::{Out, Report};

/// One run named: its entry as updated (the document `mark` has always
/// printed); several: `{"worktrees":[…]}`, their entries in the order named.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum MarkReport {
    One(MarkedEntry),
    Several { worktrees: Vec<MarkedEntry> },
}

/// A run's entry as updated.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct MarkedEntry {
    pub entry: Entry,
    #[serde(skip)]
    pub previous: Status,
}

impl Report for MarkReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        let marked = match self {
            MarkReport::One(m) => std::slice::from_ref(m),
            MarkReport::Several { worktrees } => worktrees.as_slice(),
        };
        for m in marked {
            out.note(format_args!(
                "{}: {} -> {}",
                m.entry.id, m.previous, m.entry.status
            ));
        }
        out.stdout.flush()
    }
}

/// Mark `run_ids`, or with none the run `dir` (where the command runs
/// from) is in.
pub fn run(
    ctx: &Ctx,
    run_ids: &[RunId],
    dir: &Path,
    status: Status,
    out: &mut Out<'_>,
) -> Result<MarkReport> {
    let inferred;
    let run_ids = match run_ids {
        [] => {
            let usage = format!("git loop mark <RUN_ID> {status}");
            inferred = [crate::ops::infer::run_at(ctx, dir, &usage)?];
            &inferred[..]
        }
        named => named,
    };
    let mut marked: Vec<MarkedEntry> = crate::ops::mark::set_statuses(ctx, run_ids, status, out)?
        .into_iter()
        .map(|m| MarkedEntry {
            entry: m.entry,
            previous: m.previous,
        })
        .collect();
    Ok(if marked.len() == 1 {
        MarkReport::One(marked.remove(0))
    } else {
        MarkReport::Several { worktrees: marked }
    })
}
