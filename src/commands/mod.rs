//! One module per command. Each handler takes its arguments and a [`Ctx`],
//! writes only notes (to stderr, through [`Out`]), and returns a report.

pub mod activity;
pub mod branches;
pub mod claim;
pub mod claude_hook;
pub mod cleanup;
pub mod completion;
pub mod config;
pub mod conflicts;
pub mod create;
pub mod env;
pub mod handoff;
pub mod judge;
pub mod land;
pub mod list;
pub mod log;
pub mod mark;
pub mod path;
pub mod pick;
pub mod pool;
pub mod publish;
pub mod reconcile;
pub mod remove;
pub mod restore;
pub mod run;
pub mod schema;
pub mod shared;
pub mod sync;
pub mod trash;
pub mod trust;
pub mod watch;

pub use crate::ctx::Ctx;

use crate::cli::{Cli, Command, CreateArgs, ListArgs};
use crate::output::{Fail, Out, emit, emit_paged};

pub fn dispatch(cli: &Cli, out: &mut Out<'_>) -> std::result::Result<(), Fail> {
    // Arguments were validated by clap (`crate::cli`'s value parsers) before
    // the repository is touched, so a usage error never depends on (or
    // changes) repository state.
    let ctx = || Ctx::open(cli.repo.as_deref());
    match &cli.command {
        Command::Create(args) => create(cli, args, out),
        Command::Mark(args) => {
            let ctx = ctx()?;
            match args.status {
                Some(status) => {
                    let dir = crate::ops::infer::start_dir(cli.repo.as_deref())?;
                    emit(mark::exec(&ctx, &args.run_ids, &dir, status, out)?, out)
                }
                None => emit(mark::detect::exec(&ctx, args.dry_run, out)?, out),
            }
        }
        Command::Cleanup(args) => emit(cleanup::exec(&ctx()?, args, out)?, out),
        Command::Remove(args) => emit(remove::exec(&ctx()?, args, out)?, out),
        Command::Branches(args) => emit(branches::exec(&ctx()?, args, out)?, out),
        Command::Conflicts(args) => emit(conflicts::exec(&ctx()?, args, out)?, out),
        Command::Land(args) => {
            let dir = crate::ops::infer::start_dir(cli.repo.as_deref())?;
            emit(land::exec(&ctx()?, args, &dir, out)?, out)
        }
        Command::Sync(args) => {
            let dir = crate::ops::infer::start_dir(cli.repo.as_deref())?;
            emit(sync::exec(&ctx()?, args, &dir, out)?, out)
        }
        Command::Pick(args) => emit(pick::exec(&ctx()?, args, out)?, out),
        Command::Judge(args) => judge::run_and_emit(&ctx()?, args, out),
        Command::Watch(args) => watch::exec(cli.repo.as_deref(), args, out),
        Command::Reconcile(args) => emit(reconcile::exec(&ctx()?, args, out)?, out),
        Command::Restore(args) => emit(restore::exec(&ctx()?, args, out)?, out),
        Command::List(args) if args.fleet => emit(list::fleet::exec(&ctx()?)?, out),
        Command::List(args) => list(cli, args, out),
        Command::Activity(args) => emit(activity::exec(cli.repo.as_deref(), args, out)?, out),
        Command::Env(args) => emit(env::exec(cli.repo.as_deref(), args)?, out),
        Command::Run(args) => {
            let ctx = ctx()?;
            Err(Fail::Exit(run::exec(&ctx, args)?))
        }
        Command::Log(args) => {
            let ctx = ctx()?;
            let report = log::exec(&ctx, args, out)?;
            let pager = log::pager(&ctx, &report, out);
            emit_paged(report, out, pager.as_deref())
        }
        Command::Trash(args) => emit(trash::exec(&ctx()?, args, out)?, out),
        Command::Trust => emit(trust::exec(&ctx()?)?, out),
        Command::Pool(args) => emit(pool::exec(&ctx()?, args, out)?, out),
        Command::Config => emit(config::exec(&ctx()?)?, out),
        Command::ClaudeHook(event) => claude_hook::exec(cli, event, out),
        Command::Schema(args) => schema::exec(args.name, out.stdout),
        Command::Completion(args) => completion::exec(args.shell, out.stdout),
        Command::Publish(args) => emit(publish::exec(&ctx()?, args, out)?, out),
        Command::Claim(args) => emit(claim::exec(&ctx()?, args)?, out),
        Command::Handoff(args) => emit(handoff::exec(&ctx()?, args, out)?, out),
        Command::Mcp => Ok(crate::mcp::serve(&mut std::io::stdin().lock(), out.stdout)?),
        Command::Path(args) => {
            let ctx = ctx()?;
            let dir = crate::ops::infer::start_dir(cli.repo.as_deref())?;
            emit(path::exec(&ctx, args.run_id.as_ref(), &dir)?, out)
        }
    }
}

/// `create` (see [`create::emit_created`]).
fn create(cli: &Cli, args: &CreateArgs, out: &mut Out<'_>) -> std::result::Result<(), Fail> {
    create::validate(args)?;
    create::emit_created(&Ctx::open(cli.repo.as_deref())?, args, out)
}

/// `list`, or `list --salvaged`; with `--ids`, the ids only, one a line.
fn list(cli: &Cli, args: &ListArgs, out: &mut Out<'_>) -> std::result::Result<(), Fail> {
    let ctx = Ctx::open(cli.repo.as_deref())?;
    if args.salvaged {
        let report = restore::list(&ctx)?;
        if args.ids {
            for run in &report.salvaged {
                writeln!(out.stdout, "{}", run.id)?;
            }
            return Ok(());
        }
        return emit(report, out);
    }
    let filter = args.status.as_ref().map(|s| s.0.as_slice());
    let task = args.task.as_deref();
    let (long, disk) = (args.long && !args.ids, args.disk && !args.ids);
    let report = list::exec(&ctx, filter, task, long, disk, out)?;
    if args.ids {
        for listed in &report.worktrees {
            writeln!(out.stdout, "{}", listed.entry.id)?;
        }
        return Ok(());
    }
    emit(report, out)
}
