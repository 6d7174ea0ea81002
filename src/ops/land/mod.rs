//! `git loop land`: a run's committed work onto its base, built without
//! touching any worktree, gated in a scratch checkout, and the target
//! advanced by compare-and-swap (issue "Close the loop").
//!
//! The steps, each in its own module:
//! - [`build`]: the landed commit(s) for one run onto the target's tip, in
//!   memory ([`crate::git::merge::Merger`]'s object memory) until
//!   [`build::persist`] writes them to the object database (never in a
//!   dry run);
//! - [`gate`]: the gate command in a scratch checkout of the landed commit
//!   under `.loop-worktrees/`, with the hook trust rules and a timeout;
//! - [`advance`]: the target ref moved from the tip the landing was built on
//!   to the landed commit by compare-and-swap, and the worktree that has
//!   the target checked out (usually the main checkout) updated only where
//!   it is clean (`read-tree -m -u` semantics), or refused before the ref
//!   moves;
//! - then (this module) the run is marked `merged`, a `land` event logged,
//!   its worktree removed by the usual rules and its branch deleted only by
//!   CAS at the tip that landed, its tip kept in the trash.

pub mod advance;
pub mod build;
pub mod gate;
pub mod push;
