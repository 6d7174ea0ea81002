//! `git loop restore <ID>`: bring a salvaged run back (see
//! [`crate::worktree::salvage`]). The worktree is added at
//! `.loop-worktrees/<id>` on `loop/<id>` (the branch recreated at the
//! salvage's first parent if it is gone), its files made equal to the
//! salvage's tree and its index to the salvaged index (`read-tree -u
//! --reset <W>`, then `read-tree <I>`): staged stays staged, unstaged
//! unstaged, untracked untracked. The entry comes back (from the salvage
//! commit's message) with status `active`. A run salvaged with a detached
//! `HEAD` (the salvage's `Git-Loop-HEAD: detached` trailer) comes back
//! detached at the salvage's first parent, its commit, with the same index
//! and files; `loop/<id>` is neither needed nor touched, and no "moved" is
//! reported. A worktree still registered but left detached at this very
//! salvage by an interrupted `--salvage` removal (see the salvage module's
//! "Interrupted") is put back in place: the files git deleted checked out
//! again from the salvage, `HEAD` and the index as they were. The salvage
//! ref is kept until the next salvage of that id. Any other id that has a
//! worktree, or one with no salvage, is refused before anything changes. `git loop list --salvaged`: [`list`].

pub mod list;

use serde::Serialize;

use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::git::plumbing::git_str;
use crate::lock::{ManifestMutex, OpsLock};
use crate::manifest::{Entry, Status};
use crate::output::{Out, Report};
use crate::worktree::salvage::{Head, ref_name};

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

/// A salvage commit: itself, its first parent (the worktree's HEAD), the
/// tree of its second (the index), and the entry its message records.
struct Salvage {
    commit: gix::ObjectId,
    head: gix::ObjectId,
    index_tree: gix::ObjectId,
    entry: Option<Entry>,
    /// `HEAD` was detached when it was salvaged.
    detached: bool,
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
    let detached = crate::worktree::salvage::recorded_head(&message) == Some("detached");
    Ok(Salvage {
        commit: commit.id,
        head,
        index_tree,
        entry,
        detached,
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
    let exists = || Error::RestoreExists {
        id: id.to_owned(),
        path: rel.clone(),
    };
    let registration = ctx
        .repo
        .loop_worktrees()?
        .into_iter()
        .find(|(name, _)| name == id)
        .map(|(_, wt)| wt);
    // A worktree left detached at this very salvage (an interrupted
    // `--salvage` removal, perhaps part deleted) is put back in place.
    let in_place = match &registration {
        Some(wt) => Some(crate::worktree::salvage::interrupted(id, wt, &abs)?.ok_or_else(exists)?),
        None if abs.symlink_metadata().is_ok() => return Err(exists()),
        None => None,
    };
    let branch = crate::runid::branch_name(id);
    let full_branch = format!("refs/heads/{branch}");
    let root = ctx.repo.root();
    let tip = ctx.repo.branch_target(&branch)?;
    let w = salvage.commit.to_string();
    let head = salvage.head.to_string();
    let (detached, on_loop_branch) = match &in_place {
        Some(put_back) => match &put_back.head {
            Head::Detached(_) => (true, false),
            Head::Branch(name) => (false, *name == full_branch),
        },
        None => (salvage.detached, !salvage.detached),
    };
    match in_place.as_ref() {
        Some(put_back) => {
            if on_loop_branch && tip.is_none() {
                let zero = gix::ObjectId::null(ctx.repo.gix().object_hash()).to_string();
                let msg = format!("git-loop restore of {id}: recreated");
                crate::git::plumbing::update_ref(root, &full_branch, &head, &zero, &msg)?;
            }
            put_back.run(true)?;
        }
        None => {
            let add: Vec<&str> = if detached {
                vec!["worktree", "add", "--detach", "--", &rel, &head]
            } else if tip.is_some() {
                vec!["worktree", "add", "--", &rel, &branch]
            } else {
                vec!["worktree", "add", "-b", &branch, "--", &rel, &head]
            };
            git_str(root, None, &add)?;
            git_str(
                &abs,
                None,
                &["read-tree", "-u", "--reset", &format!("{w}^{{tree}}")],
            )?;
            git_str(&abs, None, &["read-tree", &salvage.index_tree.to_string()])?;
        }
    }

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
    event.from = Some(crate::events::State::Commit(w.clone()));
    event.detail = Some(format!("restored from {}", ref_name(id)));
    ctx.log_events(&[event], out);
    drop(mutex);
    Ok(RestoreReport {
        id: id.to_owned(),
        path: rel,
        branch,
        refname: ref_name(id),
        commit: w,
        branch_recreated: on_loop_branch && tip.is_none(),
        branch_moved: on_loop_branch && tip.is_some_and(|t| t != salvage.head),
        detached,
        in_place: in_place.is_some(),
        entry,
    })
}
