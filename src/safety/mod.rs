//! The safety kernel: the one place that decides whether anything may be
//! destroyed — a worktree, a branch, a ref — and that keeps a way back
//! before it is.
//!
//! Every destroying primitive of the crate takes a [`Permit`], and only this
//! module makes one:
//! - [`crate::git::cmd::Git::worktree_remove`] (`git worktree remove`, never
//!   forced): a permit from [`worktree::permit`] (the at-risk checks passed,
//!   and every ref the worktree alone holds — its detached HEAD, its
//!   `refs/worktree/*` and `refs/bisect/*` — kept in the [trash](trash)), or
//!   from [`worktree::rollback_permit`] for the worktree a `create` made a moment ago
//!   and is undoing, or from [`scratch::permit`] for a land gate's scratch
//!   checkout this process made (whose files, the landed commit's and the
//!   gate's output, are nobody's work: [`scratch::clear`] deletes them
//!   before the registration goes);
//! - [`crate::git::repo::Repo::delete_branch_if_at`] (a compare-and-swap
//!   delete): a permit from [`retire::retire`] (the strongest merged proof
//!   held, the branch checked out nowhere, and the tip kept in the trash
//!   first: retiring a run's branch is this one operation for land,
//!   cleanup and `branches`), or from
//!   [`rollback_branch`] for a branch this process created at that very
//!   commit and is undoing (nothing could be lost: it holds no commit of its
//!   own);
//! - [`exec::rewind_branch`] (a compare-and-swap move of a branch back from
//!   `new` to `old`): a permit from [`undo_advance`], for a landing that
//!   moved the target forward a moment ago and could not update its
//!   checkout (`crate::ops::land::advance`). Moving a branch forward (a
//!   fast-forward: `old` an ancestor of `new`) loses nothing and asks for no
//!   permit; moving it back leaves unreachable only the commits `old..new`,
//!   which that landing wrote a moment ago — copies of the run's work (or,
//!   fast-forwarded, the run's own commits), which the run's branch still
//!   holds in substance — so nothing goes to the trash;
//! - [`exec::rewrite_branch`] (a compare-and-swap move of a run's branch
//!   from `old` to any `new`, a sync's rebase that leaves `old` out of the
//!   branch's history): a permit from [`rewrite_branch`] (the branch is at
//!   `old` and a trash entry holds `old`, written first: `git loop trash
//!   restore` gives it back);
//! - [`exec::update_checkout`] (the files and index of the checkout that
//!   has a landing's target checked out, moved from `old` to `new` as
//!   `git read-tree -m -u` would): a permit from [`checkout::permit`] (the
//!   target is at `new`, which descends from `old` or, a sync's rewrite,
//!   with `old` kept in the trash; and every file written over or deleted
//!   is certainly `old`'s blob: a copy of what a ref holds, so nothing more
//!   goes to the trash);
//! - [`exec::signal_process`] (SIGTERM, then SIGKILL, to a process left
//!   working in a worktree being removed, `--reap`): a permit from
//!   [`reap::permit`] (its working directory inside that worktree, no
//!   terminal, not git-loop or its callers), for that pid at its start
//!   time.
//!
//! A test (`tests/integration/kernel.rs`) reads the source and fails when a
//! permit is made outside this module or a primitive stops asking for one.
//!
//! The checks themselves live here too: [`risk`] (what a worktree holds
//! that `git worktree remove` does not protect, and who is in it) and
//! [`skip`] (the codes a kept worktree is reported with). The kernel sits
//! below `crate::worktree` (the removal's orchestration: the re-check under
//! the run lock, salvage, and `worktree::leftover`, which finishes an
//! interrupted removal) and the operations and commands, and above
//! `crate::git`; it takes no lock (`crate::lock` is its callers').
//!
//! The rules live here once each:
//! - the in-progress markers ([`OPERATION_MARKERS`]);
//! - which branches are checked out, through symbolic refs and the files
//!   that name a branch while `HEAD` is detached ([`checked_out`]);
//! - the refs that hold commits for good ([`holding_prefixes`]: branches,
//!   tags, remote-tracking branches, `refs/loop/` but not the trash, which
//!   expires);
//! - the merged verdict with its guards ([`branch::verdict`]): the base must
//!   be a name or commit that cannot name the branch's own tip, and only the
//!   strongest proof deletes.

pub mod branch;
pub mod checked_out;
pub mod checkout;
pub mod exec;
pub mod reap;
pub mod retire;
pub mod risk;
pub mod scratch;
pub mod skip;
pub mod trash;
pub mod worktree;

