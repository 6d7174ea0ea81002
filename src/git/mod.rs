//! Everything that touches git: [`repo`] reads through gix, [`cmd`] is the only
//! place that spawns the `git` binary (for `git worktree add` and
//! `git worktree remove`, nothing else).

pub mod cmd;
pub mod repo;
