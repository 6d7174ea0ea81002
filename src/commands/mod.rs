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

pub use crate::error::Failure;

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
    // Arguments were validated by clap (`crate::cli`'s value parsers) before
    // the repository is touched, so a usage error never depends on (or
    // changes) repository state.
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
            let ctx = Ctx::open(cli)?;
            emit(mark::run(&ctx, args, out)?, out)
        }
        Command::Cleanup(args) => {
            let ctx = Ctx::open(cli)?;
            let report = cleanup::run(&ctx, &cleanup::Flags::from(args), out)?;
            let failed = report.error.as_ref().map(|e| e.message.clone());
            emit(report, out)?;
            failed_part_way(failed, out)
        }
        Command::Reconcile(args) => {
            let ctx = Ctx::open(cli)?;
            let report = reconcile::run(&ctx, args, out)?;
            let failed = report.error.as_ref().map(|e| e.message.clone());
            emit(report, out)?;
            failed_part_way(failed, out)
        }
        Command::List(args) => {
            let filter = args.status.as_ref().map(|s| s.0.as_slice());
            let ctx = Ctx::open(cli)?;
            let report = list::run(&ctx, filter, args.long && !args.ids)?;
            if args.ids {
                for listed in &report.worktrees {
                    writeln!(out.stdout, "{}", listed.entry.id)?;
                }
                return Ok(());
            }
            emit(report, out)
        }
        Command::Run(args) => {
            let ctx = Ctx::open(cli)?;
            Err(Fail::Exit(run::run(&ctx, args)?))
        }
        Command::Log(args) => {
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
            let ctx = Ctx::open(cli)?;
            emit(path::run(&ctx, &args.run_id)?, out)
        }
    }
}