/// Leave to destroy one thing, made only by this module's checks.
#[derive(Debug)]
pub struct Permit {
    what: Target,
    /// The trash refs written for it (what dies with a worktree's admin dir).
    kept: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Target {
    /// `.loop-worktrees/<rel>` (the path relative to the main worktree).
    Worktree(String),
    /// `refs/heads/<branch>` at exactly this tip.
    Branch(String, gix::ObjectId),
    /// `refs/heads/<branch>` moved back from the first commit to the second.
    Rewind(String, gix::ObjectId, gix::ObjectId),
    /// `refs/heads/<branch>` moved from the first commit (kept in the
    /// trash) to the second.
    Rewrite(String, gix::ObjectId, gix::ObjectId),
    /// The process with this pid and start time (clock ticks since boot).
    Process(u32, u64),
    /// The checkout at this path moved from the first commit to the second.
    Checkout(std::path::PathBuf, gix::ObjectId, gix::ObjectId),
}

impl Permit {
    /// The trash refs its checks wrote (a removed worktree's own refs).
    pub fn kept(&self) -> &[String] {
        &self.kept
    }

    /// Whether this permit is for removing the worktree at `rel_path`.
    pub fn covers_worktree(&self, rel_path: &str) -> bool {
        self.what == Target::Worktree(rel_path.to_owned())
    }

    /// Whether this permit is for deleting `branch` at `tip`.
    pub fn covers_branch(&self, branch: &str, tip: gix::ObjectId) -> bool {
        self.what == Target::Branch(branch.to_owned(), tip)
    }

    /// The start time of the process `pid` this permit is for, if it is.
    pub fn process_start(&self, pid: u32) -> Option<u64> {
        match self.what {
            Target::Process(p, start) if p == pid => Some(start),
            _ => None,
        }
    }

    /// Whether this permit is for updating the checkout at `path` from
    /// `old` to `new`.
    pub fn covers_checkout(
        &self,
        path: &std::path::Path,
        old: gix::ObjectId,
        new: gix::ObjectId,
    ) -> bool {
        self.what == Target::Checkout(path.to_path_buf(), old, new)
    }

    /// Whether this permit is for moving `branch` from `from` (kept in the
    /// trash) to `to`.
    pub fn covers_rewrite(&self, branch: &str, from: gix::ObjectId, to: gix::ObjectId) -> bool {
        self.what == Target::Rewrite(branch.to_owned(), from, to)
    }

