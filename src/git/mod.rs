//! Everything that touches git: [`repo`] reads through gix, [`cmd`] is the only
//! place that spawns the `git` binary (for `git worktree add` and
//! `git worktree remove`, `git branch -d` and `git hook run`), [`refusal`] reads
//! git's refusal texts.

pub mod cmd;
pub mod refusal;
pub mod repo;
