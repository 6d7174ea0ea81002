//! `git loop list --salvaged`'s read: every `refs/loop/salvage/<id>`, with
//! when it was saved and whether a run of that id is recorded now.

use crate::ctx::Ctx;
use crate::error::{Error, Result};

/// One salvage ref.
#[derive(Debug)]
pub struct Salvaged {
    pub id: String,
    /// `refs/loop/salvage/<id>`.
    pub refname: String,
    pub commit: gix::ObjectId,
    /// The salvage commit's committer time.
    pub saved_at: Option<jiff::Timestamp>,
    /// The manifest records a run of this id now.
    pub recorded: bool,
}

/// Every salvage, by id.
pub fn salvaged(ctx: &Ctx) -> Result<Vec<Salvaged>> {
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
        salvaged.push(Salvaged {
            id: id.to_owned(),
            recorded: manifest.find(id).is_some(),
            saved_at: ctx.repo.commit_time(commit),
            commit,
            refname: name,
        });
    }
    salvaged.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(salvaged)
}
