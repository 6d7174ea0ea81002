//! `git loop trash [list]`, `git loop trash restore <NAME> [--as <BRANCH>]`,
//! `git loop trash empty [--older-than <AGE>] [--dry-run]`: the adapters to
//! [`crate::ops::trash`] (what the safety kernel kept before a destroying
//! step, brought back, or dropped) and the report they print.

use std::borrow::Cow;

use serde::Serialize;

use crate::cli::{TrashAction, TrashArgs};
use crate::ctx::Ctx;
use crate::error::Result;
use crate::ops::trash;
use crate::output::{Out, Report};
use crate::safety::trash::Entry;

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrashReport {
    /// What `trash` lists; for `empty`, the entries dropped (or, with
    /// `--dry-run`, that would be); for `restore`, the entry restored.
    pub trash: Vec<Entry>,
    /// `restore`: the branch it was restored as (a dropped salvage: its
    /// salvage ref, `refs/loop/salvage/<id>`, when that was free).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restored: Option<String>,
    /// `empty --dry-run`: nothing was dropped.
    pub dry_run: bool,
    #[serde(skip)]
    action: Action,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Action {
    #[default]
    List,
    Restore,
    Empty,
}

fn short(tip: &str) -> &str {
    &tip[..tip.len().min(12)]
}

impl Report for TrashReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        use crate::style::escape;
        match self.action {
            Action::List => {
                // What it was first (the branch by its short name), then
                // the name `trash restore` takes.
                let rows: Vec<[crate::style::Cell<'_>; 5]> = self
                    .trash
                    .iter()
                    .map(|e| {
                        let was = e
                            .original
                            .strip_prefix("refs/heads/")
                            .unwrap_or(&e.original);
                        [
                            (Cow::Owned(escape(was).into_owned()), ""),
                            (Cow::Owned(short(&e.tip).to_owned()), ""),
                            (crate::time::fixed_width(&e.trashed_at), ""),
                            (Cow::Owned(e.reason.to_string()), ""),
                            (Cow::Owned(escape(&e.name).into_owned()), ""),
                        ]
                    })
                    .collect();
                if !rows.is_empty() {
                    let header = ["WAS", "TIP", "TRASHED", "REASON", "NAME"];
                    crate::style::write_table(out.stdout, header, &rows, out.color)?;
                }
                if self.trash.is_empty() {
                    out.note(format_args!("the trash is empty"));
                } else {
                    out.note(format_args!(
                        "{} entr{}; `git loop trash restore <NAME>` brings one back (a branch's name brings back its newest)",
                        self.trash.len(),
                        if self.trash.len() == 1 { "y" } else { "ies" }
                    ));
                }
            }
            Action::Restore => {
                if let (Some(e), Some(branch)) = (self.trash.first(), &self.restored) {
                    writeln!(
                        out.stdout,
                        "restored {} at {} (from {})",
                        escape(branch),
                        short(&e.tip),
                        escape(&e.name)
                    )?;
                }
            }
            Action::Empty => {
                let verb = if self.dry_run {
                    "would drop"
                } else {
                    "dropped"
                };
                for e in &self.trash {
                    writeln!(out.stdout, "{verb} {}", escape(&e.name))?;
                }
                out.note(format_args!(
                    "{verb} {} entr{}",
                    self.trash.len(),
                    if self.trash.len() == 1 { "y" } else { "ies" }
                ));
            }
        }
        Ok(())
    }
}

/// `trash [list]`, `trash restore` or `trash empty`, as `args` say.
pub fn exec(ctx: &Ctx, args: &TrashArgs, out: &mut Out<'_>) -> Result<TrashReport> {
    match &args.action {
        None | Some(TrashAction::List) => list(ctx),
        Some(TrashAction::Restore { name, as_branch }) => {
            restore(ctx, name, as_branch.as_deref(), out)
        }
        Some(TrashAction::Empty {
            older_than,
            dry_run,
        }) => empty(ctx, older_than.as_ref().map(|c| c.0), *dry_run, out),
    }
}

pub fn list(ctx: &Ctx) -> Result<TrashReport> {
    Ok(TrashReport {
        trash: trash::list(ctx)?,
        restored: None,
        dry_run: false,
        action: Action::List,
    })
}

pub fn restore(
    ctx: &Ctx,
    name: &str,
    as_branch: Option<&str>,
    out: &mut Out<'_>,
) -> Result<TrashReport> {
    let restored = trash::restore(ctx, name, as_branch, &mut out.notes())?;
    Ok(TrashReport {
        trash: vec![restored.entry],
        restored: Some(restored.branch),
        dry_run: false,
        action: Action::Restore,
    })
}

pub fn empty(
    ctx: &Ctx,
    older_than: Option<jiff::SignedDuration>,
    dry_run: bool,
    out: &mut Out<'_>,
) -> Result<TrashReport> {
    Ok(TrashReport {
        trash: trash::empty(ctx, older_than, dry_run, &mut out.notes())?,
        restored: None,
        dry_run,
        action: Action::Empty,
    })
}
