//! `cleanup.pre-command`: run in each selected worktree before its removal.
//!
//! It runs before any removal, one at a time, under the worktree-operation
//! lock (a slow hook delays concurrent creates; it never races a removal).
//! Its non-zero exit keeps that entry (`hook-refused`). A hook from an
//! untrusted repository file refuses the whole cleanup before anything
//! changes; a dry run runs no hook.

use crate::ctx::Ctx;
use crate::error::Result;
use crate::manifest::Entry;
use crate::output::Notes;
use crate::worktree::{Remover, Skip, SkipCode, SkippedEntry};

/// The selected runs `cleanup.pre-command` (if any) lets go, and those it
/// refused. A dry run runs no hook, and says so.
pub(super) fn screen(
    ctx: &Ctx,
    command: Option<&crate::configured_command::ConfiguredCommand<'_>>,
    selected: Vec<Entry>,
    remover: &Remover<'_>,
    dry_run: bool,
    out: &mut Notes<'_>,
) -> Result<(Vec<Entry>, Vec<SkippedEntry>)> {
    match command {
        Some(command) if !dry_run => call_each(ctx, command, selected, remover, out),
        Some(_) => {
            out.note(format_args!(
                "note: dry run: cleanup.pre-command is not run, and may still refuse entries"
            ));
            Ok((selected, Vec::new()))
        }
        None => Ok((selected, Vec::new())),
    }
}

/// Run `cleanup.pre-command` in each selected worktree that is there to be
/// removed (a real directory registered with this repository; the others are
/// decided by `remove_worktree` without it), one at a time, in selection
/// order. A non-zero exit keeps that entry: code `hook-refused`.
fn call_each(
    ctx: &Ctx,
    command: &crate::configured_command::ConfiguredCommand<'_>,
    selected: Vec<Entry>,
    remover: &Remover<'_>,
    out: &mut Notes<'_>,
) -> Result<(Vec<Entry>, Vec<SkippedEntry>)> {
    let mut kept = Vec::new();
    let mut refused = Vec::new();
    for entry in selected {
        let dir = ctx.worktree_path(&entry.id);
        let real_dir = std::fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir());
        let registered = remover.registration(&entry.id).is_some();
        if !real_dir || !registered {
            kept.push(entry);
            continue;
        }
        let branch = entry.branch();
        let ports = crate::ops::ports::of(ctx, &entry)?;
        let outcome = crate::configured_command::execute(
            command,
            &dir,
            &crate::configured_command::env_for(&entry.id, ctx.repo.root(), &dir, &branch, &ports),
        )?;
        if outcome.ok {
            kept.push(entry);
        } else {
            out.note(format_args!(
                "{}: cleanup.pre-command {}; keeping it",
                entry.id,
                outcome.describe()
            ));
            refused.push(SkippedEntry::new(
                &entry.id,
                Skip::new(
                    format!(
                        "cleanup.pre-command `{}` {}",
                        outcome.command,
                        outcome.describe()
                    ),
                    SkipCode::HookRefused,
                ),
            ));
        }
    }
    Ok((kept, refused))
}
