//! Repository state, read through gix.
//!
//! - Discovery works from any subdirectory, from inside a loop worktree, and
//!   honours `GIT_DIR` like git does. The *root* is the main worktree's top
//!   level, canonicalized, so every worktree of one repository manages the
//!   same manifest.
//! - A bare repository has no main worktree. In the bare-repository layout
//!   ([`bare`]: `project/.bare`, a file `project/.git` reading `gitdir:
//!   ./.bare`, every branch a linked worktree such as `project/main/`) the
//!   root is the directory holding the bare git dir (`project/`), found the
//!   same from `project/`, from any linked worktree, from the git dir, and
//!   with `GIT_DIR`: `.loop-worktrees/` lives beside `.bare` and the user's
//!   worktrees, in no work tree. [`Repo::is_bare_layout`] says so to the
//!   code that would otherwise read a main work tree (the ignore line, the
//!   copies, what is checked out, the default base). A bare repository
//!   outside that layout (or a linked worktree of one) is refused
//!   (`bare-repo`), naming it and giving the commands that set the layout
//!   up.
//! - A repository git-loop cannot read whole (an unknown extension, an
//!   object format or ref storage it does not know) is refused before
//!   anything is read (`unsupported-repository`, see [`format`]). SHA-256
//!   ids are read by gix; reftable refs through git ([`crate::git::refs`]).
//! - Registered worktrees are read like `git worktree list --porcelain`: from
//!   `.git/worktrees/<admin>/` (path, lock), and each one's HEAD through the
//!   ref layer (the ref `worktrees/<admin>/HEAD` of the main repository; in
//!   a reftable one, `git worktree list`) — no repository is opened per
//!   worktree.

use std::path::{Path, PathBuf};

use gix::bstr::ByteSlice;

use crate::error::{Error, Result};
use crate::manifest::LOOP_DIR;

mod bare;
pub use bare::quote as shell_word;
mod case;
mod cleanliness;
mod discover;
mod format;
mod walk;
pub use case::{case_insensitive, case_overrides, open_worktree};
pub use cleanliness::{Cleanliness, cleanliness, tracked_changes};
pub use walk::{Walks, take_note as take_walk_note};

/// A linked worktree registered with git.
#[derive(Debug, Clone)]
pub struct Worktree {
    /// The registered path, canonicalized as far as it exists.
    pub path: PathBuf,
    /// Short branch name (`loop/x`), or `None` when detached or unreadable.
    pub branch: Option<String>,
    /// The commit HEAD points at when it is detached.
    pub detached_head: Option<gix::ObjectId>,
    /// `Some(reason)` when locked (the reason may be empty).
    pub locked: Option<String>,
    /// Its administrative directory, `.git/worktrees/<admin>`.
    pub admin_dir: PathBuf,
}

/// What [`Repo::loop_branches`] found: short name and tip of each branch,
/// and the (lossy) names of the refs left out.
pub type LoopBranches = (Vec<(String, gix::ObjectId)>, Vec<String>);

pub struct Repo {
    /// The main worktree's repository: refs, worktree registrations.
    repo: gix::Repository,
    /// The repository as discovered from the start directory (possibly a
    /// linked worktree): its config includes that worktree's own config.
    here: gix::Repository,
    root: PathBuf,
    /// Bare, as git judges it (see [`Repo::is_bare_layout`]).
    bare: bool,
    /// Ref updates logged although the repository is bare (see
    /// [`Repo::git`]).
    log_refs: bool,
    /// The history walks of this process, made at the first.
    walks: std::sync::OnceLock<Walks>,
}

/// The index of `repo`'s worktree (empty when it has none), read as git
/// reads it: its trailing checksum is not verified. git checks it only in
/// `git fsck` (`verify_index_checksum`); hashing a 10,000-entry index's
/// megabyte on every read was a sixth of a landing queue's CPU. Every
/// entry is still decoded and checked for its shape, and nothing is
/// decided from an index that fails to decode. Writes keep the checksum.
pub fn read_index(repo: &gix::Repository) -> Result<gix::index::File> {
    let options = gix::index::decode::Options::default();
    gix::index::File::at_or_default(repo.index_path(), repo.object_hash(), true, options)
        .map_err(|e| Error::Repository(format!("could not read the index: {e}")))
}

/// The file's `lstat` equals the index entry's cached stat in every field
/// git caches (times to the nanosecond, size, inode, device, owner; each
/// as git truncates it to 32 bits). git calls such a file up to date
/// without reading it when the entry is not racy, whatever `core.checkStat`
/// says (which only lets git compare fewer fields).
pub fn stat_matches(s: &gix::index::entry::Stat, meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    u64::from(s.mtime.secs) == meta.mtime() as u64 & 0xffff_ffff
        && i64::from(s.mtime.nsecs) == meta.mtime_nsec()
        && u64::from(s.ctime.secs) == meta.ctime() as u64 & 0xffff_ffff
        && i64::from(s.ctime.nsecs) == meta.ctime_nsec()
        && u64::from(s.size) == meta.size() & 0xffff_ffff
        && u64::from(s.ino) == meta.ino() & 0xffff_ffff
        && u64::from(s.dev) == meta.dev() & 0xffff_ffff
        && s.uid == meta.uid()
        && s.gid == meta.gid()
}

