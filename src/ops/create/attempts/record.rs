//! The attempts set up (copy, post-command) and recorded in one manifest
//! write, or, on a failure before that write, every one undone.

use super::{Made, lock, refuse_active_attempts};
use crate::config::Settings;
use crate::configured_command::ConfiguredCommand;
use crate::ctx::{Ctx, Transaction};
use crate::error::{Error, Result};
use crate::manifest::Entry;
use crate::ops::create::CreateRequest;
use crate::ops::create::{Plan, rollback};
use crate::ops::ports;
use crate::output::Notes;
use crate::signals::RollbackWindow;

/// What [`set_up_all`] did in one attempt.
pub(super) type SetUp = (
    Option<crate::copy::CopyReport>,
    Option<crate::configured_command::Ended>,
);

/// Before the record, each attempt in turn: `create.copy` (a failure is a
/// warning, as for one create), then `create.post-command`, whose failure
/// fails the create (and so undoes every attempt).
pub(super) fn set_up_all(
    ctx: &Ctx,
    settings: &Settings,
    plans: &[Plan<'_>],
    post_command: Option<&ConfiguredCommand<'_>>,
    window: &RollbackWindow,
    out: &mut Notes<'_>,
) -> Result<Vec<SetUp>> {
    let mut set_up = Vec::with_capacity(plans.len());
    for plan in plans {
        let copy = match crate::copy::copy_into(
            &ctx.repo,
            &settings.create_copy.value,
            &plan.abs,
            false,
        ) {
            Ok(copied) => copied,
            Err(e) => {
                out.note(format_args!("warning: create.copy: {e}"));
                None
            }
        };
        let mut outcome = None;
        if let Some(command) = post_command {
            let env = crate::configured_command::env_for(
                &plan.id,
                ctx.repo.root(),
                &plan.abs,
                &plan.branch,
                &[],
            );
            let ended =
                window.child(|| crate::configured_command::execute(command, &plan.abs, &env))?;
            if !ended.ok {
                return Err(Error::AttemptsFailed {
                    task: String::new(),
                    reason: format!(
                        "create.post-command `{}` {} in {}",
                        ended.command,
                        ended.describe(),
                        plan.rel
                    ),
                    undone: String::new(),
                    code: "post-command-failed",
                });
            }
            outcome = Some(ended);
        }
        set_up.push((copy, outcome));
    }
    Ok(set_up)
}

/// The N entries in one manifest write (the window closes with it), each
/// attempt's ports leased in the same hold of the mutex (dropped again if
/// the write fails), then a `create` event for each. The entries, as
/// recorded, with their ports.
pub(super) fn record_all(
    ctx: &Ctx,
    args: &CreateRequest,
    plans: &[Plan<'_>],
    window: &RollbackWindow,
    out: &mut Notes<'_>,
) -> Result<Vec<(Entry, Vec<u16>)>> {
    let mut tx = ctx.start_transaction()?;
    refuse_active_attempts(tx.manifest()?, &args.run_id)?;
    let now = crate::time::now();
    let pattern = crate::ops::create::pattern(ctx, args)?;
    let entries: Vec<Entry> = plans
        .iter()
        .map(|p| Entry::new(&p.id, &p.base, &pattern, now))
        .collect();
    let manifest = tx.manifest_mut()?;
    manifest
        .worktrees
        .retain(|e| !entries.iter().any(|n| n.id == e.id));
    manifest.worktrees.extend(entries.iter().cloned());
    let leased = window.commit(|| {
        let release = |ctx: &Ctx, tx: &Transaction<'_>| {
            let all: Vec<&Entry> = entries.iter().collect();
            let _ = ports::release(ctx, &all, tx.mutex());
        };
        let mut leased = Vec::with_capacity(entries.len());
        for (entry, plan) in entries.iter().zip(plans) {
            match ports::lease(
                ctx,
                entry,
                &plan.abs,
                plan.ports,
                tx.manifest()?,
                tx.mutex(),
            ) {
                Ok(ports) => leased.push(ports),
                Err(e) => {
                    release(ctx, &tx);
                    return Err(e);
                }
            }
        }
        if let Err(e) = tx.write() {
            release(ctx, &tx);
            return Err(e);
        }
        Ok(leased)
    })?;
    tx.log_all(
        entries
            .iter()
            .zip(&leased)
            .map(|(e, ports)| crate::ops::create::record::create_event(e, None, ports)),
    );
    tx.commit(out)?;
    Ok(entries.into_iter().zip(leased).collect())
}

/// A failure before the record: undo every attempt made so far (busy, so
/// a signal meanwhile waits for the undo, then finds nothing left to do),
/// say each undo on stderr, and return the failure with what was undone.
pub(super) fn undo_all(
    ctx: &Ctx,
    task: &str,
    made: &Made,
    window: &RollbackWindow,
    failure: Error,
    out: &mut Notes<'_>,
) -> Error {
    let attempts = std::mem::take(&mut *lock(made));
    let (mut undone, mut left) = (Vec::new(), Vec::new());
    window.child(|| {
        for (id, at) in &attempts {
            let (all, said) = rollback::undo(ctx.repo.root(), id, *at);
            out.note(format_args!("{said}"));
            match all {
                true => undone.push(id.as_str()),
                false => left.push(id.as_str()),
            }
        }
    });
    let mut said = match undone.is_empty() {
        true => "no attempt had been made".to_owned(),
        false => format!("rolled back {}", undone.join(", ")),
    };
    if !left.is_empty() {
        said.push_str(&format!("; left {} in place (see above)", left.join(", ")));
    }
    let (reason, code) = match failure {
        Error::AttemptsFailed { reason, code, .. } => (reason, code),
        other => (other.to_string(), other.code()),
    };
    Error::AttemptsFailed {
        task: task.to_owned(),
        reason,
        undone: said,
        code,
    }
}
