//! The landed commit(s) of one run, built in memory.

use gix::ObjectId;

use crate::error::Result;
use crate::git::merge::Merger;

/// How a run's commits land (`--strategy`, `land.strategy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Strategy {
    /// The run's commits replayed onto the target's tip, authors and
    /// messages kept (the default).
    #[default]
    Rebase,
    /// One commit with the run's whole change.
    Squash,
    /// A merge commit of the target's tip and the run's tip.
    Merge,
    /// Only when the target's tip is an ancestor of the run's tip: the
    /// target moves to the run's tip itself.
    Ff,
}

/// What to build.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    /// The target's tip the landing is built on.
    pub onto: ObjectId,
    /// The run's branch tip (its committed work).
    pub run_tip: ObjectId,
    pub strategy: Strategy,
    /// `-m`: the message of a squash or merge commit.
    pub message: Option<&'a str>,
    /// For default messages: the run's id and the target branch's name.
    pub run_id: &'a str,
    pub into: &'a str,
}

/// A landing that built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Built {
    /// The commit the target would move to.
    pub tip: ObjectId,
    /// How many commits the landing adds on top of `onto`.
    pub commits: usize,
}

/// The outcome of [`build`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Build {
    Built(Built),
    /// A commit (or the whole change) does not apply: the conflicting paths.
    Conflict { paths: Vec<String> },
    /// `ff` asked, and the target's tip is not an ancestor of the run's tip.
    NotFastForward,
    /// The run has no commits of its own over the target (or all of them are
    /// already in it).
    Empty,
}

/// Build the landing of `req` with `merger` (its objects stay in the
/// merger's memory).
pub fn build(merger: &Merger, req: &Request<'_>) -> Result<Build> {
    let _ = (merger, req);
    todo!("issue 23: build")
}

/// Write the objects `built` needs (its commits, trees, blobs) from the
/// merger's memory to the object database.
pub fn persist(merger: &Merger, built: &Built) -> Result<()> {
    let _ = (merger, built);
    todo!("issue 23: persist")
}
