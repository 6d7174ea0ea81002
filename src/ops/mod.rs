//! The operations: what git-loop does, below the command line. Each command
//! in `crate::commands` is a thin adapter from its clap arguments to one
//! operation here and the report it prints; operations never import a
//! command, and return typed outcomes from which the events and the report
//! are built (a report is never read back as working state).
pub mod activity;
pub mod base;
pub mod branches;
pub mod claude;
pub mod conflicts;
pub mod create;
pub mod disk;
pub mod env;
pub mod fleet;
pub mod ignore;
pub mod infer;
pub mod judge;
pub mod land;
pub mod list;
pub mod mark;
pub mod pick;
pub mod pool;
pub mod ports;
pub mod reclaim;
pub mod reconcile;
pub mod restore;
pub mod run;
pub mod sync;
pub mod trash;
pub mod trust;
pub mod watch;
