//! `git loop trash [list]`, `git loop trash restore <NAME> [--as <BRANCH>]`,
//! `git loop trash empty [--older-than <AGE>] [--dry-run]`: what the safety
//! kernel kept before a destroying step (see [`crate::safety::trash`] for
//! the ref names), brought back, or dropped.
//!
//! - `restore` recreates a deleted branch at its tip — only when no branch
//!   of that name exists (created with a compare-and-swap on "no such ref":
//!   an existing branch is never moved), then drops the entry. A kept tip
//!   that was not a branch (a removed worktree's HEAD or own ref, a replaced
//!   salvage) comes back as the branch `--as` names, or, without `--as`, as
//!   `trash/<run>/<ref>` (`trash/x/worktree/experiment`).
//! - `empty` drops every entry, or those kept before now − AGE; `--dry-run`
//!   lists what it would drop. Each drop is a compare-and-swap on the tip.
//!   Later cleanups drop the entries older than `trash.keep` by themselves.
//!
//! Each restore and drop is logged (`trash-restore`, `trash-expire`) under
//! the manifest mutex, with the worktree-operation lock held.

use serde::Serialize;

use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::lock::{ManifestMutex, OpsLock};
use crate::ops::reclaim::drop_entries;
use crate::output::{Out, Report};
use crate::safety::trash::{self, Entry, Kind};

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrashReport {
    /// What `trash` lists; for `empty`, the entries dropped (or, with
    /// `--dry-run`, that would be); for `restore`, the entry restored.
    pub trash: Vec<Entry>,
    /// `restore`: the branch it was restored as.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restored: Option<String>,
    /// `empty --dry-run`: nothing was dropped.
    pub dry_run: bool,
    #[serde(skip)]
    action: Action,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Action {
    #[default]
    List,
    Restore,
    Empty,
}

fn short(tip: &str) -> &str {
    &tip[..tip.len().min(12)]
}

impl Report for TrashReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        use crate::style::escape;
        match self.action {
            Action::List => {
                for e in &self.trash {
                    writeln!(
                        out.stdout,
                        "{}  {}  {}  {}",
                        escape(&e.name),
                        short(&e.tip),
                        crate::time::fixed_width(&e.trashed_at),
                        e.reason
                    )?;
                }
                if self.trash.is_empty() {
                    out.note(format_args!("the trash is empty"));
                } else {
                    out.note(format_args!(
                        "{} entr{}; `git loop trash restore <NAME>` brings one back (a branch's name brings back its newest)",
                        self.trash.len(),
                        if self.trash.len() == 1 { "y" } else { "ies" }
                    ));
                }
            }
            Action::Restore => {
                if let (Some(e), Some(branch)) = (self.trash.first(), &self.restored) {
                    writeln!(
                        out.stdout,
                        "restored {} at {} (from {})",
                        escape(branch),
                        short(&e.tip),
                        escape(&e.name)
                    )?;
                }
            }
            Action::Empty => {
                let verb = if self.dry_run {
                    "would drop"
                } else {
                    "dropped"
                };
                for e in &self.trash {
                    writeln!(out.stdout, "{verb} {}", escape(&e.name))?;
                }
                out.note(format_args!(
                    "{verb} {} entr{}",
                    self.trash.len(),
                    if self.trash.len() == 1 { "y" } else { "ies" }
                ));
            }
        }
        Ok(())
    }
}

pub fn list(ctx: &Ctx) -> Result<TrashReport> {
    Ok(TrashReport {
        trash: trash::list(ctx.repo.gix())?,
        restored: None,
        dry_run: false,
        action: Action::List,
    })
}

/// The branch a kept tip comes back as without `--as`.
fn default_branch(e: &Entry) -> String {
    match e.kind {
        Kind::Branch => e
            .original
            .strip_prefix("refs/heads/")
            .unwrap_or(&e.original)
            .to_owned(),
        _ => {
            let run = e.run.as_deref().unwrap_or("unknown");
            let what = e.original.strip_prefix("refs/").unwrap_or(&e.original);
            let what = what.strip_prefix("loop/").unwrap_or(what);
            format!("trash/{run}/{what}")
        }
    }
}

