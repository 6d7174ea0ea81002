//! `git loop list --salvaged`: every `refs/loop/salvage/<id>`, with when it
//! was saved and whether a run of that id is recorded now (read by
//! [`crate::ops::restore::salvaged`]).

use serde::Serialize;

use crate::ctx::Ctx;
use crate::error::Result;
use crate::output::{Out, Report};
use crate::style::{Cell, escape, write_table};

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SalvagedRun {
    pub id: String,
    #[serde(rename = "ref")]
    pub refname: String,
    pub commit: String,
    /// The salvage commit's committer time (ISO-8601 UTC).
    pub saved_at: Option<String>,
    /// The manifest records a run of this id now.
    pub recorded: bool,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct SalvagedList {
    pub salvaged: Vec<SalvagedRun>,
}

impl Report for SalvagedList {
    /// A table like `list`'s: a bold header, columns as wide as their widest
    /// cell; `RUN` says whether a run of that id is recorded now (then
    /// `restore` refuses it) or was removed.
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        if self.salvaged.is_empty() {
            out.note(format_args!("no salvaged runs"));
            return Ok(());
        }
        let rows: Vec<[Cell<'_>; 4]> = self
            .salvaged
            .iter()
            .map(|s| {
                [
                    (escape(&s.id), ""),
                    (s.commit[..s.commit.len().min(12)].into(), ""),
                    (s.saved_at.as_deref().unwrap_or("-").into(), "2"),
                    if s.recorded {
                        ("recorded".into(), "33")
                    } else {
                        ("removed".into(), "")
                    },
                ]
            })
            .collect();
        write_table(
            out.stdout,
            ["ID", "COMMIT", "SAVED", "RUN"],
            &rows,
            out.color,
        )
    }
}

pub fn list(ctx: &Ctx) -> Result<SalvagedList> {
    let salvaged = crate::ops::restore::salvaged(ctx)?
        .into_iter()
        .map(|s| SalvagedRun {
            id: s.id,
            refname: s.refname,
            commit: s.commit.to_string(),
            saved_at: s.saved_at.map(|t| t.to_string()),
            recorded: s.recorded,
        })
        .collect();
    Ok(SalvagedList { salvaged })
}
