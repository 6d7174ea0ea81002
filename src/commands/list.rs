//! `git loop list [--status <CSV>]` — read-only, no mutex. An absent manifest
//! lists nothing and creates nothing.

use serde::Serialize;

use crate::commands::Ctx;
use crate::error::Result;
use crate::manifest::{Entry, Status};
use crate::{Out, Report};

#[derive(Debug, Serialize)]
pub struct Listed {
    #[serde(flatten)]
    pub entry: Entry,
    pub present: bool,
}

#[derive(Debug, Serialize)]
pub struct ListReport {
    pub version: u32,
    pub worktrees: Vec<Listed>,
}

impl Report for ListReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        if self.worktrees.is_empty() {
            return Ok(());
        }
        let now = crate::time::now();
        let rows: Vec<[String; 6]> = self
            .worktrees
            .iter()
            .map(|l| {
                [
                    l.entry.id.clone(),
                    l.entry.status.to_string(),
                    l.entry.pattern.clone(),
                    crate::time::age(now, l.entry.created_at.0),
                    l.entry.branch.clone(),
                    if l.present { "yes" } else { "missing" }.to_owned(),
                ]
            })
            .collect();
        let header = ["ID", "STATUS", "PATTERN", "AGE", "BRANCH", "PRESENT"].map(String::from);
        let mut widths = header.clone().map(|h| h.chars().count());
        for row in &rows {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let color = out.color;
        let styles = std::iter::once(["1"; 6]).chain(self.worktrees.iter().map(|l| {
            [
                "",
                crate::style::status_sgr(l.entry.status),
                "",
                "2",
                "",
                if l.present { "" } else { "1;31" },
            ]
        }));
        for (row, sgr) in std::iter::once(&header).chain(&rows).zip(styles) {
            let mut line = String::new();
            for (i, (cell, w)) in row.iter().zip(widths).enumerate() {
                line.push_str(&crate::style::paint(cell, sgr[i], color));
                if i + 1 != row.len() {
                    line.extend(std::iter::repeat_n(' ', w - cell.chars().count() + 2));
                }
            }
            writeln!(out.stdout, "{line}")?;
        }
        Ok(())
    }
}

pub fn run(ctx: &Ctx, filter: Option<&[Status]>) -> Result<ListReport> {
    let manifest = if ctx.loop_dir_exists()? {
        ctx.manifest.load_or_default()?
    } else {
        Default::default()
    };
    let worktrees = manifest
        .worktrees
        .into_iter()
        .filter(|e| filter.is_none_or(|f| f.contains(&e.status)))
        .map(|entry| Listed {
            present: ctx.worktree_path(&entry.id).symlink_metadata().is_ok(),
            entry,
        })
        .collect();
    Ok(ListReport {
        version: 1,
        worktrees,
    })
}