    /// Whether this permit is for moving `branch` back from `from` to `to`.
    pub fn covers_rewind(&self, branch: &str, from: gix::ObjectId, to: gix::ObjectId) -> bool {
        self.what == Target::Rewind(branch.to_owned(), from, to)
    }
}

/// The files of an operation in progress in a worktree's admin dir, and
/// what each means. Its state dies with the admin dir.
pub const OPERATION_MARKERS: [(&str, &str); 8] = [
    ("rebase-merge", "rebase"),
    ("rebase-apply", "rebase"),
    ("MERGE_HEAD", "merge"),
    ("CHERRY_PICK_HEAD", "cherry-pick"),
    ("REVERT_HEAD", "revert"),
    ("BISECT_LOG", "bisect"),
    ("BISECT_START", "bisect"),
    ("sequencer", "cherry-pick or revert"),
];

/// The in-progress operation recorded in `admin_dir`, if any: its marker
/// file and what it is.
pub fn operation_in_progress(admin_dir: &std::path::Path) -> Option<(&'static str, &'static str)> {
    OPERATION_MARKERS
        .iter()
        .find(|(file, _)| admin_dir.join(file).symlink_metadata().is_ok())
        .copied()
}

/// The ref namespaces whose refs keep a commit alive for good (the trash
/// is not one: its entries expire).
pub fn holding_prefixes() -> [&'static str; 4] {
    ["refs/heads/", "refs/tags/", "refs/remotes/", "refs/loop/"]
}

/// Whether a ref below the holding prefixes holds for good.
pub fn holds_for_good(full_name: &[u8]) -> bool {
    !full_name.starts_with(trash::PREFIX.as_bytes())
}

/// Whether a ref that holds commits for good (see [`holding_prefixes`]),
/// other than `except` (a full ref name), contains `commit`.
pub fn held_by_a_ref(
    repo: &gix::Repository,
    commit: gix::ObjectId,
    except: Option<&str>,
) -> crate::error::Result<bool> {
    for prefix in holding_prefixes() {
        for (name, value) in crate::git::refs::prefixed(repo, prefix)? {
            if !holds_for_good(&name) || except.is_some_and(|x| name == x) {
                continue;
            }
            let Some(tip) = crate::git::refs::peel_commit(repo, &value) else {
                continue;
            };
            if tip == commit
                || repo
                    .merge_base(commit, tip)
                    .ok()
                    .flatten()
                    .is_some_and(|b| b.detach() == commit)
            {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// Leave to delete `branch`, which this process created at `made_at` and
/// is undoing (a create's rollback), only while it still points there and
/// its reflog says it was created there (or, without a reflog, while
/// another ref holds `made_at`): such a branch holds no commit of its own,
/// so nothing can be lost and nothing goes to the trash. `None`: keep it.
pub fn rollback_branch(
    repo: &gix::Repository,
    branch: &str,
    made_at: gix::ObjectId,
) -> Option<Permit> {
    let name = format!("refs/heads/{branch}");
    let tip = crate::git::refs::id(repo, &name)?;
    if tip != made_at {
        return None;
    }
    let created_here = crate::git::merged::branch_start(repo, branch) == Some(made_at);
    let held_elsewhere = || held_by_a_ref(repo, made_at, Some(&name)).unwrap_or(false);
    (created_here || held_elsewhere()).then(|| Permit {
        what: Target::Branch(branch.to_owned(), made_at),
        kept: Vec::new(),
    })
}

/// Leave to move `branch` from `old` to `new`, anywhere (a sync's rebase:
/// `old` need not be in `new`'s history), only while it points at `old` and
/// the trash entry `kept` (a ref under [`trash::PREFIX`]) holds `old`
/// itself: written first, so `git loop trash restore` gives `old` back.
/// `None`: leave it where it is.
pub fn rewrite_branch(
    repo: &gix::Repository,
    branch: &str,
    old: gix::ObjectId,
    new: gix::ObjectId,
    kept: &str,
) -> Option<Permit> {
    let name = format!("refs/heads/{branch}");
    let at_old = crate::git::refs::id(repo, &name) == Some(old);
    (at_old && kept_in_trash(repo, kept, old)).then(|| Permit {
        what: Target::Rewrite(branch.to_owned(), old, new),
        kept: vec![kept.to_owned()],
    })
}

/// Whether `kept` is a trash entry's ref pointing at `tip` itself.
pub fn kept_in_trash(repo: &gix::Repository, kept: &str, tip: gix::ObjectId) -> bool {
    kept.starts_with(trash::PREFIX) && crate::git::refs::id(repo, kept) == Some(tip)
}

/// Leave to move `branch` back from `new` to `old`, undoing the landing (or
/// sync) that moved it a moment ago (`message` its reflog message), only
/// while it still points at `new`, `old` is still held — an ancestor of
/// `new` (the forward move lost nothing, the way back loses only
/// `old..new`), or a sync's rewrite with `old` in the trash entry `kept`
/// (the way back loses only the commits that sync wrote) — and the
/// branch's newest reflog entry is that very move: `old` to `new` with that
/// message (nobody moved it since). `None`: leave it where it is.
pub fn undo_advance(
    repo: &gix::Repository,
    branch: &str,
    (old, new): (gix::ObjectId, gix::ObjectId),
    kept: Option<&str>,
    message: &str,
) -> Option<Permit> {
    let name = format!("refs/heads/{branch}");
    if crate::git::refs::id(repo, &name) != Some(new) {
        return None;
    }
    let fast_forward =
        descends_from(repo, new, old) || kept.is_some_and(|kept| kept_in_trash(repo, kept, old));
    let newest = crate::git::refs::reflog(repo, &name).into_iter().next()?;
    let ours = newest.old == Some(old)
        && newest.new == new
        && newest.message.trim_ascii() == message.trim().as_bytes();
    (fast_forward && ours).then(|| Permit {
        what: Target::Rewind(branch.to_owned(), new, old),
        kept: Vec::new(),
    })
}

/// Whether `new` is `old` or descends from it (`old` is an ancestor).
/// Exact both ways: `old` found among `new`'s nearest ancestors (a landing
/// is a few commits on its target's tip: no merge-base computation, which
/// walks until every other line of history is ruled out), else the merge
/// base of the two is `old` itself. An unreadable commit: `false`.
pub fn descends_from(repo: &gix::Repository, new: gix::ObjectId, old: gix::ObjectId) -> bool {
    /// How many of `new`'s ancestors are looked at before asking for the
    /// merge base.
    const NEAR: usize = 64;
    if old == new {
        return true;
    }
    let mut queue = std::collections::VecDeque::from([new]);
    let mut seen = std::collections::HashSet::from([new]);
    while let Some(id) = queue.pop_front() {
        if seen.len() > NEAR {
            break;
        }
        let Ok(commit) = repo.find_commit(id) else {
            return false;
        };
        for parent in commit.parent_ids() {
            let parent = parent.detach();
            if parent == old {
                return true;
            }
            if seen.insert(parent) {
                queue.push_back(parent);
            }
        }
    }
    repo.merge_base(old, new)
        .is_ok_and(|base| base.is_some_and(|b| b.detach() == old))
}
