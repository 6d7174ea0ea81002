//! What every test file uses, each helper once. Import from `crate::common`
//! (everything below is re-exported here):
//!
//! - [`repo`]: the one fixture, [`TestRepo`], a temporary repository with a
//!   pinned, hermetic git environment; its `run`/`output` check every
//!   `--json` document against its schema (`crate::schema`); hand-written
//!   manifests ([`manifest_with`]); a repository with a tree of files.
//! - [`kind`]: the kinds of repository git makes ([`Kind`]: SHA-1 or SHA-256
//!   objects, files or reftable refs, the bare-repository layout), which
//!   [`TestRepo::of`] makes.
//! - [`run`]: what a run returned ([`Run`]: exit code, stdout, stderr) and
//!   short readers of its JSON ([`JsonExt`], [`skipped`], [`long_of`]).
//! - [`git`]: git in any directory ([`git_ok`], trimmed [`git_line`]) and a
//!   one-file [`commit`].
//! - [`process`]: git-loop left running ([`spawn`], [`spawn_until`],
//!   [`spawn_paused`] at a crash point), signalled ([`kill`]), or run under a
//!   watchdog with its output as bytes ([`run_in`], [`run_raw`]).
//! - [`files`]: a worktree made dirty in every way ([`make_dirty`]), a
//!   byte-for-byte [`snapshot`], [`age_file`], [`make_executable`].
//! - [`history`]: a history of real shape written as a `git fast-import`
//!   stream (also used by the benches).
//! - [`topics`]: a real-shape history imported into a [`TestRepo`] and
//!   runs made from its topics.
//! - [`storm`]: what the storms share: a seeded [`Rng`], sizes from the
//!   environment ([`env_or`], [`seed_from_env`]), [`blob_ids`] and
//!   [`hash_paths`] as git computes them.
//! - [`image`]: an XFS (reflink) or ext4 image loop-mounted ([`mount_image`]),
//!   unmounted when dropped.
//!
//! A helper two test files need goes here, in the file of its concept; one
//! only a single test file needs stays in that file.

pub mod files;
pub mod git;
pub mod history;
pub mod image;
pub mod kind;
pub mod process;
pub mod repo;
pub mod run;
pub mod storm;
pub mod topics;

pub use files::*;
pub use git::*;
pub use image::*;
pub use kind::*;
pub use process::*;
pub use repo::*;
pub use run::*;
pub use storm::*;
