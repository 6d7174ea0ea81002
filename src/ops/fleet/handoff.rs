//! `git loop handoff <ID>`: the run published with everything not
//! committed, for another machine to take (`create <ID> --from`).
//!
//! The snapshot `W` is built as a salvage's is
//! ([`crate::worktree::salvage`]): its tree is the worktree (tracked
//! changes and untracked files that are not ignored), its first parent the
//! worktree's `HEAD`, its second `I`, a commit of the index's tree (the
//! ignored files `create.copy` or `.worktreeinclude` select are in `W`
//! too, as a create would copy them: [`crate::copy::selected_ignored`]); its
//! message the manifest entry as JSON and where `HEAD` was. It is built
//! against a copy of the index and read back against the files before
//! anything is written; the worktree, its index and `HEAD` are never
//! touched. Then, in this order, each step keeping what the one before
//! made:
//! 1. `W` kept in this machine's trash (`handed-off`, as a salvage of the
//!    run: `git loop trash restore` then `git loop restore` bring it back);
//! 2. `refs/loop/handoff/<id>` set to `W` (compare-and-swap): the run is
//!    handed off. This ref is the mark; the statuses do not change;
//! 3. the `handoff` event logged;
//! 4. the run published: its record's `handoff` names `W` and its time, and
//!    `W` is the record commit's second parent, so the snapshot travels
//!    with the record.
//!
//! Killed anywhere, nothing is lost: the worktree was never touched, and
//! once step 1 is done `W` is in the trash. A handoff run again builds
//! and publishes anew.

use serde::Serialize;

use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::events::{Event, EventKind, State};
use crate::output::Notes;

/// `refs/loop/handoff/<id>`: this machine's mark of a run handed off.
pub fn ref_name(id: &str) -> String {
    format!("{}{id}", super::HANDOFF_REFS)
}

/// What a handoff did.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HandoffOutcome {
    pub id: String,
    pub remote: String,
    pub machine: String,
    /// The snapshot commit (`W`).
    pub snapshot: String,
    /// The record's commit on the remote.
    pub record: String,
    /// The trash entry keeping the snapshot here.
    pub trash: String,
    /// Ignored files the snapshot does not hold.
    pub ignored: crate::worktree::salvage::IgnoredFiles,
}

pub(crate) fn handoff_err(id: &str, reason: impl std::fmt::Display) -> Error {
    Error::Handoff {
        id: id.to_owned(),
        reason: reason.to_string(),
    }
}

/// Hand off run `id` (see the module doc).
pub fn handoff(ctx: &Ctx, id: &str, notes: &mut Notes<'_>) -> Result<HandoffOutcome> {
    if !ctx.loop_dir_exists()? {
        return Err(Error::unknown_id(id, []));
    }
    let entry = ctx.read_manifest()?.get(id)?.clone();
    let wt = ctx
        .repo
        .loop_worktree(id)?
        .ok_or_else(|| handoff_err(id, "its worktree is not there"))?;
    let abs = ctx.worktree_path(id);
    let copied = crate::copy::selected_ignored(&abs, &ctx.settings()?.create_copy.value)?;
    let (snapshot, ignored) = snapshot(id, &entry, &abs, &wt.admin_dir, &copied)?;
    let gix = ctx.repo.gix();
    crate::crash::point("handoff-built");
    let trash =
        crate::safety::trash::keep(gix, &crate::safety::trash::Keep::handed_off(id, snapshot))?;
    let name = ref_name(id);
    let old = match crate::git::refs::find(gix, &name) {
        Ok(Some(value)) => value.id().map(|o| o.to_string()),
        Ok(None) => None,
        Err(e) => return Err(handoff_err(id, e)),
    };
    let zero = gix::ObjectId::null(gix.object_hash()).to_string();
    crate::git::plumbing::update_ref(
        ctx.repo.root(),
        &name,
        &snapshot.to_string(),
        old.as_deref().unwrap_or(&zero),
        &format!("git-loop handoff of {id}"),
    )?;
    crate::crash::point("handoff-marked");
    let mut tx = ctx.start_transaction()?;
    let mut event = Event::new(EventKind::Handoff, id);
    event.to = Some(State::Commit(snapshot.to_string()));
    event.detail = Some(format!("snapshot kept in {trash}"));
    tx.log(event);
    tx.commit_record()?;
    let ids = [id.to_owned()];
    let request = super::publish::PublishRequest {
        ids: &ids,
        timeout: None,
        handing_off: Some(id),
    };
    let published = super::publish::publish(ctx, &request, notes)?;
    let record = published
        .published
        .iter()
        .find(|p| p.id == id)
        .map(|p| p.record.clone())
        .ok_or_else(|| handoff_err(id, "its record was not published"))?;
    Ok(HandoffOutcome {
        id: id.to_owned(),
        remote: published.remote,
        machine: published.machine,
        snapshot: snapshot.to_string(),
        record,
        trash,
        ignored,
    })
}

/// The snapshot of the worktree at `abs`, built and verified as a
/// salvage's; the ignored files it leaves out.
fn snapshot(
    id: &str,
    entry: &crate::manifest::Entry,
    abs: &std::path::Path,
    admin_dir: &std::path::Path,
    copied: &[String],
) -> Result<(gix::ObjectId, crate::worktree::salvage::IgnoredFiles)> {
    let repo = gix::open(abs).map_err(|e| handoff_err(id, e))?;
    let head = crate::git::refs::head_commit(&repo)
        .ok_or_else(|| handoff_err(id, "its HEAD does not name a commit"))?;
    let on_branch = crate::git::refs::head_name(&repo).map_err(|e| handoff_err(id, e))?;
    let branch = format!("refs/heads/{}/{id}", crate::runid::BRANCH_PREFIX);
    if on_branch.as_deref() != Some(branch.as_str()) {
        return Err(handoff_err(
            id,
            format!("its HEAD is not on {branch}: check the branch out first"),
        ));
    }
    let message = format!(
        "git-loop handoff of {id}\n\n{}\n\n{}{}\n",
        serde_json::to_string(entry).expect("an entry serializes"),
        crate::worktree::salvage::HEAD_TRAILER,
        on_branch.as_deref().unwrap_or("detached")
    );
    let commit = crate::worktree::salvage::build::build(
        abs,
        admin_dir,
        &head.to_string(),
        &message,
        copied,
    )?;
    let w = gix::ObjectId::from_hex(commit.as_bytes()).map_err(|e| handoff_err(id, e))?;
    let ignored = crate::worktree::salvage::verify::verify(abs, w).map_err(|why| {
        handoff_err(
            id,
            format!("the snapshot does not match the worktree: {why}"),
        )
    })?;
    Ok((w, ignored))
}
