//! `git loop create <ID> --from <MACHINE>` (or `--from
//! <REMOTE>/<MACHINE>/<ID>`): a run another machine handed off
//! ([`super::handoff`]), recreated here exactly.
//!
//! Everything read from the remote is checked before it is used, and
//! nothing from it runs: the record as `list --fleet` checks it (its
//! names, its size, its tip and snapshot its commit's parents); the
//! snapshot `W` a commit on the tip whose second parent `I` (the index) is
//! a commit on the tip too; every path of both trees relative and plain
//! (no empty, `.` or `..` component, no `.git`, no submodule). Then:
//! 1. `loop/<id>` made here at the record's tip (a new ref, or already
//!    there at that tip: a create --from run again);
//! 2. the run created on it as `create --reuse` adopts a branch, with the
//!    record's base and pattern;
//! 3. the snapshot applied to the new worktree (`read-tree -u --reset
//!    W^{tree}`, then `read-tree I^{tree}`: the files, then the index), only
//!    when the worktree is clean or holds the snapshot already (a create
//!    --from killed after step 2): a worktree with changes of its own is
//!    refused, never overwritten;
//! 4. the run's lease, if the handing machine holds one, taken over by
//!    compare-and-swap.
//!
//! Killed anywhere, nothing is lost: nothing here is deleted or
//! overwritten, and the snapshot stays on the remote (and in the first
//! machine's trash); the command run again carries on.

use gix::ObjectId;
use serde::Serialize;

use super::FLEET_REFS;
use super::record::{self, Record};
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::git::plumbing::git_str;

/// What was taken, beside the run created.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Taken {
    pub remote: String,
    /// The machine it was handed off by.
    pub machine: String,
    /// The record's commit on the remote.
    pub record: String,
    /// The snapshot applied.
    pub snapshot: String,
    /// The task's lease taken over from that machine, if it held one.
    pub lease: Option<String>,
}

/// Take run `request.run_id` from `from` (see the module doc): the run
/// created, and what was taken.
pub fn take(
    ctx: &Ctx,
    request: &crate::ops::create::CreateRequest,
    from: &str,
    notes: &mut crate::output::Notes<'_>,
) -> Result<(crate::ops::create::Created, Taken)> {
    let id = request.run_id.as_str();
    let fleet = super::identity(ctx)?;
    let (remote, machine) = source(from, id, &fleet.remote)?;
    let (at, record) = handed_off(ctx, &remote, &machine, id)?;
    let (Some(tip), Some(handoff)) = (&record.tip, &record.handoff) else {
        unreachable!("a checked record with a hand-off has a tip");
    };
    let (w, index) = check_snapshot(ctx, id, &handoff.snapshot, tip)?;
    let base = &record.base_branch;
    if crate::runid::problem(base.replace('/', "-").as_str()).is_some() {
        return Err(super::handoff::handoff_err(
            id,
            format!(
                "its base {:?} is no branch name",
                crate::style::escape(base)
            ),
        ));
    }
    let lease = super::claim::take_over(ctx, &remote, id, &machine)?;
    branch_at(ctx, id, tip)?;
    crate::crash::point("take-branch");
    let mut adopt = request.clone();
    adopt.reuse = true;
    adopt.base = Some(base.clone());
    adopt.pattern = Some(record.pattern.clone());
    let created = crate::ops::create::create(ctx, &adopt, notes)?;
    crate::crash::point("take-created");
    let wt = ctx
        .repo
        .loop_worktree(id)?
        .ok_or_else(|| super::handoff::handoff_err(id, "its worktree is not there"))?;
    apply(&created.abs_path, &wt.admin_dir, id, w, index)?;
    let taken = Taken {
        remote,
        machine,
        record: at,
        snapshot: w.to_string(),
        lease,
    };
    Ok((created, taken))
}

