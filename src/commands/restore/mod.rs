//! `git loop restore [--drop] <ID>`: the adapter to [`crate::ops::restore`]
//! (how a salvaged run comes back, how a salvage is dropped) and the report
//! it prints: a restore says that the salvage is kept and how to drop it. `git loop list
//! --salvaged`: [`list`].

pub mod list;

use serde::Serialize;

use crate::cli::RestoreArgs;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::manifest::Entry;
use crate::output::{Out, Report};
use crate::style::escape;

pub use list::list;

/// What `restore` prints: the run brought back, or with `--drop` the
/// salvage moved to the trash.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum RestoreDocument {
    Restored(RestoreReport),
    Dropped(DropReport),
}

/// `restore --drop`: the salvage moved to the trash.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DropReport {
    pub id: String,
    /// `refs/loop/salvage/<id>`, deleted.
    #[serde(rename = "ref")]
    pub refname: String,
    /// The salvage commit it held.
    pub commit: String,
    /// The trash entry that keeps it (`git loop trash restore <NAME>`).
    pub trash: String,
}

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

impl Report for RestoreDocument {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        match self {
            RestoreDocument::Restored(r) => r.human(out),
            RestoreDocument::Dropped(d) => {
                writeln!(
                    out.stdout,
                    "dropped {} ({}): kept in the trash as {}",
                    d.refname,
                    &d.commit[..d.commit.len().min(12)],
                    escape(&d.trash)
                )?;
                out.note(format_args!(
                    "hint: `git loop trash restore {}` brings it back",
                    escape(&d.trash)
                ));
                Ok(())
            }
        }
    }
}

impl RestoreReport {
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
        // What it kept, and how to let it go.
        out.note(format_args!(
            "note: the salvage {} is kept; `git loop restore --drop {}` moves it to the trash",
            self.refname,
            escape(&self.id)
        ));
        Ok(())
    }
}

pub fn exec(ctx: &Ctx, args: &RestoreArgs, out: &mut Out<'_>) -> Result<RestoreDocument> {
    let id = args.run_id.as_str();
    if args.drop {
        let d = crate::ops::restore::drop_salvage(ctx, id, &mut out.notes())?;
        return Ok(RestoreDocument::Dropped(DropReport {
            id: d.id,
            refname: d.refname,
            commit: d.commit.to_string(),
            trash: d.trash,
        }));
    }
    let r = crate::ops::restore::restore(ctx, id, &mut out.notes())?;
    Ok(RestoreDocument::Restored(RestoreReport {
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
    }))
}
