//! `git loop restore <ID>`: the adapter to [`crate::ops::restore`] (how a
//! salvaged run comes back) and the report it prints. `git loop list
//! --salvaged`: [`list`].

pub mod list;

use serde::Serialize;

use crate::ctx::Ctx;
use crate::error::Result;
use crate::manifest::Entry;
use crate::output::{Out, Report};

pub use list::list;

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RestoreReport {
    pub id: String,
    pub path: String,
    pub branch: String,
    #[serde(rename = "ref")]
    pub refname: String,
    pub commit: String,
    /// `loop/<id>` was gone and was created at the salvage's first parent.
    pub branch_recreated: bool,
    /// `loop/<id>` no longer points at the salvage's first parent: the files
    /// and index are the salvage's, `HEAD` is the branch's.
    pub branch_moved: bool,
    /// The run was salvaged with a detached `HEAD`: it comes back detached
    /// at the salvage's first parent (`loop/<id>` is left as it is).
    pub detached: bool,
    /// Its worktree was still there, left detached at the salvage by an
    /// interrupted `--salvage` removal: put back in place.
    pub in_place: bool,
    pub entry: Entry,
}

impl Report for RestoreReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        writeln!(
            out.stdout,
            "restored {} ({}) from {}",
            self.id, self.path, self.refname
        )?;
        if self.branch_recreated {
            out.note(format_args!(
                "note: branch {} was gone; recreated at the salvage's first parent",
                self.branch
            ));
        }
        if self.in_place {
            out.note(format_args!(
                "note: an interrupted salvage had left it detached at {}; put back in place",
                self.refname
            ));
        }
        if self.detached {
            out.note(format_args!(
                "note: it was salvaged with a detached HEAD; restored detached at the salvage's first parent"
            ));
        }
        if self.branch_moved {
            out.note(format_args!(
                "note: branch {} moved since the salvage; `git status` compares with its new tip",
                self.branch
            ));
        }
        Ok(())
    }
}

pub fn run(ctx: &Ctx, id: &str, out: &mut Out<'_>) -> Result<RestoreReport> {
    let r = crate::ops::restore::run(ctx, id, out)?;
    Ok(RestoreReport {
        id: r.id,
        path: r.path,
        branch: r.branch,
        refname: r.refname,
        commit: r.commit.to_string(),
        branch_recreated: r.branch_recreated,
        branch_moved: r.branch_moved,
        detached: r.detached,
        in_place: r.in_place,
        entry: r.entry,
    })
}
