//! `git loop mark --detect-merged [--dry-run]`: mark `merged` every run
//! whose work is in its base (see [`crate::ops::mark::detect`] for the
//! rules), and the report of it.

use serde::Serialize;

use crate::ctx::Ctx;
use crate::error::Result;
use crate::git::merged::MergedBy;
use crate::manifest::Status;
use crate::ops::mark::detect::{Detection, Found};
use crate::output::{Out, Report};

/// A run marked (in a dry run: that would be) `merged`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Detected {
    pub id: String,
    /// Its status before.
    pub from: Status,
    pub merged_by: MergedBy,
    /// The branch tip found merged.
    pub tip: String,
    pub base_branch: String,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DetectReport {
    pub dry_run: bool,
    pub marked: Vec<Detected>,
    /// Runs with no commits of their own, left alone.
    pub empty: Vec<String>,
    /// Runs patch ids call probably rebase-merged, not proven merged (merging
    /// them would still change their base): left alone.
    pub probable: Vec<String>,
}

impl Report for DetectReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        for d in &self.marked {
            writeln!(
                out.stdout,
                "{}: {} -> merged ({})",
                crate::style::escape(&d.id),
                d.from,
                d.merged_by
            )?;
        }
        for id in &self.probable {
            out.note(format_args!(
                "{}: probably rebase-merged (patch ids), not proven: left alone",
                crate::style::escape(id)
            ));
        }
        let verb = if self.dry_run { "would mark" } else { "marked" };
        let probable = match self.probable.len() {
            0 => String::new(),
            n => format!(", {n} probably merged"),
        };
        out.note(format_args!(
            "{verb} {} merged ({} empty{probable} left alone)",
            self.marked.len(),
            self.empty.len()
        ));
        Ok(())
    }
}

impl From<Found> for Detected {
    fn from(f: Found) -> Detected {
        Detected {
            id: f.entry.id.to_string(),
            from: f.from,
            merged_by: f.merged_by,
            tip: f.tip.to_string(),
            base_branch: f.entry.base_branch,
        }
    }
}

pub fn exec(ctx: &Ctx, dry_run: bool, out: &mut Out<'_>) -> Result<DetectReport> {
    let Detection {
        dry_run,
        marked,
        empty,
        probable,
    } = crate::ops::mark::detect::detect_merged(ctx, dry_run, &mut out.notes())?;
    if !dry_run {
        crate::commands::shared::fleet::publish_after(ctx, out);
    }
    Ok(DetectReport {
        dry_run,
        marked: marked.into_iter().map(Detected::from).collect(),
        empty,
        probable,
    })
}
