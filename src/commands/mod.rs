//! One module per command. Each handler takes its arguments and a [`Ctx`],
//! writes only notes (to stderr, through [`Out`]), and returns a report.

pub mod cleanup;
pub mod config;
pub mod create;
pub mod list;
pub mod log;
pub mod mark;
pub mod path;
pub mod reconcile;
pub mod run;
pub mod trust;

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use crate::cli::{Cli, Command};
use crate::config::Settings;
use crate::error::{Error, Result};
use crate::git::repo::Repo;
use crate::manifest::ManifestFile;
use crate::{Fail, Out, Report};

/// The bound repository and everything derived from it.
pub struct Ctx {
    pub repo: Repo,
    pub manifest: ManifestFile,
    settings: std::cell::OnceCell<Settings>,
}

impl Ctx {
    pub fn open(cli: &Cli) -> Result<Ctx> {
        let start = match &cli.repo {
            Some(dir) => dir.clone(),
            None => std::env::current_dir().map_err(|e| Error::io("could not read", ".", e))?,
        };
        let repo = Repo::discover(&start)?;
        let manifest = ManifestFile::new(&repo.loop_dir());
        Ok(Ctx {
            repo,
            manifest,
            settings: std::cell::OnceCell::new(),
        })
    }

    /// The effective configuration, read on first use: commands that need no
    /// setting (list, path, mark, reconcile) never read it.
    pub fn settings(&self) -> Result<&Settings> {
        if let Some(s) = self.settings.get() {
            return Ok(s);
        }
        let loaded = Settings::load(self.repo.root(), self.repo.config().plumbing())?;
        Ok(self.settings.get_or_init(|| loaded))
    }

    pub fn loop_dir(&self) -> PathBuf {
        self.repo.loop_dir()
    }

    /// Whether `.loop-worktrees/` exists; refuses it if it is a symlink or not
    /// a directory (a write through it could land outside the repository).
    pub fn loop_dir_exists(&self) -> Result<bool> {
        check_dir(&self.loop_dir())
    }

    /// Create `.loop-worktrees/` if needed (mutating commands only).
    pub fn ensure_loop_dir(&self) -> Result<()> {
        let dir = self.loop_dir();
        if !check_dir(&dir)? {
            match fs::create_dir(&dir) {
                Ok(()) => {}
                Err(e) if e.kind() == ErrorKind::AlreadyExists => {
                    check_dir(&dir)?;
                }
                Err(e) => return Err(Error::io("could not create", &dir, e)),
            }
        }
        Ok(())
    }

    /// Absolute path of a run's worktree.
    pub fn worktree_path(&self, id: &str) -> PathBuf {
        self.loop_dir().join(id)
    }
}

fn check_dir(dir: &Path) -> Result<bool> {
    match fs::symlink_metadata(dir) {
        Ok(meta) if meta.file_type().is_symlink() => Err(Error::UnsafePath {
            path: dir.to_path_buf(),
            reason:
                "it is a symlink; git-loop keeps its worktrees and manifest inside the repository"
                    .into(),
        }),
        Ok(meta) if !meta.is_dir() => Err(Error::UnsafePath {
            path: dir.to_path_buf(),
            reason: "it is not a directory".into(),
        }),
        Ok(_) => Ok(true),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(false),
        Err(e) => Err(Error::io("could not read", dir, e)),
    }
}

/// Append events under the mutex the caller holds; a failure is a warning.
pub fn log_events(ctx: &Ctx, events: &[crate::events::Event], out: &mut Out<'_>) {
    if let Err(e) = crate::events::append(&ctx.loop_dir(), events) {
        out.note(format_args!("warning: event log: {e}"));
    }
}

/// Write `report` as text or JSON. JSON is exactly one document: the report
/// is checked ([`Report::check_json`]) and serialized whole into a buffer,
/// and only a complete document is written; on failure nothing is, and the
/// caller prints the error document instead.
fn emit<R: Report>(report: R, out: &mut Out<'_>) -> std::result::Result<(), Fail> {
    if out.json {
        report.check_json()?;
        let mut doc = serde_json::to_vec(&report).map_err(std::io::Error::from)?;
        doc.push(b'\n');
        out.stdout.write_all(&doc)?;
    } else {
        report.human(out)?;
    }
    out.stdout.flush()?;
    Ok(())
}

