//! `git loop restore --drop <ID>`: a salvage the user no longer wants goes,
//! with a way back: the kernel keeps it in the trash first
//! (`refs/loop/trash/<when>/salvage-dropped/loop/salvage/<id>`, for
//! `trash.keep`), then deletes `refs/loop/salvage/<id>` by compare-and-swap
//! on the tip it kept ([`crate::safety::trash::drop_salvage`]). `git loop
//! trash restore <NAME>` brings it back as the salvage (`crate::ops::trash`),
//! which `git loop restore` takes again. An id with no salvage is refused
//! (`no-salvage`), as `restore` refuses it.

use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::lock::OpsLock;
use crate::output::Notes;
use crate::worktree::salvage::ref_name;

/// A salvage moved to the trash.
#[derive(Debug)]
pub struct Dropped {
    pub id: String,
    /// `refs/loop/salvage/<id>`, deleted.
    pub refname: String,
    /// The salvage commit it held.
    pub commit: gix::ObjectId,
    /// The trash entry's name (below `refs/loop/trash/`).
    pub trash: String,
}

pub fn drop_salvage(ctx: &Ctx, id: &str, out: &mut Notes<'_>) -> Result<Dropped> {
    let refname = ref_name(id);
    ctx.ensure_loop_dir()?;
    let _ops = OpsLock::acquire(&ctx.loop_dir(), |waiting| {
        out.note(format_args!("{waiting}"))
    })?;
    let _run =
        crate::lock::RunLock::acquire(ctx.repo.common_dir(), id, crate::lock::RUN_LOCK_DEADLINE)?;
    let repo = ctx.repo.gix();
    let found = crate::git::refs::find(repo, &refname)
        .map_err(|e| Error::Repository(format!("{refname}: {e}")))?;
    let Some(commit) = found.and_then(|v| v.id()) else {
        return Err(super::no_salvage(ctx, id));
    };
    let kept = crate::safety::trash::drop_salvage(repo, id, commit)?;
    let mut tx = ctx.start_transaction()?;
    let mut event = crate::events::Event::new(crate::events::EventKind::SalvageDrop, id);
    event.from = Some(crate::events::State::Commit(commit.to_string()));
    event.detail = Some(format!("{refname} dropped, kept in the trash as {kept}"));
    tx.log(event);
    tx.commit(out)?;
    let trash = kept
        .strip_prefix(crate::safety::trash::PREFIX)
        .unwrap_or(&kept)
        .to_owned();
    Ok(Dropped {
        id: id.to_owned(),
        refname,
        commit,
        trash,
    })
}