/// The remote and machine `--from` names: `<MACHINE>`, on the fleet's
/// remote, or `<REMOTE>/<MACHINE>/<ID>` (its id must be `id`).
pub fn source(from: &str, id: &str, fleet_remote: &str) -> Result<(String, String)> {
    let refused = |why: &str| Error::NotHandedOff {
        id: id.to_owned(),
        machine: crate::style::escape(from).into_owned(),
        reason: why.to_owned(),
    };
    let (remote, machine) = match from.rsplitn(3, '/').collect::<Vec<_>>()[..] {
        [machine] => (fleet_remote.to_owned(), machine.to_owned()),
        [run, machine, remote] if !remote.is_empty() => {
            if run != id {
                return Err(refused("--from names another run than the one created"));
            }
            (remote.to_owned(), machine.to_owned())
        }
        _ => return Err(refused("--from is <MACHINE> or <REMOTE>/<MACHINE>/<ID>")),
    };
    if let Some(why) = crate::runid::problem(&machine) {
        return Err(refused(&format!("not a machine name: {why}")));
    }
    Ok((remote, machine))
}

/// The record of `id` published by `machine` on `remote`, fetched and
/// checked, with its hand-off.
pub fn handed_off(ctx: &Ctx, remote: &str, machine: &str, id: &str) -> Result<(String, Record)> {
    let refused = |why: String| Error::NotHandedOff {
        id: id.to_owned(),
        machine: machine.to_owned(),
        reason: why,
    };
    let name = format!("{FLEET_REFS}{machine}/{id}");
    let refs = super::remote_refs(ctx, remote, &[&name], None)?;
    let Some(at) = refs.get(&name) else {
        return Err(refused(format!("{remote} has no {name}")));
    };
    super::fetch_missing(ctx, remote, &[at], None)?;
    let read = super::read_fetched(ctx, remote, at, || {
        record::read_record(ctx, machine, id, at)
    })?;
    let record =
        read.map_err(|bad| refused(format!("its record: {} ({})", bad.reason, bad.code)))?;
    if record.handoff.is_none() {
        return Err(refused("its record names no hand-off".to_owned()));
    }
    Ok((at.clone(), record))
}

/// The snapshot `W` and its index commit `I`, checked: `W^1` and `I^1`
/// are `tip`, and every path of their trees is plain.
pub fn check_snapshot(ctx: &Ctx, id: &str, w: &str, tip: &str) -> Result<(ObjectId, ObjectId)> {
    let bad = |why: String| super::handoff::handoff_err(id, format!("its snapshot {w}: {why}"));
    let gix = ctx.repo.gix();
    let parents = |c: ObjectId| -> Result<Vec<ObjectId>> {
        let commit = gix
            .find_commit(c)
            .map_err(|e| bad(format!("not a commit here: {e}")))?;
        Ok(commit.parent_ids().map(|p| p.detach()).collect())
    };
    let w_id = ObjectId::from_hex(w.as_bytes()).map_err(|e| bad(e.to_string()))?;
    let tip_id = ObjectId::from_hex(tip.as_bytes()).map_err(|e| bad(e.to_string()))?;
    let [first, index] = parents(w_id)?[..] else {
        return Err(bad("it has not two parents".to_owned()));
    };
    if first != tip_id || parents(index)?.first() != Some(&tip_id) {
        return Err(bad("it is not a snapshot of the record's tip".to_owned()));
    }
    for commit in [w_id, index] {
        plain_paths(gix, commit).map_err(bad)?;
    }
    Ok((w_id, index))
}

