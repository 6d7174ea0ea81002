//! The warm pool's operations: worktrees prepared ahead of time under
//! `.loop-worktrees/.pool/`, so that `create` can take one instead of
//! checking a whole tree out (`git loop pool [status | fill [<N>] | drain]`,
//! `cleanup --recycle`).
//!
//! A **member** is a worktree registered with git at
//! `.loop-worktrees/.pool/<commit>-<suffix>`, with a detached HEAD at
//! `<commit>` (the full hex id, so the name alone says what a healthy
//! member holds), no branch, and nothing but the commit's tree and ignored
//! files (a warm `target/` or `node_modules/`). It is not a run: it has no
//! manifest entry, `list` never shows it, and `reconcile` never calls it an
//! orphan (both look only at direct children of `.loop-worktrees/` whose
//! names are run ids, and no run id starts with a dot).
//!
//! **Claiming.** Whoever uses or removes a member first takes its claim: an
//! advisory `flock` on the member's directory itself (no lock file: the
//! kernel drops it when the holder dies, so a claim never goes stale), then
//! checks that the path still names the directory it locked (a member that
//! another create moved away while this one waited is gone from `.pool/`).
//! A member is moved out of `.pool/` (by `create`) or removed (by `drain`)
//! before its claim is released, so no member is ever used twice. `fill`
//! claims each new member under the worktree-operation lock, right after
//! `git worktree add --no-checkout`, and keeps the claim through its
//! checkout: a half-checked-out member is never taken.
//!
//! **Checks.** A claimed member is used only if its directory is there (not
//! a symlink), its registration is not locked, its `.git` file points back
//! to its registration, its HEAD is detached at the commit its name records,
//! nothing in it is at risk (an operation in progress, a nested repository,
//! a process working in it) and it is clean as `git worktree remove` judges
//! (no tracked change, no untracked file that is not ignored, no submodule).
//! A member that fails is **discarded**: removed with the usual rules
//! ([`crate::worktree::remove_worktree`], never forced); one that cannot be
//! removed safely is left in place and reported.
//!
//! **The operations**, each returning what it did (the command's report is
//! built from that): [`status`] (`survey`: each member's state), [`fill`],
//! [`drain`], create's take ([`claim_for_create`], in `take`) and cleanup's
//! [`recycle`]. A member's checks and its discard are in `check`.

mod check;
mod drain;
mod fill;
mod recycle;
mod survey;
mod take;

pub use check::Discarded;
pub use drain::{Drained, drain};
pub use fill::{Filled, fill};
pub use recycle::Recycler;
pub use survey::{MemberState, Surveyed, status};
pub use take::{Claimed, Taken, claim_for_create};

use std::fs::{File, OpenOptions};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use crate::git::repo::{Repo, Worktree};
use crate::manifest::LOOP_DIR;

/// The pool's directory, inside `.loop-worktrees/`.
pub const POOL_DIR: &str = ".pool";

/// A registered pool member.
#[derive(Debug, Clone)]
pub struct Member {
    /// The directory name, `<commit>-<suffix>`.
    pub name: String,
    /// The commit its name records (`None` for a name that does not parse:
    /// such a member fails its checks).
    pub commit: Option<gix::ObjectId>,
    pub abs: PathBuf,
    pub wt: Worktree,
    /// Its path below `.loop-worktrees/`: `.pool/<name>`, or
    /// `.pool/.new/<name>` while `fill` prepares it.
    key: String,
}

impl Member {
    /// Its path relative to the repository root, as `git -C <root>` takes it.
    pub fn rel(&self) -> String {
        format!("{LOOP_DIR}/{}", self.key)
    }

    /// Its path below `.loop-worktrees/`: what
    /// [`crate::worktree::remove_worktree`] takes as an id.
    pub fn key(&self) -> String {
        self.key.clone()
    }
}

/// A member's path (relative to the repository root).
pub fn rel_path(name: &str) -> String {
    format!("{LOOP_DIR}/{POOL_DIR}/{name}")
}

/// Where `fill` prepares members: they move into `.pool/` only once checked
/// out, so a create never finds a half-made member there. A staged member
/// left by an interrupted fill is removed by `drain` (and by the next fill).
pub const STAGING_DIR: &str = ".new";

/// A staged member's path (relative to the repository root).
pub fn staged_rel_path(name: &str) -> String {
    format!("{LOOP_DIR}/{POOL_DIR}/{STAGING_DIR}/{name}")
}

/// A fresh member name for `commit`.
pub fn new_name(commit: gix::ObjectId) -> String {
    format!("{commit}-{}", crate::lock::unique_suffix())
}

fn commit_of(name: &str) -> Option<gix::ObjectId> {
    let (hex, _) = name.split_once('-')?;
    gix::ObjectId::from_hex(hex.as_bytes()).ok()
}

/// Every registered member, by name.
pub fn members(repo: &Repo) -> crate::error::Result<Vec<Member>> {
    registered_under(repo, POOL_DIR)
}

/// Every member `fill` was preparing (see [`STAGING_DIR`]).
pub fn staged(repo: &Repo) -> crate::error::Result<Vec<Member>> {
    registered_under(repo, &format!("{POOL_DIR}/{STAGING_DIR}"))
}

fn registered_under(repo: &Repo, below: &str) -> crate::error::Result<Vec<Member>> {
    let dir = repo.loop_dir().join(below);
    let mut out: Vec<Member> = repo
        .worktrees()?
        .into_iter()
        .filter_map(|wt| {
            if wt.path.parent() != Some(dir.as_path()) {
                return None;
            }
            let name = wt.path.file_name()?.to_str()?.to_owned();
            Some(Member {
                key: format!("{below}/{name}"),
                commit: commit_of(&name),
                abs: dir.join(&name),
                name,
                wt,
            })
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// A held claim on one member (see the module doc). Dropping releases it.
#[derive(Debug)]
pub struct Claim {
    _dir: File,
}

impl Claim {
    /// Claim the member directory at `abs` without waiting: `None` when
    /// another process holds it, or when `abs` no longer names the
    /// directory that was locked (it was moved or removed meanwhile), or is
    /// missing or a symlink.
    pub fn try_take(abs: &Path) -> Option<Claim> {
        let dir = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_DIRECTORY | libc::O_NOFOLLOW)
            .open(abs)
            .ok()?;
        dir.try_lock().ok()?;
        let locked = dir.metadata().ok()?;
        let now = std::fs::symlink_metadata(abs).ok()?;
        (now.dev() == locked.dev() && now.ino() == locked.ino()).then_some(Claim { _dir: dir })
    }
}
