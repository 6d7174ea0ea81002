//! A run's diffstat, for the view's `d` panel: the files its branch changed
//! since it left its base (the merge base of `loop/<id>` and the base, as
//! `git diff --stat <base>...loop/<id>` shows them), each with the lines
//! added and removed. Read through gix (a tree diff, then a line diff of
//! each changed blob); uncommitted work in the worktree is not in it (the
//! STATE column says `dirty`).

use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::manifest::Entry;

/// One changed file.
#[derive(Debug, PartialEq)]
pub struct FileStat {
    pub path: String,
    pub added: u32,
    pub removed: u32,
    /// A binary file: no line counts.
    pub binary: bool,
}

/// What a run's branch changed since its merge base with its base;
/// `None` when the branch or its base no longer resolves, or they share no
/// history.
pub fn read(ctx: &Ctx, entry: &Entry) -> Result<Option<Vec<FileStat>>> {
    let repo = ctx.repo.gix();
    let err = |e: &dyn std::fmt::Display| Error::Git(format!("the diffstat of {}: {e}", entry.id));
    let (Some(tip), Some(base)) = (
        ctx.repo.branch_target(&entry.branch())?,
        ctx.repo.resolve_commit(&entry.base_branch),
    ) else {
        return Ok(None);
    };
    let Ok(Some(merge_base)) = repo.merge_base(tip, base) else {
        return Ok(None);
    };
    let tree = |id: gix::ObjectId| -> Result<gix::Tree<'_>> {
        repo.find_commit(id)
            .and_then(|c| c.tree())
            .map_err(|e| err(&e))
    };
    let (old, new) = (tree(merge_base.detach())?, tree(tip)?);
    let changes = repo
        .diff_tree_to_tree(Some(&old), Some(&new), gix::diff::Options::default())
        .map_err(|e| err(&e))?;
    let blob = |id: gix::ObjectId| -> Vec<u8> {
        if id.is_null() {
            return Vec::new();
        }
        repo.find_object(id)
            .map(|o| o.detach().data)
            .unwrap_or_default()
    };
    let mut stats = Vec::new();
    for change in &changes {
        use gix::object::tree::diff::ChangeDetached as C;
        let (before, after, mode) = match change {
            C::Addition { id, entry_mode, .. } => {
                (gix::ObjectId::null(repo.object_hash()), *id, *entry_mode)
            }
            C::Deletion { id, entry_mode, .. } => {
                (*id, gix::ObjectId::null(repo.object_hash()), *entry_mode)
            }
            C::Modification {
                previous_id,
                id,
                entry_mode,
                ..
            } => (*previous_id, *id, *entry_mode),
            C::Rewrite {
                source_id,
                id,
                entry_mode,
                ..
            } => (*source_id, *id, *entry_mode),
        };
        if mode.is_tree() {
            continue;
        }
        let (before, after) = (blob(before), blob(after));
        let binary = before.contains(&0) || after.contains(&0);
        let (added, removed) = if binary {
            (0, 0)
        } else {
            use gix::diff::blob::{Algorithm, Diff, InternedInput};
            let input = InternedInput::new(before.as_slice(), after.as_slice());
            let diff = Diff::compute(Algorithm::Histogram, &input);
            (diff.count_additions(), diff.count_removals())
        };
        stats.push(FileStat {
            path: change.location().to_string(),
            added,
            removed,
            binary,
        });
    }
    Ok(Some(stats))
}