/// Every path of `commit`'s tree relative and plain: no empty, `.` or
/// `..` component, no `.git` (any case), no submodule.
fn plain_paths(gix: &gix::Repository, commit: ObjectId) -> std::result::Result<(), String> {
    let tree = gix
        .find_commit(commit)
        .map_err(|e| e.to_string())?
        .tree()
        .map_err(|e| e.to_string())?;
    let mut rec = gix::traverse::tree::Recorder::default();
    tree.traverse()
        .breadthfirst(&mut rec)
        .map_err(|e| e.to_string())?;
    for entry in &rec.records {
        let path = entry.filepath.to_string();
        let shown = || crate::style::escape(&path).into_owned();
        if entry.mode.kind() == gix::object::tree::EntryKind::Commit {
            return Err(format!("{:?} is a submodule", shown()));
        }
        for part in path.split('/') {
            if part.is_empty() || part == "." || part == ".." || part.eq_ignore_ascii_case(".git") {
                return Err(format!("{:?} is not a plain relative path", shown()));
            }
        }
    }
    Ok(())
}

/// `loop/<id>` at `tip`: made when absent; there already at `tip` is
/// fine (a create --from run again); anywhere else refused
/// (`branch-exists`), never moved.
pub fn branch_at(ctx: &Ctx, id: &str, tip: &str) -> Result<()> {
    let branch = format!("{}/{id}", crate::runid::BRANCH_PREFIX);
    match ctx.repo.branch_target(&branch)? {
        Some(at) if ObjectId::from_hex(tip.as_bytes()).ok() == Some(at) => Ok(()),
        Some(_) => Err(Error::BranchExists {
            branch: branch.clone(),
            racing: false,
        }),
        None => {
            let zero = ObjectId::null(ctx.repo.gix().object_hash()).to_string();
            crate::git::plumbing::update_ref(
                ctx.repo.root(),
                &format!("refs/heads/{branch}"),
                tip,
                &zero,
                &format!("git-loop create {id} --from: the handed-off tip"),
            )
        }
    }
}

/// The snapshot applied to the run's worktree `abs` (on `tip`): its files,
/// then its index; refused when the worktree holds changes that are not
/// the snapshot's.
pub fn apply(
    abs: &std::path::Path,
    admin_dir: &std::path::Path,
    id: &str,
    w: ObjectId,
    index: ObjectId,
) -> Result<()> {
    let status = git_str(
        abs,
        None,
        &["status", "--porcelain", "--untracked-files=all"],
    )?;
    if !status.trim().is_empty() {
        let tree = git_str(abs, None, &["rev-parse", &format!("{w}^{{tree}}")])?;
        if worktree_tree(abs, admin_dir, w)? != tree.trim() {
            return Err(super::handoff::handoff_err(
                id,
                "its worktree here has changes of its own: not overwritten (remove the run, or hand it off, first)",
            ));
        }
    }
    git_str(
        abs,
        None,
        &["read-tree", "-u", "--reset", &format!("{w}^{{tree}}")],
    )?;
    crate::crash::point("take-files");
    git_str(abs, None, &["read-tree", &format!("{index}^{{tree}}")])?;
    Ok(())
}

/// The tree of the worktree at `abs` (tracked and untracked files, not
/// ignored ones but those at a path of `w`'s tree), built as a salvage's
/// is (against a copy of its index).
fn worktree_tree(
    abs: &std::path::Path,
    admin_dir: &std::path::Path,
    w: ObjectId,
) -> Result<String> {
    let repo = gix::open(abs).map_err(|e| Error::Repository(e.to_string()))?;
    let paths =
        crate::worktree::salvage::verify::tree_entries(&repo, w).map_err(Error::Repository)?;
    let mut force: Vec<String> = paths
        .keys()
        .filter_map(|p| std::str::from_utf8(p).ok())
        .filter(|p| abs.join(p).symlink_metadata().is_ok())
        .map(str::to_owned)
        .collect();
    force.sort();
    let head = git_str(abs, None, &["rev-parse", "HEAD"])?;
    let probe =
        crate::worktree::salvage::build::build(abs, admin_dir, head.trim(), "probe", &force)?;
    Ok(
        git_str(abs, None, &["rev-parse", &format!("{probe}^{{tree}}")])?
            .trim()
            .to_owned(),
    )
}
