//! `git loop restore <ID>`: bring a salvaged run back (see
//! [`crate::worktree::salvage`]). The worktree is added at
//! `.loop-worktrees/<id>` on `loop/<id>` (the branch recreated at the
//! salvage's first parent if it is gone), its files made equal to the
//! salvage's tree and its index to the salvaged index (`read-tree -u
//! --reset <W>`, then `read-tree <I>`): staged stays staged, unstaged
//! unstaged, untracked untracked. The entry comes back (from the salvage
//! commit's message) with status `active`. The salvage ref is kept until the
//! next salvage of that id. An id that has a worktree, or no salvage, is
//! refused before anything changes. `git loop list --salvaged`: [`list`].

pub mod list;

use serde::Serialize;

use crate::commands::Ctx;
use crate::error::{Error, Result};
use crate::git::plumbing::git_str;
use crate::lock::{ManifestMutex, OpsLock};
use crate::manifest::{Entry, Status};
use crate::output::{Out, Report};
use crate::worktree::salvage::ref_name;

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
        if self.branch_moved {
            out.note(format_args!(
                "note: branch {} moved since the salvage; `git status` compares with its new tip",
                self.branch
            ));
        }
        Ok(())
    }
}

/// A salvage commit: itself, its first parent (the worktree's HEAD), the
/// tree of its second (the index), and the entry its message records.
struct Salvage {
    commit: gix::ObjectId,
    head: gix::ObjectId,
    index_tree: gix::ObjectId,
    entry: Option<Entry>,
}

fn read_salvage(repo: &gix::Repository, id: &str) -> Result<Salvage> {
    let err = |e: &dyn std::fmt::Display| Error::Repository(format!("{}: {e}", ref_name(id)));
    let Some(mut r) = repo
        .try_find_reference(ref_name(id).as_str())
        .map_err(|e| err(&e))?
    else {
        return Err(Error::NoSalvage { id: id.to_owned() });
    };
    let commit = r.peel_to_commit().map_err(|e| err(&e))?;
    let parents: Vec<gix::ObjectId> = commit.parent_ids().map(|p| p.detach()).collect();
    let [head, index] = parents[..] else {
        return Err(err(&"not a salvage commit (it needs two parents)"));
    };
    let index_tree = repo
        .find_commit(index)
        .map_err(|e| err(&e))?
        .tree_id()
        .map_err(|e| err(&e))?
        .detach();
    let message = commit.message_raw().map_err(|e| err(&e))?.to_string();
    let entry = message
        .lines()
        .find(|l| l.starts_with('{'))
        .and_then(|l| serde_json::from_str::<Entry>(l).ok())
        .filter(|e| e.id == id)
        // Only an entry the manifest's own validation accepts is written.
        .filter(|e| {
            let one = crate::manifest::Manifest {
                version: 1,
                worktrees: vec![e.clone()],
            };
            crate::manifest::Manifest::parse(&one.to_json()).is_ok()
        });
    Ok(Salvage {
        commit: commit.id,
        head,
        index_tree,
        entry,
    })
}

pub fn run(ctx: &Ctx, id: &str, out: &mut Out<'_>) -> Result<RestoreReport> {
    let salvage = read_salvage(ctx.repo.gix(), id)?;
    ctx.ensure_loop_dir()?;
    let _ops = OpsLock::acquire(&ctx.loop_dir(), |waiting| {
        out.note(format_args!("{waiting}"))
    })?;
    let _run = crate::worktree::RunLock::acquire(
        ctx.repo.common_dir(),
        id,
        crate::worktree::RUN_LOCK_DEADLINE,
    )?;
    let abs = ctx.worktree_path(id);
    let rel = crate::runid::rel_path(id);
    let registered = ctx
        .repo
        .loop_worktrees()?
        .iter()
        .any(|(name, _)| name == id);
    if registered || abs.symlink_metadata().is_ok() {
        return Err(Error::RestoreExists {
            id: id.to_owned(),
            path: rel,
        });
    }
    let branch = crate::runid::branch_name(id);
    let root = ctx.repo.root();
    let tip = ctx.repo.branch_target(&branch)?;
    match tip {
        Some(_) => git_str(root, None, &["worktree", "add", "--", &rel, &branch])?,
        None => git_str(
            root,
            None,
            &[
                "worktree",
                "add",
                "-b",
                &branch,
                "--",
                &rel,
                &salvage.head.to_string(),
            ],
        )?,
    };
    let w = salvage.commit.to_string();
    git_str(
        &abs,
        None,
        &["read-tree", "-u", "--reset", &format!("{w}^{{tree}}")],
    )?;
    git_str(&abs, None, &["read-tree", &salvage.index_tree.to_string()])?;

    let mut entry = salvage
        .entry
        .unwrap_or_else(|| Entry::new(id, "main", "restored", crate::time::now()));
    entry.status = Status::Active;
    let mutex = ManifestMutex::acquire(&ctx.loop_dir())?;
    let mut manifest = ctx.manifest.load_or_default()?;
    manifest.worktrees.retain(|e| e.id != id);
    manifest.worktrees.push(entry.clone());
    ctx.manifest.write(&manifest, &mutex)?;
    let mut event = crate::events::Event::new(crate::events::EventKind::Restore, id);
    event.from = Some(w.clone());
    event.detail = Some(format!("restored from {}", ref_name(id)));
    super::log_events(ctx, &[event], out);
    drop(mutex);
    Ok(RestoreReport {
        id: id.to_owned(),
        path: rel,
        branch,
        refname: ref_name(id),
        commit: w,
        branch_recreated: tip.is_none(),
        branch_moved: tip.is_some_and(|t| t != salvage.head),
        entry,
    })
}
