//! The one place that spawns `git`.
//!
//! Only `git worktree add`, `move` and `remove` are run (and `git fetch`
//! for `create --fetch`, `git sparse-checkout` for `create --sparse`, `git
//! switch` for the warm pool) — `add` in its
//! two steps (`add --no-checkout`, then the `reset --hard` and `post-checkout`
//! hook that `add` itself runs in the new worktree) so that checkouts can run
//! in parallel; every read goes through gix. Each call:
//! - runs in the main worktree's root (`git -C <root>`), with `GIT_DIR`,
//!   `GIT_WORK_TREE`, `GIT_INDEX_FILE` and `GIT_COMMON_DIR` removed so an
//!   inherited environment cannot point git elsewhere;
//! - sets `LC_ALL=C` (git's messages are recorded as skip reasons) and
//!   `GIT_TERMINAL_PROMPT=0`;
//! - logs ref updates in the bare-repository layout ([`Git::logging_refs`]);
//! - puts `--` before paths, so nothing a user typed is read as an option;
//! - never passes `--force`.
//!
//! git's stderr is captured (its refusals are parsed and recorded); the
//! checkout of a one-step `git worktree add` also copies git's progress to a
//! terminal as it comes ([`super::progress`]).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::error::CommandError;
use crate::error::{Error, Result};

pub use super::plumbing::without_repo_env;

#[derive(Debug, Clone)]
pub struct Git {
    root: PathBuf,
    /// `-c checkout.workers=<n>` for the checkouts (see
    /// [`Git::with_checkout_workers`]).
    workers: Option<String>,
    /// `-c core.logAllRefUpdates=true` on every call.
    log_refs: bool,
}

impl crate::git::repo::Repo {
    /// git run at the root, logging ref updates when the repository does.
    pub fn git(&self) -> Git {
        Git::new(self.root()).logging_refs(self.logs_refs())
    }
}

impl Git {
    pub fn new(root: &Path) -> Git {
        Git {
            root: root.to_path_buf(),
            workers: None,
            log_refs: false,
        }
    }

    /// `-c core.logAllRefUpdates=true`: the bare-repository layout's ref
    /// updates logged as in its worktrees ([`crate::git::repo::Repo::logs_refs`]).
    pub fn logging_refs(mut self, log_refs: bool) -> Git {
        self.log_refs = log_refs;
        self
    }

    /// Run the checkouts of new worktrees (`worktree add`, `reset --hard`)
    /// with git's parallel checkout, `checkout.workers=<n>` (`0`: one
    /// worker per core). `None`: git's own configuration decides.
    pub fn with_checkout_workers(mut self, workers: Option<u32>) -> Git {
        self.workers = workers.map(|n| format!("checkout.workers={n}"));
        self
    }

    /// `-c checkout.workers=<n>`, when set.
    fn workers_args(&self) -> Vec<&OsStr> {
        match &self.workers {
            Some(kv) => vec!["-c".as_ref(), kv.as_ref()],
            None => Vec::new(),
        }
    }

    fn invoke(&self, args: &[&OsStr]) -> Result<std::result::Result<(), CommandError>> {
        self.run_in(&self.root, args)
    }

    fn command(&self, dir: &Path, args: &[&OsStr]) -> Command {
        let mut cmd = Command::new("git");
        cmd.arg("-C").arg(dir);
        if self.log_refs {
            cmd.args(["-c", "core.logAllRefUpdates=true"]);
        }
        without_repo_env(cmd.args(args))
            .env("LC_ALL", "C")
            .env("GIT_TERMINAL_PROMPT", "0")
            .stdin(Stdio::null());
        cmd
    }

