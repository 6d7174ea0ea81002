//! `git loop list --salvaged`'s read: every `refs/loop/salvage/<id>`, with
//! when it was saved and whether a run of that id is recorded now.

use crate::ctx::Ctx;
use crate::error::Result;

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
    let manifest = if ctx.loop_dir_exists()? {
        ctx.manifest.load()?.unwrap_or_default()
    } else {
        Default::default()
    };
    let mut salvaged = Vec::new();
    for (name, value) in crate::git::refs::prefixed(repo, "refs/loop/salvage/")? {
        let name = name.to_string();
        let Some(id) = name.strip_prefix("refs/loop/salvage/") else {
            continue;
        };
        let Some(commit) = crate::git::refs::peel(repo, &value) else {
            continue;
        };
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
