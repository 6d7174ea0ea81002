//! A built landing written from the merger's object memory to the object
//! database.
//!
//! Only the objects the landing needs are written: those in memory reachable
//! from its tip (its new commits, their trees, the merged blobs), found by a
//! walk that stops at any object not in memory (that one, and everything it
//! reaches, is in the object database already). Objects a conflicting or
//! abandoned build left in memory stay there, unwritten. Each object is
//! written after everything it points to (blobs and subtrees before their
//! tree, tree and parents before their commit), so the object database never
//! holds an object whose children are missing, even if writing stops part
//! way; a commit already in the database (ff, or a rebase that kept the
//! run's own commits) writes nothing.

use std::collections::HashSet;

use gix::ObjectId;
use gix::objs::{Kind, Write as _};

use super::repo_err;
use crate::error::Result;
use crate::git::merge::Merger;

/// Write the objects in the merger's memory that `tip` reaches to the object
/// database.
pub(super) fn write(merger: &Merger, tip: ObjectId) -> Result<()> {
    let objects = &merger.repo().objects;
    // Take the memory to read it directly; what is not written goes back,
    // so the merger's view of objects is the same afterwards.
    let memory = objects.reset_object_memory().unwrap_or_default();
    let order = write_order(&memory, tip, merger.repo().object_hash());
    let odb: &gix::odb::Handle = objects;
    let mut written = HashSet::new();
    let mut failure = None;
    for id in order {
        let (kind, data) = &memory[&id];
        match odb.write_buf(*kind, data) {
            Ok(got) if got == id => {
                written.insert(id);
            }
            Ok(got) => {
                failure = Some(repo_err(format!(
                    "writing object {id} to the object database stored {got} instead"
                )));
                break;
            }
            Err(e) => {
                failure = Some(repo_err(format!(
                    "could not write object {id} to the object database: {e}"
                )));
                break;
            }
        }
    }
    for (id, (kind, data)) in memory.iter() {
        if !written.contains(id) {
            objects
                .write_buf_with_known_id(*kind, data, *id)
                .map_err(|e| repo_err(format!("could not keep object {id} in memory: {e}")))?;
        }
    }
    failure.map_or(Ok(()), Err)
}

/// The objects in `memory` reachable from `tip` through objects in memory,
/// each after the objects it points to.
fn write_order(
    memory: &gix::odb::memory::Storage,
    tip: ObjectId,
    hash: gix::hash::Kind,
) -> Vec<ObjectId> {
    let children = |id: &ObjectId| -> Vec<ObjectId> {
        let Some((kind, data)) = memory.get(id) else {
            return Vec::new();
        };
        let out: Vec<ObjectId> = match kind {
            Kind::Commit => gix::objs::CommitRefIter::from_bytes(data, hash)
                .tree_id()
                .ok()
                .into_iter()
                .chain(gix::objs::CommitRefIter::from_bytes(data, hash).parent_ids())
                .collect(),
            Kind::Tree => gix::objs::TreeRefIter::from_bytes(data, hash)
                .filter_map(std::result::Result::ok)
                .filter(|e| !e.mode.is_commit())
                .map(|e| e.oid.to_owned())
                .collect(),
            Kind::Blob | Kind::Tag => Vec::new(),
        };
        out.into_iter().filter(|c| memory.contains_key(c)).collect()
    };
    let mut order = Vec::new();
    if !memory.contains_key(&tip) {
        return order;
    }
    let mut seen = HashSet::from([tip]);
    let mut stack = vec![(tip, children(&tip))];
    while let Some((id, pending)) = stack.last_mut() {
        match pending.pop() {
            Some(child) => {
                if seen.insert(child) {
                    let grand = children(&child);
                    stack.push((child, grand));
                }
            }
            None => {
                order.push(*id);
                stack.pop();
            }
        }
    }
    order
}