    fn run_in(&self, dir: &Path, args: &[&OsStr]) -> Result<std::result::Result<(), CommandError>> {
        let output = self
            .command(dir, args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
            .map_err(|e| Error::io("could not run", "git", e))?;
        Ok(Self::outcome(args, output.status, &output.stderr))
    }

    fn outcome(
        args: &[&OsStr],
        status: std::process::ExitStatus,
        stderr: &[u8],
    ) -> std::result::Result<(), CommandError> {
        if status.success() {
            Ok(())
        } else {
            Err(CommandError {
                args: args
                    .iter()
                    .map(|a| a.to_string_lossy().into_owned())
                    .collect(),
                status: status.code(),
                stderr: String::from_utf8_lossy(&super::progress::without_progress(stderr))
                    .into_owned(),
            })
        }
    }

    /// [`Git::invoke`], copying git's progress to stderr as it comes when
    /// [`super::progress::pass_through`] says so; stderr is captured whole
    /// either way.
    fn run_showing_progress(
        &self,
        args: &[&OsStr],
    ) -> Result<std::result::Result<(), CommandError>> {
        if !super::progress::passing_through() {
            return self.invoke(args);
        }
        let mut child = self
            .command(&self.root, args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| Error::io("could not run", "git", e))?;
        let pipe = child.stderr.take().expect("stderr is piped");
        let captured = super::progress::copy_progress(pipe)
            .map_err(|e| Error::io("could not read", "git's stderr", e));
        let status = child
            .wait()
            .map_err(|e| Error::io("could not run", "git", e))?;
        Ok(Self::outcome(args, status, &captured?))
    }

    /// `git worktree add [--no-checkout] --no-track -b <branch> -- <rel_path> <commit>`
    /// (or `… -- <rel_path> <branch>` for a branch that exists, see [`Start`]).
    ///
    /// With `checkout`, one step: branch, registration, checkout and the
    /// `post-checkout` hook. Without it, only the branch, the registration
    /// and the `.git` file — the short part of an add that git cannot run
    /// concurrently, done under git-loop's worktree-operation lock;
    /// [`Git::checkout_new_worktree`] and [`Git::post_checkout_hook`] do the
    /// rest.
    ///
    /// `--no-track`: setting up upstream tracking writes `.git/config`, which
    /// collides on `config.lock` between concurrent adds; a loop branch has no
    /// upstream anyway.
    pub fn worktree_add(
        &self,
        branch: &str,
        rel_path: &str,
        start: Start<'_>,
        checkout: bool,
    ) -> Result<std::result::Result<(), CommandError>> {
        let mut args: Vec<&OsStr> = if checkout {
            self.workers_args()
        } else {
            Vec::new()
        };
        args.extend::<[&OsStr; 2]>(["worktree".as_ref(), "add".as_ref()]);
        if !checkout {
            args.push("--no-checkout".as_ref());
        }
        match start {
            Start::NewBranchAt(commit) => args.extend::<[&OsStr; 6]>([
                "--no-track".as_ref(),
                "-b".as_ref(),
                branch.as_ref(),
                "--".as_ref(),
                rel_path.as_ref(),
                commit.as_ref(),
            ]),
            // The short name, so git checks the branch out (a full ref name
            // would detach HEAD).
            Start::ExistingBranch => {
                args.extend::<[&OsStr; 3]>(["--".as_ref(), rel_path.as_ref(), branch.as_ref()])
            }
        }
        if checkout {
            self.run_showing_progress(&args)
        } else {
            self.invoke(&args)
        }
    }

    /// The checkout step of `git worktree add`, exactly as git runs it
    /// (`reset --hard --no-recurse-submodules` inside the new worktree). It
    /// touches only that worktree's index and files, so checkouts of
    /// different runs proceed in parallel.
    pub fn checkout_new_worktree(
        &self,
        worktree: &Path,
    ) -> Result<std::result::Result<(), CommandError>> {
        let mut args = self.workers_args();
        args.extend::<[&OsStr; 4]>([
            "reset".as_ref(),
            "--hard".as_ref(),
            "--no-recurse-submodules".as_ref(),
            "--quiet".as_ref(),
        ]);
        self.run_in(worktree, &args)
    }

    /// `git sparse-checkout set --cone -- <dir>…` in a new worktree added
    /// with `--no-checkout` (its index is empty, so this only writes its
    /// patterns and `config.worktree`; the checkout that follows honours
    /// them). The first use in a repository turns on
    /// `extensions.worktreeConfig` in the shared `.git/config`, so it runs
    /// under the worktree-operation lock.
    pub fn sparse_checkout_set(
        &self,
        worktree: &Path,
        dirs: &[String],
    ) -> Result<std::result::Result<(), CommandError>> {
        let mut args: Vec<&OsStr> = vec![
            "sparse-checkout".as_ref(),
            "set".as_ref(),
            "--cone".as_ref(),
            "--".as_ref(),
        ];
        args.extend(dirs.iter().map(OsStr::new));
        self.run_in(worktree, &args)
    }

    /// The `post-checkout` hook `git worktree add` runs after its checkout:
    /// `<null-oid> <commit> 1`, in the new worktree.
    pub fn post_checkout_hook(
        &self,
        worktree: &Path,
        commit: &str,
    ) -> Result<std::result::Result<(), CommandError>> {
        let null = "0".repeat(commit.len());
        self.run_in(
            worktree,
            &[
                "hook".as_ref(),
                "run".as_ref(),
                "--ignore-missing".as_ref(),
                "post-checkout".as_ref(),
                "--".as_ref(),
                null.as_ref(),
                commit.as_ref(),
                "1".as_ref(),
            ],
        )
    }

    /// `git fetch --quiet --no-write-fetch-head --refmap= -- <remote>
    /// +<src>:<dst>`: the base's upstream for `create --fetch`. The empty
    /// `--refmap` makes git ignore the remote's configured fetch refspecs, so
    /// the one explicit mapping is the only write: a refspec that also maps
    /// the branch onto a local branch or a `refs/loop/` ref moves nothing.
    /// The caller checks `dst` is a remote-tracking branch.
    pub fn fetch(
        &self,
        remote: &str,
        src: &str,
        dst: &str,
    ) -> Result<std::result::Result<(), CommandError>> {
        let refspec = format!("+{src}:{dst}");
        self.invoke(&[
            "fetch".as_ref(),
            "--quiet".as_ref(),
            "--no-write-fetch-head".as_ref(),
            "--refmap=".as_ref(),
            "--".as_ref(),
            remote.as_ref(),
            refspec.as_ref(),
        ])
    }

    /// `git worktree add --no-checkout --detach -- <rel_path> <commit>`: a
    /// pool member's registration (see `ops::pool`); its checkout is
    /// [`Git::checkout_new_worktree`], outside the worktree-operation lock,
    /// and no `post-checkout` hook runs (the hook runs when a create takes it).
    pub fn worktree_add_detached(
        &self,
        rel_path: &str,
        commit: &str,
    ) -> Result<std::result::Result<(), CommandError>> {
        self.invoke(&[
            "worktree".as_ref(),
            "add".as_ref(),
            "--no-checkout".as_ref(),
            "--detach".as_ref(),
            "--".as_ref(),
            rel_path.as_ref(),
            commit.as_ref(),
        ])
    }

    /// `git worktree move -- <from> <to>` (never forced: git refuses a
    /// locked worktree, or one with submodules).
    pub fn worktree_move(
        &self,
        from: &str,
        to: &str,
    ) -> Result<std::result::Result<(), CommandError>> {
        self.invoke(&[
            "worktree".as_ref(),
            "move".as_ref(),
            "--".as_ref(),
            from.as_ref(),
            to.as_ref(),
        ])
    }

    /// In `worktree`: `git switch --no-track -c <branch> <commit>` (`branch`
    /// given) or `git switch --detach <commit>`, writing only the files that
    /// differ, with hooks off (`core.hooksPath=/dev/null`): the caller runs
    /// the `post-checkout` hook itself, the way `git worktree add` runs it.
    /// Never `--force` or `--discard-changes`: git refuses to overwrite a
    /// change.
    pub fn switch_quietly(
        &self,
        worktree: &Path,
        branch: Option<&str>,
        commit: &str,
    ) -> Result<std::result::Result<(), CommandError>> {
        let mut args: Vec<&OsStr> = vec![
            "-c".as_ref(),
            "core.hooksPath=/dev/null".as_ref(),
            // As for `worktree remove`: git itself looks at every file, so a
            // monitor that hides a change cannot let the switch overwrite it.
            "-c".as_ref(),
            "core.fsmonitor=false".as_ref(),
            "switch".as_ref(),
            "--quiet".as_ref(),
            "--no-guess".as_ref(),
        ];
        match branch {
            Some(branch) => {
                args.extend::<[&OsStr; 3]>(["--no-track".as_ref(), "-c".as_ref(), branch.as_ref()])
            }
            None => args.push("--detach".as_ref()),
        }
        args.push(commit.as_ref());
        self.run_in(worktree, &args)
    }

    /// `git worktree remove -- <rel_path>`, never forced. git refuses a dirty,
    /// untracked-file-holding or locked worktree; that refusal is returned as
    /// the inner `Err` for the caller to record. Its check is a `git status`
    /// that `status.showUntrackedFiles=no` would blind to untracked files
    /// (git would then delete them): set back to `normal` for it. A
    /// `core.fsmonitor` that misses or hides a change (a crashed watcher, a
    /// stale token) would blind it to modified files too: off for it, so git
    /// looks at every file itself.
    ///
    /// Called only by the safety kernel (`crate::safety::exec`), with its
    /// permit; a test (`kernel.rs`) fails when anything else calls it.
    pub fn worktree_remove_unguarded(
        &self,
        rel_path: &str,
    ) -> Result<std::result::Result<(), CommandError>> {
        let mut args: Vec<&OsStr> = Vec::new();
        // Its cleanliness check sees every untracked file, whatever the
        // repository's core.ignorecase says (see `case_overrides`).
        for kv in crate::git::repo::case_overrides(&self.root.join(rel_path)) {
            args.extend::<[&OsStr; 2]>(["-c".as_ref(), kv.as_ref()]);
        }
        args.extend::<[&OsStr; 8]>([
            "-c".as_ref(),
            "status.showUntrackedFiles=normal".as_ref(),
            "-c".as_ref(),
            "core.fsmonitor=false".as_ref(),
            "worktree".as_ref(),
            "remove".as_ref(),
            "--".as_ref(),
            rel_path.as_ref(),
        ]);
        self.invoke(&args)
    }
}

/// What `git worktree add` checks out.
#[derive(Debug, Clone, Copy)]
pub enum Start<'a> {
    /// `-b <branch> … <commit>`: a new branch at this commit.
    NewBranchAt(&'a str),
    /// `<branch>`: a branch that exists (`create --reuse` adopting it).
    ExistingBranch,
}
