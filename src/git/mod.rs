//! Everything that touches git: [`repo`] reads through gix, [`cmd`] is the only
//! place that spawns the `git` binary (for `git worktree add` and
//! `git worktree remove` and `git hook run`) but [`plumbing`], which runs
//! salvage and restore's plumbing and the fleet's calls to its remote; [`refs`] writes and deletes every ref
//! (by git when a `reference-transaction` hook may run) and follows
//! symbolic refs; [`error`] is what a failed call of
//! either said; [`refusal`] reads git's refusal texts,
//! [`progress`] copies git's checkout progress to a terminal,
//! [`merge`] merges trees in memory, [`record`] writes and reads the fleet's
//! one-file commits, [`merged`] tells whether a run's work
//! is in its base.

pub mod cmd;
pub mod error;
pub mod merge;
pub mod merged;
pub mod patch_id;
pub mod plumbing;
pub mod progress;
pub mod record;
pub mod refs;
pub mod refusal;
pub mod repo;

/// The git blob id of `bytes` in the object format `hash` (what `git
/// hash-object` prints for the file in a repository of that format).
pub(crate) fn blob_id(hash: gix::hash::Kind, bytes: &[u8]) -> String {
    gix::objs::compute_hash(hash, gix::objs::Kind::Blob, bytes)
        .map(|id| id.to_string())
        .unwrap_or_default()
}
