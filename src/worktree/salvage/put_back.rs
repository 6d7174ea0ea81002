//! Undoing the switch a salvage makes to remove a worktree (see the parent
//! module's doc, "Interrupted"): the worktree's `HEAD` back on its branch
//! (or detached at the commit it was on), its index back to the salvaged
//! index `I`, and — when `git worktree remove` may have deleted part of it —
//! the files it deleted checked out again from the salvage `W`; and
//! recognising a worktree left detached at its salvage ([`interrupted`]).
//!
//! Every git command here names the worktree's administrative directory and
//! its files explicitly (`--git-dir`, `--work-tree`): a half-deleted
//! worktree may have lost its `.git` file, and git run inside it would then
//! find the main repository instead.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

use crate::error::{Error, Result};

/// Where `HEAD` goes back to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Head {
    /// A branch (full ref name, `refs/heads/loop/<id>`).
    Branch(String),
    /// Detached at this commit (the salvage's first parent).
    Detached(String),
}

/// Everything a put-back needs, owned (it may run on the signal thread).
#[derive(Debug, Clone)]
pub struct PutBack {
    /// The worktree, `.loop-worktrees/<id>`.
    pub abs: PathBuf,
    /// Its administrative directory, `.git/worktrees/<admin>`.
    pub admin_dir: PathBuf,
    /// The salvage commit `W`.
    pub w: String,
    /// The tree of the salvaged index `I`.
    pub index_tree: String,
    pub head: Head,
}

fn put_back_err(p: &PutBack, why: impl std::fmt::Display) -> Error {
    Error::Salvage {
        id: p
            .abs
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        reason: format!(
            "could not put {} back as it was (its work is in {}): {why}",
            p.abs.display(),
            p.w
        ),
    }
}

impl PutBack {
    /// `git --git-dir=<admin> --work-tree=<abs> <args>` in the worktree.
    fn git(&self, args: &[&OsStr]) -> Result<String> {
        let mut git_dir = OsString::from("--git-dir=");
        git_dir.push(&self.admin_dir);
        let mut work_tree = OsString::from("--work-tree=");
        work_tree.push(&self.abs);
        let mut all: Vec<&OsStr> = vec![&git_dir, &work_tree];
        all.extend_from_slice(args);
        crate::git::plumbing::git(&self.abs, None, &all)
    }

    fn git_str(&self, args: &[&str]) -> Result<String> {
        let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
        self.git(&args)
    }

    /// The switch before the removal: `HEAD` detached at `W` first (a
    /// worktree detached at its salvage is recognised as interrupted), then
    /// the index set to `W`'s tree.
    pub fn switch(&self) -> Result<()> {
        let msg = "git-loop salvage: detach at the salvage to remove";
        self.git_str(&["update-ref", "--no-deref", "-m", msg, "HEAD", &self.w])?;
        self.git_str(&["read-tree", &self.w])?;
        Ok(())
    }

    /// Put the worktree back. With `missing_files`, the files of `W` that
    /// are not on disk (deleted by an interrupted `git worktree remove`) are
    /// checked out again first; without, the files are not touched. Nothing
    /// is done when the registration is gone: the removal finished.
    pub fn apply(&self, missing_files: bool) -> Result<()> {
        if !self.admin_dir.exists() {
            return Ok(());
        }
        if missing_files {
            self.registration()?;
            self.check_out_missing()?;
        }
        match &self.head {
            Head::Branch(name) => self.git_str(&["symbolic-ref", "HEAD", name])?,
            Head::Detached(commit) => self.git_str(&[
                "update-ref",
                "--no-deref",
                "-m",
                "git-loop salvage: put back",
                "HEAD",
                commit,
            ])?,
        };
        self.wait_for_index_lock();
        self.git_str(&["read-tree", &self.index_tree])?;
        Ok(())
    }

    /// A moment for the git processes the interruption reached to let go
    /// of the worktree's index: `git worktree remove` runs `git status`
    /// there, which locks the index, and the SIGINT that stopped both
    /// leaves that child removing its `index.lock` while its parent has
    /// already exited. Polled for up to two seconds; a lock still there
    /// after that (a git killed with `-9`) is git's to name when
    /// `read-tree` meets it, and is never removed here.
    fn wait_for_index_lock(&self) {
        let lock = self.admin_dir.join("index.lock");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
        while lock.symlink_metadata().is_ok() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }

    /// The registration's files made again where an interrupted `git
    /// worktree remove` deleted them: it deletes the worktree's files, then
    /// its administrative directory file by file, so a SIGINT can leave
    /// that directory without `gitdir` (git then no longer lists the
    /// worktree), `commondir` or `HEAD` (git then no longer reads it). The
    /// others (`HEAD`'s value, the index) are put back by [`PutBack::apply`].
    fn registration(&self) -> Result<()> {
        // A reftable repository's worktree keeps `HEAD` in its own stack
        // (`reftable/`); its `HEAD` file is git's stub.
        let reftable = self.admin_dir.join("../../reftable").is_dir();
        let head = match &self.head {
            _ if reftable => "ref: refs/heads/.invalid\n".to_owned(),
            Head::Branch(name) => format!("ref: {name}\n"),
            Head::Detached(commit) => format!("{commit}\n"),
        };
        if reftable {
            self.stack()?;
        }
        let gitdir = format!("{}\n", self.abs.join(".git").display());
        for (name, text) in [
            ("gitdir", gitdir.as_str()),
            ("commondir", "../..\n"),
            ("HEAD", head.as_str()),
        ] {
            let path = self.admin_dir.join(name);
            if path.symlink_metadata().is_err() {
                std::fs::write(&path, text).map_err(|e| Error::io("could not write", &path, e))?;
            }
        }
        Ok(())
    }

