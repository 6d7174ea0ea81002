//! `git loop list --salvaged`: every `refs/loop/salvage/<id>`, with when it
//! was saved and whether a run of that id is recorded now.

use serde::Serialize;

use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::output::{Out, Report};

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
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        for s in &self.salvaged {
            let state = if s.recorded { "recorded" } else { "removed" };
            writeln!(
                out.stdout,
                "{}  {}  {}  {state}",
                s.id,
                &s.commit[..s.commit.len().min(12)],
                s.saved_at.as_deref().unwrap_or("-")
            )?;
        }
        if self.salvaged.is_empty() {
            out.note(format_args!("no salvaged runs"));
        }
        Ok(())
    }
}

pub fn list(ctx: &Ctx) -> Result<SalvagedList> {
    let repo = ctx.repo.gix();
    let err = |e: &dyn std::fmt::Display| Error::Repository(e.to_string());
    let manifest = if ctx.loop_dir_exists()? {
        ctx.manifest.load()?.unwrap_or_default()
    } else {
        Default::default()
    };
    let platform = repo.references().map_err(|e| err(&e))?;
    let mut salvaged = Vec::new();
    for r in platform
        .prefixed("refs/loop/salvage/")
        .map_err(|e| err(&e))?
    {
        let Ok(mut r) = r else { continue };
        let name = r.name().as_bstr().to_string();
        let Some(id) = name.strip_prefix("refs/loop/salvage/") else {
            continue;
        };
        let Ok(commit) = r.peel_to_id() else { continue };
        let commit = commit.detach();
        salvaged.push(SalvagedRun {
            id: id.to_owned(),
            recorded: manifest.find(id).is_some(),
            saved_at: ctx.repo.commit_time(commit).map(|t| t.to_string()),
            commit: commit.to_string(),
            refname: name,
        });
    }
    salvaged.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(SalvagedList { salvaged })
}