fn repo_err(e: impl std::fmt::Display) -> Error {
    Error::Repository(e.to_string())
}

pub use crate::fsx::canonical_best_effort;

impl Repo {
    /// git configuration as git would see it from the start directory
    /// (system < global < local < worktree, includes, `GIT_CONFIG_COUNT`).
    pub fn config(&self) -> gix::config::Snapshot<'_> {
        self.here.config_snapshot()
    }

    /// The main worktree's repository, for reads this module does not wrap.
    pub fn gix(&self) -> &gix::Repository {
        &self.repo
    }

    /// The repository's common git dir (`.git` of the main worktree).
    pub fn common_dir(&self) -> &Path {
        self.repo.common_dir()
    }

    /// Whether git-loop logs ref updates although the repository is bare:
    /// in the bare-repository layout, unless `core.logAllRefUpdates` is
    /// set, as git logs them in the layout's worktrees (a bare repository
    /// logs none by default: a run's branch would have no creation to tell
    /// an empty run from a merged one). In process already; git through
    /// [`crate::git::cmd::Git::logging_refs`].
    pub fn logs_refs(&self) -> bool {
        self.log_refs
    }

    /// The main worktree's top level, canonical; in the bare-repository
    /// layout the directory holding the bare git dir (no work tree).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Whether the repository is bare (the bare-repository layout, the only
    /// bare one discovery accepts): no main work tree, no main checkout; its
    /// `HEAD` names a branch but checks nothing out.
    pub fn is_bare_layout(&self) -> bool {
        self.bare
    }

    /// The main work tree (the root), `None` in the bare-repository layout.
    /// (Not `gix().workdir()`: see [`Repo::discover`] on `core.bare`.)
    pub fn workdir(&self) -> Option<&Path> {
        (!self.bare).then_some(self.root.as_path())
    }

    pub fn loop_dir(&self) -> PathBuf {
        self.root.join(LOOP_DIR)
    }

    /// Whether a `post-checkout` hook may exist: `core.hooksPath` is set, or
    /// the default `hooks/post-checkout` is present. (Saves a `git hook run`
    /// process per create in the common case of no hook.)
    pub fn may_have_post_checkout_hook(&self) -> bool {
        self.may_have_hook("post-checkout")
    }

    /// Whether git would find a hook `name`: `core.hooksPath` is set (it is
    /// not resolved: any setting counts), or the default `hooks/<name>` is
    /// present.
    pub fn may_have_hook(&self, name: &str) -> bool {
        self.here
            .config_snapshot()
            .string("core.hooksPath")
            .is_some()
            || self.repo.common_dir().join("hooks").join(name).exists()
    }

    /// Resolve `spec` to a commit id, `None` when it does not name one.
    pub fn resolve_commit(&self, spec: &str) -> Option<gix::ObjectId> {
        crate::git::refs::resolve_commit(&self.repo, spec)
    }

    /// Where `refs/heads/<branch>` points, if it exists (and is not
    /// symbolic).
    pub fn branch_target(&self, branch: &str) -> Result<Option<gix::ObjectId>> {
        let name = format!("refs/heads/{branch}");
        Ok(crate::git::refs::find(&self.repo, &name)?.and_then(|v| v.id()))
    }

    /// Commits in `tip` not in `base`, and in `base` not in `tip` (what
    /// `git rev-list --left-right --count tip...base` prints): one walk of
    /// both down to their merge bases, see [`walk`].
    pub fn ahead_behind(&self, tip: gix::ObjectId, base: gix::ObjectId) -> Result<(usize, usize)> {
        self.walks().ahead_behind(tip, base)
    }

    /// The history walks every caller in this process shares (merge bases,
    /// ancestry, ahead/behind; see [`walk`]).
    pub fn walks(&self) -> &Walks {
        self.walks.get_or_init(|| Walks::new(&self.repo))
    }

    pub fn branch_exists(&self, branch: &str) -> Result<bool> {
        crate::git::refs::exists(&self.repo, &format!("refs/heads/{branch}"))
    }

    /// Every branch `refs/heads/loop/*`, short name (`loop/x`) and tip,
    /// sorted by name. A name that is not UTF-8, or a symbolic ref, is left
    /// out (named in the second list, so the caller can say so):
    /// neither could be deleted by the exact compare-and-swap a deletion
    /// needs.
    pub fn loop_branches(&self) -> Result<LoopBranches> {
        let prefix = format!("refs/heads/{}/", crate::runid::BRANCH_PREFIX);
        let (mut out, mut odd) = (Vec::new(), Vec::new());
        for (full, value) in crate::git::refs::prefixed_strict(&self.repo, &prefix)? {
            let short = full.strip_prefix(b"refs/heads/").unwrap_or(&full);
            match (short.to_str(), value.id()) {
                (Ok(name), Some(id)) => out.push((name.to_owned(), id)),
                _ => odd.push(short.to_str_lossy().into_owned()),
            }
        }
        out.sort();
        Ok((out, odd))
    }

    /// The committer time of commit `id` (`None`: not a readable commit).
    pub fn commit_time(&self, id: gix::ObjectId) -> Option<jiff::Timestamp> {
        let commit = self.repo.find_commit(id).ok()?;
        let seconds = commit.time().ok()?.seconds;
        jiff::Timestamp::from_second(seconds).ok()
    }

    /// `id` abbreviated as git would (unique here, at least 7 hex digits).
    pub fn short_id(&self, id: gix::ObjectId) -> String {
        use gix::prelude::ObjectIdExt;
        id.attach(&self.repo).shorten_or_id().to_string()
    }

    /// All linked worktrees registered with git, each path canonicalized
    /// (a caller that needs one path reads `gix().worktrees()`, as
    /// [`Repo::loop_worktree`] does).
    pub fn worktrees(&self) -> Result<Vec<Worktree>> {
        let proxies = self.repo.worktrees().map_err(repo_err)?;
        let heads = self.worktree_heads();
        let mut out = Vec::with_capacity(proxies.len());
        for proxy in proxies {
            let Ok(base) = proxy.base() else { continue };
            let mut wt = self.registered(&proxy, base, &heads);
            wt.path = canonical_best_effort(&wt.path);
            out.push(wt);
        }
        Ok(out)
    }

    /// The `HEAD`s of the linked worktrees, read once for many
    /// [`Repo::head_of`] calls.
    pub fn worktree_heads(&self) -> crate::git::refs::Heads {
        crate::git::refs::worktree_heads(&self.repo)
    }

    /// The registration `proxy`, whose worktree is at `base`: its lock and
    /// what its `HEAD` names.
    fn registered(
        &self,
        proxy: &gix::worktree::Proxy<'_>,
        base: PathBuf,
        heads: &crate::git::refs::Heads,
    ) -> Worktree {
        let locked = proxy.lock_reason().map(|r| r.to_str_lossy().into_owned());
        let (branch, detached_head) = self.head_of(proxy, heads);
        Worktree {
            path: base,
            branch,
            detached_head,
            locked,
            admin_dir: proxy.git_dir().to_path_buf(),
        }
    }

    /// The branch (short name) the registration's `HEAD` names, or the
    /// commit it is detached at; neither when unreadable. (A caller that
    /// needs only this of most registrations reads `gix().worktrees()`
    /// and each one's path only where it needs it.)
    pub fn head_of(
        &self,
        proxy: &gix::worktree::Proxy<'_>,
        heads: &crate::git::refs::Heads,
    ) -> (Option<String>, Option<gix::ObjectId>) {
        match crate::git::refs::worktree_head(&self.repo, proxy, heads) {
            Some(crate::git::refs::Value::Symbolic(name)) => (
                Some(name.strip_prefix("refs/heads/").unwrap_or(&name).to_owned()),
                None,
            ),
            Some(crate::git::refs::Value::Object(id)) => (None, Some(id)),
            None => (None, None),
        }
    }

    /// The registered worktree `.loop-worktrees/<id>` (canonical path), if
    /// there is one: [`Repo::loop_worktrees`] for one id, its lock and
    /// `HEAD` read, and its path canonicalized, only for the registrations
    /// whose path ends in `id`.
    pub fn loop_worktree(&self, id: &str) -> Result<Option<Worktree>> {
        let loop_dir = self.loop_dir();
        for proxy in self.repo.worktrees().map_err(repo_err)? {
            let Ok(base) = proxy.base() else { continue };
            if base.file_name().is_none_or(|n| n != id) {
                continue;
            }
            let mut wt = self.registered(&proxy, base, &self.worktree_heads());
            wt.path = canonical_best_effort(&wt.path);
            if wt.path.parent() == Some(loop_dir.as_path()) {
                return Ok(Some(wt));
            }
        }
        Ok(None)
    }

    /// Registered worktrees that are direct children of `.loop-worktrees/`,
    /// keyed by their directory name.
    pub fn loop_worktrees(&self) -> Result<Vec<(String, Worktree)>> {
        let loop_dir = self.loop_dir();
        Ok(self
            .worktrees()?
            .into_iter()
            .filter_map(|wt| {
                if wt.path.parent() != Some(loop_dir.as_path()) {
                    return None;
                }
                let name = wt.path.file_name()?.to_str()?.to_owned();
                Some((name, wt))
            })
            .collect())
    }
}