/// After a report that lists what was done before a failure: the human
/// diagnostic on stderr (with `--json` too, as for every failure), exit 1.
fn failed_part_way(message: Option<String>, out: &mut Out<'_>) -> std::result::Result<(), Fail> {
    let Some(message) = message else {
        return Ok(());
    };
    writeln!(
        out.stderr,
        "git-loop: error: {}",
        crate::style::escape(&message)
    )?;
    Err(Fail::Exit(1))
}

pub fn dispatch(cli: &Cli, out: &mut Out<'_>) -> std::result::Result<(), Fail> {
    // Arguments are validated before the repository is touched, so a usage
    // error never depends on (or changes) repository state.
    match &cli.command {
        Command::Create(args) => {
            create::validate(args)?;
            let ctx = Ctx::open(cli)?;
            let report = create::run(&ctx, args, out)?;
            let failed = report.error.is_some();
            emit(report, out)?;
            if failed {
                // The run exists (its path or entry is printed), but its
                // post-command failed: like `git worktree add` when its
                // post-checkout hook fails, exit non-zero.
                return Err(Fail::Exit(1));
            }
            Ok(())
        }
        Command::Mark(args) => {
            crate::runid::validate(&args.run_id)?;
            let ctx = Ctx::open(cli)?;
            emit(mark::run(&ctx, args, out)?, out)
        }
        Command::Cleanup(args) => {
            let flags = cleanup::Flags::parse(args)?;
            let ctx = Ctx::open(cli)?;
            let report = cleanup::run(&ctx, &flags, out)?;
            let failed = report.error.as_ref().map(|e| e.message.clone());
            emit(report, out)?;
            failed_part_way(failed, out)
        }
        Command::Reconcile(args) => {
            for id in &args.remove_orphan {
                crate::runid::validate(id)?;
            }
            reconcile::parse_min_age(&args.min_age)?;
            let ctx = Ctx::open(cli)?;
            let report = reconcile::run(&ctx, args, out)?;
            let failed = report.error.as_ref().map(|e| e.message.clone());
            emit(report, out)?;
            failed_part_way(failed, out)
        }
        Command::List(args) => {
            let filter = match &args.status {
                Some(csv) => Some(crate::config::parse_status_csv(csv, "--status", true)?),
                None => None,
            };
            let ctx = Ctx::open(cli)?;
            let report = list::run(&ctx, filter.as_deref(), args.long && !args.ids)?;
            if args.ids {
                for listed in &report.worktrees {
                    writeln!(out.stdout, "{}", listed.entry.id)?;
                }
                return Ok(());
            }
            emit(report, out)
        }
        Command::Run(args) => {
            crate::runid::validate(&args.run_id)?;
            let ctx = Ctx::open(cli)?;
            Err(Fail::Exit(run::run(&ctx, args)?))
        }
        Command::Log(args) => {
            if let Some(id) = &args.run_id {
                crate::runid::validate(id)?;
            }
            let ctx = Ctx::open(cli)?;
            emit(log::run(&ctx, args.run_id.as_deref(), out)?, out)
        }
        Command::Trust => {
            let ctx = Ctx::open(cli)?;
            emit(trust::run(&ctx)?, out)
        }
        Command::Config => {
            let ctx = Ctx::open(cli)?;
            emit(config::run(&ctx)?, out)
        }
        Command::Path(args) => {
            crate::runid::validate(&args.run_id)?;
            let ctx = Ctx::open(cli)?;
            emit(path::run(&ctx, &args.run_id)?, out)
        }
    }
}

/// A failure part way through a command that already changed things: the
/// report still lists what was done, with this beside it, and the command
/// exits 1 (the shape of every JSON failure: `{"code","message"}`).
#[derive(Debug, serde::Serialize)]
pub struct Failure {
    pub code: &'static str,
    pub message: String,
}

impl From<&Error> for Failure {
    fn from(e: &Error) -> Failure {
        Failure {
            code: e.code(),
            message: e.to_string(),
        }
    }
}

/// An entry cleanup or reconcile left alone, with git's (or git-loop's)
/// reason and a machine code.
#[derive(Debug, serde::Serialize)]
pub struct SkippedEntry {
    pub id: String,
    pub path: String,
    pub reason: String,
    /// `dirty`, `untracked`, `locked`, `submodules`, `foreign-clone`,
    /// `too-young`, `hook-refused` or `git-refused`.
    pub code: &'static str,
    /// What to check before removing it by hand (worktrees with submodules).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
}

/// What to check before removing a worktree with submodules by hand: git
/// will not remove it without `--force`, and `--force` deletes whatever the
/// submodules hold that exists nowhere else.
pub fn submodule_help(path: &str) -> String {
    format!(
        "git removes a worktree with submodules only with --force, which git-loop never uses. Before removing it by hand, check each submodule for uncommitted work and for commits not on any remote: `git -C {path} submodule foreach --recursive 'git status --short; git log --oneline --branches --not --remotes'`; when both print nothing, `git worktree remove --force {path}`"
    )
}