pub fn restore(
    ctx: &Ctx,
    name: &str,
    as_branch: Option<&str>,
    out: &mut Out<'_>,
) -> Result<TrashReport> {
    let entries = trash::list(ctx.repo.gix())?;
    let Some(entry) = trash::find(&entries, name).cloned() else {
        return Err(Error::TrashNotFound {
            name: name.to_owned(),
        });
    };
    let branch = match as_branch {
        Some(b) => b.to_owned(),
        None => default_branch(&entry),
    };
    let full = format!("refs/heads/{branch}");
    let valid = !branch.starts_with('-')
        && gix::refs::FullName::try_from(full.as_str()).is_ok()
        && gix::validate::reference::name(full.as_str().into()).is_ok();
    if !valid {
        return Err(Error::InvalidBranchName { name: branch });
    }
    let tip = gix::ObjectId::from_hex(entry.tip.as_bytes())
        .map_err(|e| Error::Repository(e.to_string()))?;
    let is_commit = ctx
        .repo
        .gix()
        .find_header(tip)
        .is_ok_and(|h| h.kind() == gix::object::Kind::Commit);
    if !is_commit {
        return Err(Error::Repository(format!(
            "{} keeps {tip}, which is not a commit: it cannot be a branch; `git show {}` shows it",
            entry.name, entry.refname
        )));
    }
    ctx.ensure_loop_dir()?;
    let _ops = OpsLock::acquire(&ctx.loop_dir(), |waiting| {
        out.note(format_args!("{waiting}"))
    })?;
    let mutex = ManifestMutex::acquire(&ctx.loop_dir())?;
    if ctx.repo.branch_exists(&branch)? {
        return Err(Error::RestoreOverBranch {
            branch: branch.clone(),
            entry: entry.name.clone(),
        });
    }
    use gix::refs::transaction::{Change, LogChange, PreviousValue, RefEdit, RefLog};
    ctx.repo
        .gix()
        .edit_reference(RefEdit {
            change: Change::Update {
                log: LogChange {
                    mode: RefLog::AndReference,
                    force_create_reflog: false,
                    message: format!("git-loop: trash restore {}", entry.name).into(),
                },
                expected: PreviousValue::MustNotExist,
                new: gix::refs::Target::Object(tip),
            },
            name: full.as_str().try_into().map_err(
                |e: gix::validate::reference::name::Error| Error::Repository(e.to_string()),
            )?,
            deref: false,
        })
        .map_err(|e| Error::Repository(format!("could not create {full}: {e}")))?;
    // The branch holds it now: the entry is not needed.
    let dropped = trash::drop_entry(ctx.repo.gix(), &entry);
    if let Err(e) = &dropped {
        out.note(format_args!("warning: {e}; the entry stays in the trash"));
    }
    let mut event = crate::events::Event::new(
        crate::events::EventKind::TrashRestore,
        entry.run.as_deref().unwrap_or(&entry.name),
    );
    event.detail = Some(format!(
        "{} restored as {branch} at {}",
        entry.name, entry.tip
    ));
    ctx.log_events(&[event], out);
    drop(mutex);
    Ok(TrashReport {
        trash: vec![entry],
        restored: Some(branch),
        dry_run: false,
        action: Action::Restore,
    })
}

pub fn empty(
    ctx: &Ctx,
    older_than: Option<jiff::SignedDuration>,
    dry_run: bool,
    out: &mut Out<'_>,
) -> Result<TrashReport> {
    let choose = |entries: Vec<Entry>| -> Vec<Entry> {
        match older_than {
            Some(age) => trash::older_than(&entries, crate::time::now(), age)
                .into_iter()
                .cloned()
                .collect(),
            None => entries,
        }
    };
    let why = match older_than {
        Some(age) => format!("trash empty --older-than {}s", age.as_secs()),
        None => "trash empty".to_owned(),
    };
    if dry_run {
        return Ok(TrashReport {
            trash: choose(trash::list(ctx.repo.gix())?),
            restored: None,
            dry_run,
            action: Action::Empty,
        });
    }
    ctx.ensure_loop_dir()?;
    let _ops = OpsLock::acquire(&ctx.loop_dir(), |waiting| {
        out.note(format_args!("{waiting}"))
    })?;
    let mutex = ManifestMutex::acquire(&ctx.loop_dir())?;
    let chosen = choose(trash::list(ctx.repo.gix())?);
    let dropped = drop_entries(ctx, chosen, &why, out);
    drop(mutex);
    Ok(TrashReport {
        trash: dropped,
        restored: None,
        dry_run,
        action: Action::Empty,
    })
}