    /// A reftable worktree's stack made readable again: `reftable/` and
    /// its `tables.list`, emptied when it names a table that is gone (the
    /// removal deletes the stack file by file). Nothing is lost: the
    /// worktree's own refs were kept in the trash before the removal
    /// began, and [`PutBack::apply`] writes `HEAD` next.
    fn stack(&self) -> Result<()> {
        let dir = self.admin_dir.join("reftable");
        std::fs::create_dir_all(&dir).map_err(|e| Error::io("could not create", &dir, e))?;
        let list = dir.join("tables.list");
        let whole = std::fs::read_to_string(&list).is_ok_and(|text| {
            text.lines()
                .filter(|t| !t.is_empty())
                .all(|table| dir.join(table).is_file())
        });
        if !whole {
            std::fs::write(&list, "").map_err(|e| Error::io("could not write", &list, e))?;
        }
        Ok(())
    }

    /// The directory and its `.git` file made again if they are gone, then
    /// every file of `W` not on disk checked out from the index set to `W`.
    fn check_out_missing(&self) -> Result<()> {
        std::fs::create_dir_all(&self.abs)
            .map_err(|e| Error::io("could not create", &self.abs, e))?;
        let dot_git = self.abs.join(".git");
        if dot_git.symlink_metadata().is_err() {
            let text = format!("gitdir: {}\n", self.admin_dir.display());
            std::fs::write(&dot_git, text)
                .map_err(|e| Error::io("could not write", &dot_git, e))?;
        }
        let repo = gix::open(&self.admin_dir).map_err(|e| put_back_err(self, e))?;
        let w = gix::ObjectId::from_hex(self.w.as_bytes()).map_err(|e| put_back_err(self, e))?;
        let entries = super::verify::tree_entries(&repo, w).map_err(|e| put_back_err(self, e))?;
        let mut missing: Vec<&OsStr> = entries
            .keys()
            .map(|rel| OsStr::from_bytes(rel.as_slice()))
            .filter(|rel| self.abs.join(rel).symlink_metadata().is_err())
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        missing.sort();
        self.git_str(&["read-tree", &self.w])?;
        for chunk in missing.chunks(500) {
            let mut args: Vec<&OsStr> = vec![OsStr::new("checkout-index"), OsStr::new("--")];
            args.extend_from_slice(chunk);
            self.git(&args)?;
        }
        Ok(())
    }
}

/// How to put the worktree at `abs` (admin dir `admin_dir`) back as it was
/// before the salvage `w` of `id`: its `HEAD` (the recorded branch,
/// `loop/<id>` when none is recorded, or detached at `w^1`) and its index
/// (`w^2`'s tree).
pub fn put_back_of(
    repo: &gix::Repository,
    id: &str,
    w: gix::ObjectId,
    abs: &std::path::Path,
    admin_dir: &std::path::Path,
) -> Result<PutBack> {
    let commit = repo.find_commit(w).map_err(|e| super::salvage_err(id, e))?;
    let parents: Vec<gix::ObjectId> = commit.parent_ids().map(|p| p.detach()).collect();
    let [head, index] = parents[..] else {
        return Err(super::salvage_err(
            id,
            format!("{w} is not a salvage commit"),
        ));
    };
    let index_tree = repo
        .find_commit(index)
        .and_then(|c| c.tree_id().map(|t| t.detach()))
        .map_err(|e| super::salvage_err(id, e))?;
    let message = commit
        .message_raw()
        .map_err(|e| super::salvage_err(id, e))?
        .to_string();
    let head = match super::recorded_head(&message) {
        Some("detached") => Head::Detached(head.to_string()),
        Some(branch) if branch.starts_with("refs/heads/") => Head::Branch(branch.to_owned()),
        _ => Head::Branch(format!("refs/heads/{}", crate::runid::branch_name(id))),
    };
    Ok(PutBack {
        abs: abs.to_path_buf(),
        admin_dir: admin_dir.to_path_buf(),
        w: w.to_string(),
        index_tree: index_tree.to_string(),
        head,
    })
}

/// When the worktree of `id` is left detached at its own salvage (a
/// `--salvage` removal interrupted after the switch): how to put it back.
pub fn interrupted(
    id: &str,
    wt: &crate::git::repo::Worktree,
    abs: &std::path::Path,
) -> Result<Option<PutBack>> {
    let Some(detached) = wt.detached_head else {
        return Ok(None);
    };
    let repo = gix::open(&wt.admin_dir).map_err(|e| super::salvage_err(id, e))?;
    let name = super::ref_name(id);
    let w = match crate::git::refs::find(&repo, &name) {
        Ok(Some(value)) => crate::git::refs::peel(&repo, &value)
            .ok_or_else(|| super::salvage_err(id, format!("{name} does not resolve")))?,
        Ok(None) => return Ok(None),
        Err(e) => return Err(super::salvage_err(id, e)),
    };
    if w != detached {
        return Ok(None);
    }
    put_back_of(&repo, id, w, abs, &wt.admin_dir).map(Some)
}
