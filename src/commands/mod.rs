//! One module per command. Each handler takes its arguments and a [`Ctx`],
//! writes only notes (to stderr, through [`Out`]), and returns a report.

pub mod branches;
pub mod cleanup;
pub mod config;
pub mod create;
mod ctx;
pub mod list;
pub mod log;
pub mod mark;
pub mod path;
pub mod reconcile;
pub mod remove;
pub mod restore;
pub mod run;
pub mod trust;

pub use crate::error::Failure;
pub use ctx::Ctx;

use crate::cli::{Cli, Command};
use crate::output::{Fail, Out, Report};

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
    // A failure part way: the report above lists what was done before it.
    if let Some(failure) = report.failed_part_way() {
        writeln!(
            out.stderr,
            "git-loop: error: {}",
            crate::style::escape(&failure.message)
        )?;
        return Err(Fail::Exit(1));
    }
    Ok(())
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
            emit(cleanup::run(&ctx, &cleanup::Flags::from(args), out)?, out)
        }
        Command::Remove(args) => {
            let ctx = Ctx::open(cli)?;
            emit(remove::run(&ctx, args, out)?, out)
        }
        Command::Branches(args) => {
            let ctx = Ctx::open(cli)?;
            emit(branches::run(&ctx, args, out)?, out)
        }
        Command::Reconcile(args) => {
            let ctx = Ctx::open(cli)?;
            emit(reconcile::run(&ctx, args, out)?, out)
        }
        Command::List(args) if args.salvaged => emit(restore::list(&Ctx::open(cli)?)?, out),
        Command::Restore(args) => {
            let ctx = Ctx::open(cli)?;
            emit(restore::run(&ctx, &args.run_id, out)?, out)
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