impl SkippedEntry {
    pub fn new(id: &str, skip: Skip) -> SkippedEntry {
        let path = crate::runid::rel_path(id);
        SkippedEntry {
            id: id.to_owned(),
            help: (skip.code == "submodules").then(|| submodule_help(&path)),
            path,
            code: skip.code,
            reason: skip.reason,
        }
    }

    /// The event-log line for this skip.
    pub fn event(&self) -> crate::events::Event {
        let mut e = crate::events::Event::new("skip", &self.id);
        e.code = Some(self.code.to_owned());
        e.detail = Some(self.reason.clone());
        e
    }
}

/// Why one worktree was (or, in a dry run, would be) left alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skip {
    pub reason: String,
    pub code: &'static str,
}

impl Skip {
    pub fn new(reason: impl Into<String>, code: &'static str) -> Skip {
        Skip {
            reason: reason.into(),
            code,
        }
    }
}

/// What happened (or, in a dry run, would happen) to one worktree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Removal {
    /// Removed; with what git-loop had to finish itself (a worktree git
    /// refused that held nothing but git's files, see [`crate::leftover`]).
    Removed(Option<String>),
    Skipped(Skip),
}

/// Everything a removal needs, shareable across cleanup's worker threads
/// (a `gix::Repository` is not `Sync`: a thread that needs one, for a
/// detached HEAD, opens its own).
pub struct Remover<'a> {
    pub loop_dir: PathBuf,
    pub git: &'a crate::git::cmd::Git,
    /// Worktrees registered under `.loop-worktrees/`, by directory name.
    pub registrations: std::collections::HashMap<String, crate::git::repo::Worktree>,
    common_dir: PathBuf,
    /// Read on first need (a detached HEAD): every ref tip.
    tips: std::sync::OnceLock<std::result::Result<crate::worktree::RefTips, String>>,
}

