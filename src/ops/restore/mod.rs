//! `git loop restore <ID>`'s operation: bring a salvaged run back (see
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
//! ref is kept (the report says so) until the next salvage of that id or
//! `restore --drop` ([`drop_salvage`]), each of which keeps it in the trash. Any other id that has a
//! worktree, or one with no salvage, is refused before anything changes.
//!
//! Phases: read the salvage ([`read_salvage`]), under the locks decide
//! where it goes ([`place`]: in place, or a new worktree), put its files
//! back ([`put_back`]), record the entry and log it ([`record`]).
//! `git loop list --salvaged`: [`salvaged`].

pub mod drop;
pub mod salvaged;

pub use drop::drop_salvage;
pub use salvaged::salvaged;

use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::git::plumbing::git_str;
use crate::lock::OpsLock;
use crate::manifest::{Entry, Status};
use crate::output::Notes;
use crate::worktree::salvage::{Head, PutBack, ref_name};

/// A run brought back.
#[derive(Debug)]
pub struct Restored {
    pub id: String,
    /// `.loop-worktrees/<id>`.
    pub path: String,
    pub branch: String,
    /// The salvage ref, `refs/loop/salvage/<id>`.
    pub refname: String,
    /// The salvage commit `W`.
    pub commit: gix::ObjectId,
    /// `loop/<id>` was gone and was created at the salvage's first parent.
    pub branch_recreated: bool,
    /// `loop/<id>` no longer points at the salvage's first parent.
    pub branch_moved: bool,
    /// Salvaged with a detached `HEAD`: it came back detached.
    pub detached: bool,
    /// Its worktree was still there, left by an interrupted `--salvage`
    /// removal: put back in place.
    pub in_place: bool,
    /// The entry recorded (status `active`).
    pub entry: Entry,
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
    let Some(value) = crate::git::refs::find(repo, &ref_name(id)).map_err(|e| err(&e))? else {
        return Err(Error::NoSalvage {
            id: id.to_owned(),
            suggestion: String::new(),
        });
    };
    let commit = crate::git::refs::peel_commit(repo, &value)
        .ok_or_else(|| err(&"it does not lead to a commit"))?;
    let commit = repo.find_commit(commit).map_err(|e| err(&e))?;
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

pub fn restore(ctx: &Ctx, id: &str, out: &mut Notes<'_>) -> Result<Restored> {
    let salvage = read_salvage(ctx.repo.gix(), id).map_err(|e| match e {
        Error::NoSalvage { id, .. } => no_salvage(ctx, &id),
        e => e,
    })?;
    ctx.ensure_loop_dir()?;
    let _ops = OpsLock::acquire(&ctx.loop_dir(), |waiting| {
        out.note(format_args!("{waiting}"))
    })?;
    let _run =
        crate::lock::RunLock::acquire(ctx.repo.common_dir(), id, crate::lock::RUN_LOCK_DEADLINE)?;
    let in_place = place(ctx, id)?;
    let branch = crate::runid::branch_name(id);
    let tip = ctx.repo.branch_target(&branch)?;
    let (detached, on_loop_branch) = match &in_place {
        Some(put_back) => match &put_back.head {
            Head::Detached(_) => (true, false),
            Head::Branch(name) => (false, *name == format!("refs/heads/{branch}")),
        },
        None => (salvage.detached, !salvage.detached),
    };
    let recreate = on_loop_branch && tip.is_none();
    put_back(ctx, id, &salvage, in_place.as_ref(), detached, recreate)?;
    let entry = record(ctx, id, salvage.entry.clone(), salvage.commit, out)?;
    Ok(Restored {
        id: id.to_owned(),
        path: crate::runid::rel_path(id),
        branch,
        refname: ref_name(id),
        commit: salvage.commit,
        branch_recreated: recreate,
        branch_moved: on_loop_branch && tip.is_some_and(|t| t != salvage.head),
        detached,
        in_place: in_place.is_some(),
        entry,
    })
}

/// `no-salvage` for `id`, with the salvaged id it was probably meant to be.
fn no_salvage(ctx: &Ctx, id: &str) -> Error {
    let salvaged = salvaged::salvaged(ctx).unwrap_or_default();
    let suggestion =
        crate::error::suggest::did_you_mean(id, salvaged.iter().map(|s| s.id.as_str()));
    Error::NoSalvage {
        id: id.to_owned(),
        suggestion,
    }
}

/// Where the run goes back: in place, when its worktree is still
/// registered and left detached at this very salvage by an interrupted
/// `--salvage` removal (perhaps part deleted); else a new worktree, when
/// nothing is at its path. Anything else is refused.
fn place(ctx: &Ctx, id: &str) -> Result<Option<PutBack>> {
    let abs = ctx.worktree_path(id);
    let exists = || Error::RestoreExists {
        id: id.to_owned(),
        path: crate::runid::rel_path(id),
    };
    let registration = ctx
        .repo
        .loop_worktrees()?
        .into_iter()
        .find(|(name, _)| name == id)
        .map(|(_, wt)| wt);
    match &registration {
        Some(wt) => Ok(Some(
            crate::worktree::salvage::interrupted(id, wt, &abs)?.ok_or_else(exists)?,
        )),
        None if abs.symlink_metadata().is_ok() => Err(exists()),
        None => Ok(None),
    }
}

/// The files, index and `HEAD` back: in place, or in a new worktree on
/// `loop/<id>` (`recreate`: the branch made at the salvage's first parent)
/// or detached there.
fn put_back(
    ctx: &Ctx,
    id: &str,
    salvage: &Salvage,
    in_place: Option<&PutBack>,
    detached: bool,
    recreate: bool,
) -> Result<()> {
    let root = ctx.repo.root();
    let branch = crate::runid::branch_name(id);
    let head = salvage.head.to_string();
    if let Some(put_back) = in_place {
        if recreate {
            let zero = gix::ObjectId::null(ctx.repo.gix().object_hash()).to_string();
            let msg = format!("git-loop restore of {id}: recreated");
            let full_branch = format!("refs/heads/{branch}");
            crate::git::plumbing::update_ref(root, &full_branch, &head, &zero, &msg)?;
        }
        return put_back.apply(true);
    }
    let rel = crate::runid::rel_path(id);
    let add: Vec<&str> = if detached {
        vec!["worktree", "add", "--detach", "--", &rel, &head]
    } else if !recreate {
        vec!["worktree", "add", "--", &rel, &branch]
    } else {
        vec!["worktree", "add", "-b", &branch, "--", &rel, &head]
    };
    git_str(root, None, &add)?;
    let abs = ctx.worktree_path(id);
    let w = salvage.commit.to_string();
    git_str(
        &abs,
        None,
        &["read-tree", "-u", "--reset", &format!("{w}^{{tree}}")],
    )?;
    git_str(&abs, None, &["read-tree", &salvage.index_tree.to_string()])?;
    Ok(())
}

/// Record the run as `active` (the salvage's entry, or a new one) under the
/// manifest mutex, and log the `restore`.
fn record(
    ctx: &Ctx,
    id: &str,
    entry: Option<Entry>,
    commit: gix::ObjectId,
    out: &mut Notes<'_>,
) -> Result<Entry> {
    let mut entry = entry.unwrap_or_else(|| Entry::new(id, "main", "restored", crate::time::now()));
    entry.status = Status::Active;
    let mut tx = ctx.start_transaction()?;
    let manifest = tx.manifest_mut()?;
    manifest.worktrees.retain(|e| e.id != id);
    manifest.worktrees.push(entry.clone());
    let mut event = crate::events::Event::new(crate::events::EventKind::Restore, id);
    event.from = Some(crate::events::State::Commit(commit.to_string()));
    event.detail = Some(format!("restored from {}", ref_name(id)));
    tx.log(event);
    tx.commit(out)?;
    Ok(entry)
}
