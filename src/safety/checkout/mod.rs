//! A landing's update of the checkout that has its target checked out:
//! the kernel's proof that writing over and deleting those files loses
//! nothing, and the leave it gives for that.
//!
//! A landing moves its target from `old` to `new`, a descendant of `old`.
//! The checkout that has the target checked out then follows, as
//! `git read-tree -m -u old new` would: every path the two trees differ in
//! is written (or deleted) and its index entry replaced; every other path
//! keeps its file and its entry, staged change or not. The files written
//! over or deleted are, by the proof ([`clean::plan`]), exactly `old`'s
//! blobs (their index entries hold `old`'s blob, not racily, and their
//! stats are the cached ones), and `old` stays reachable from the target
//! (`new` descends from it): nothing could be lost, so nothing goes to the
//! trash. Anything the proof is unsure of is left to git's `read-tree`,
//! which refuses what is in its way.
//!
//! [`permit`] gives the leave; [`write::update`] (through
//! [`super::exec::update_checkout`]) is the one primitive that writes the
//! files and the index with it.

use std::path::Path;

use gix::ObjectId;

use super::{Permit, Target};
use crate::error::Result;

pub mod clean;
pub mod untracked;
pub(crate) mod write;

pub use clean::{Step, certainly_clean};

/// Leave to update `checkout` from `old` to `new` for the landing (or
/// sync) that has just moved `branch` there: `branch` is at `new`, `old`
/// is still held — `new` descends from it, or (a sync's rewrite) the trash
/// entry `kept` holds it — and every path they differ in is certainly up to
/// date in the checkout whose index is `index` ([`clean::plan`]). The steps
/// come with it. `None`: unsure; git's `read-tree` decides.
pub fn permit(
    repo: &gix::Repository,
    checkout: &Path,
    index: &gix::index::File,
    branch: &str,
    (old, new): (ObjectId, ObjectId),
    kept: Option<&str>,
) -> Result<Option<(Permit, Vec<Step>)>> {
    let full = format!("refs/heads/{branch}");
    let at_new = crate::git::refs::id(repo, &full) == Some(new);
    let descends = super::descends_from(repo, new, old)
        || kept.is_some_and(|kept| super::kept_in_trash(repo, kept, old));
    if !at_new || !descends {
        return Ok(None);
    }
    let Some(steps) = clean::plan(repo, checkout, index, old, new)? else {
        return Ok(None);
    };
    let permit = Permit {
        what: Target::Checkout(checkout.to_path_buf(), old, new),
        kept: Vec::new(),
    };
    Ok(Some((permit, steps)))
}