impl<'a> Remover<'a> {
    pub fn new(ctx: &Ctx, git: &'a crate::git::cmd::Git) -> Result<Remover<'a>> {
        Ok(Remover {
            loop_dir: ctx.loop_dir(),
            git,
            registrations: ctx.repo.loop_worktrees()?.into_iter().collect(),
            common_dir: ctx.repo.common_dir().to_path_buf(),
            tips: std::sync::OnceLock::new(),
        })
    }

    pub fn registration(&self, id: &str) -> Option<&crate::git::repo::Worktree> {
        self.registrations.get(id)
    }

    /// What, beyond git's own checks, makes this worktree unsafe to remove
    /// (see [`crate::worktree`]).
    pub fn at_risk(
        &self,
        wt: &crate::git::repo::Worktree,
        abs: &Path,
    ) -> Result<crate::worktree::AtRisk> {
        let mut risk = crate::worktree::AtRisk::read_files(wt, abs);
        if let Some(head) = wt.detached_head {
            let repo = gix::open(&self.common_dir).map_err(|e| Error::Repository(e.to_string()))?;
            let tips = self
                .tips
                .get_or_init(|| crate::worktree::RefTips::read(&repo).map_err(|e| e.to_string()));
            let tips = tips.as_ref().map_err(|e| Error::Repository(e.clone()))?;
            risk.unreachable_commits = tips.unreachable_from(&repo, head, 1000)?;
        }
        Ok(risk)
    }
}

/// Remove `.loop-worktrees/<id>` through `git worktree remove` (never forced),
/// after checking it is this repository's own worktree and that nothing in
/// it is lost that git does not check for.
///
/// - a directory that is a symlink, or that is not registered with this
///   repository (e.g. a worktree of another clone), is never touched;
/// - an operation in progress, commits only its detached HEAD holds, or a
///   nested repository keep it (see [`crate::worktree`]) — for a
///   registration whose directory is gone too (its HEAD may be the last
///   reference to commits);
/// - a registration whose directory is already gone is removed with the same
///   scoped command (never `git worktree prune`, which can unregister other
///   worktrees);
/// - a directory that is gone and unregistered is simply absent.
///
/// With `dry_run`, git is not run; what git would refuse is predicted with gix.
pub fn remove_worktree(r: &Remover<'_>, id: &str, dry_run: bool) -> Result<Removal> {
    let abs = r.loop_dir.join(id);
    let meta = match fs::symlink_metadata(&abs) {
        Ok(meta) => Some(meta),
        Err(e) if e.kind() == ErrorKind::NotFound => None,
        Err(e) => return Err(Error::io("could not read", &abs, e)),
    };
    let registered = r.registration(id);
    if let Some(meta) = &meta {
        if meta.file_type().is_symlink() {
            return Ok(Removal::Skipped(Skip::new(
                "it is a symlink, not a worktree of this repository; left untouched",
                "foreign-clone",
            )));
        }
        if registered.is_none() {
            return Ok(Removal::Skipped(Skip::new(
                "it is not a worktree registered with this repository (another clone's, or a plain directory); left untouched",
                "foreign-clone",
            )));
        }
    }
    let Some(wt) = registered else {
        return Ok(Removal::Removed(None));
    };
    let locked = match &wt.locked {
        Some(reason) if reason.is_empty() => Some(Skip::new("locked", "locked")),
        Some(reason) => Some(Skip::new(format!("locked: {reason}"), "locked")),
        None => None,
    };
    if let Some(skip) = locked.filter(|_| dry_run || meta.is_none()) {
        return Ok(Removal::Skipped(skip));
    }
    if let Some(skip) = r.at_risk(wt, &abs)?.skip() {
        return Ok(Removal::Skipped(skip));
    }
    if dry_run {
        return Ok(match meta {
            None => Removal::Removed(None),
            // Predicted with gix the way git will judge it.
            Some(_) => match predict_refusal(&abs, &wt.admin_dir) {
                Some(skip) => Removal::Skipped(skip),
                None => Removal::Removed(None),
            },
        });
    }
    let rel = crate::runid::rel_path(id);
    let admin = wt.admin_dir.clone();
    let mut attempt = 0;
    loop {
        match r.git.worktree_remove(&rel)? {
            Ok(()) => return Ok(Removal::Removed(None)),
            Err(failure) if attempt < 5 && is_transient(&failure.stderr) => {
                // Another removal changed .git/worktrees/ under this one. The
                // state decides: gone and unregistered means done; otherwise
                // try again (git re-checks cleanliness every time).
                attempt += 1;
                if fs::symlink_metadata(&abs).is_err() && !admin.exists() {
                    return Ok(Removal::Removed(None));
                }
                std::thread::sleep(std::time::Duration::from_millis(5 * attempt));
            }
            Err(refusal) => {
                let mut reason = refusal.reason();
                let mut code = crate::style::reason_code(&reason);
                if crate::leftover::may_finish(code, &reason) {
                    match crate::leftover::finish(&r.loop_dir, r.git, id, &admin) {
                        crate::leftover::Finish::Removed(note) => {
                            return Ok(Removal::Removed(Some(note)));
                        }
                        crate::leftover::Finish::Refused(why) => {
                            reason = format!("{reason} (git-loop left it: {why})");
                        }
                    }
                }
                if code == "dirty" {
                    // git says "modified or untracked" for both; gix tells.
                    code = match crate::git::repo::cleanliness(&abs, &admin) {
                        Ok(c) if !c.modified && c.untracked => "untracked",
                        _ => "dirty",
                    };
                }
                return Ok(Removal::Skipped(Skip::new(reason, code)));
            }
        }
    }
}

/// What `git worktree remove` would refuse in the worktree at `abs`, read
/// with gix (for dry runs); `None` when it looks removable or cannot be read
/// (the real run then asks git).
fn predict_refusal(abs: &Path, admin_dir: &Path) -> Option<Skip> {
    let c = crate::git::repo::cleanliness(abs, admin_dir).ok()?;
    if c.submodules {
        Some(Skip::new(
            "it contains submodules: git would refuse to remove it without --force",
            "submodules",
        ))
    } else if c.modified {
        Some(Skip::new(
            "it has modified tracked files: git would refuse to remove it without --force",
            "dirty",
        ))
    } else if c.untracked {
        Some(Skip::new(
            "it has untracked files: git would refuse to remove it without --force",
            "untracked",
        ))
    } else {
        None
    }
}

/// git 2.47 fails a `worktree remove` or `add` when another one deletes or
/// creates an entry of `.git/worktrees/` while it reads them ("Invalid path
/// '…/.git/worktrees/x'", "failed to read .git/worktrees/x/commondir"). Such
/// a failure says nothing about the worktree being removed.
fn is_transient(stderr: &str) -> bool {
    stderr.contains("/worktrees/")
        && (stderr.contains("Invalid path")
            || stderr.contains("failed to read")
            || stderr.contains("No such file or directory"))
}
