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

/// A run's entry as updated, and what the user should know of it.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct MarkedEntry {
    #[serde(flatten)]
    pub entry: Entry,
    #[serde(skip)]
    pub previous: Status,
    /// What marking it did not do: a run marked `merged` whose commits its
    /// base does not have (they are still only on its branch; `git loop
    /// land <ID>` puts them there). Absent when there is nothing to say.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
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
            for warning in &m.warnings {
                out.note(format_args!("warning: {warning}"));
            }
        }
        out.stdout.flush()
    }
}

/// Mark `run_ids`, or with none the run `dir` (where the command runs
/// from) is in.
pub fn exec(
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
    let mut marked: Vec<MarkedEntry> =
        crate::ops::mark::set_statuses(ctx, run_ids, status, &mut out.notes())?
            .into_iter()
            .map(|m| MarkedEntry {
                entry: m.entry,
                previous: m.previous,
                warnings: Vec::new(),
            })
            .collect();
    if status == Status::Merged {
        let entries: Vec<&Entry> = marked.iter().map(|m| &m.entry).collect();
        let unproven: Vec<String> = crate::ops::mark::detect::not_in_base(ctx, &entries)?
            .iter()
            .map(|e| e.id.to_string())
            .collect();
        for m in marked
            .iter_mut()
            .filter(|m| unproven.contains(&m.entry.id.to_string()))
        {
            let (id, branch, base) = (&m.entry.id, m.entry.branch(), &m.entry.base_branch);
            m.warnings.push(format!(
                "{branch} is not in {base}: its commits are only on {branch}; `git loop land {id}` puts them on {base}"
            ));
        }
    }
    crate::commands::shared::fleet::publish_after(ctx, out);
    Ok(if marked.len() == 1 {
        MarkReport::One(marked.remove(0))
    } else {
        MarkReport::Several { worktrees: marked }
    })
}
