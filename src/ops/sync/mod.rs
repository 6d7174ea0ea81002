//! `git loop sync`: each run's recorded base brought into its branch (issue
//! 43), with `land`'s pieces in other roles: the ref moved is the run's
//! branch `loop/<id>`, the tip built onto is its base's current tip, the
//! checkout updated is the run's own worktree.

mod outcome;

pub use outcome::{Code, Fate, Skipped, Synced};

use std::collections::HashMap;

use gix::ObjectId;

use crate::config::SyncStrategy;
use crate::configured_command::ConfiguredCommand;
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::manifest::{Entry, Manifest, Status};
use crate::output::Notes;
use crate::runid::RunId;

/// Which runs to sync.
#[derive(Debug, Clone, Copy)]
pub enum Which<'a> {
    /// Those named (an unknown one refuses the command before anything
    /// changes), or the one whose worktree the command runs in.
    Runs(&'a [RunId]),
    /// Every run whose status is in the set (`None`: `active`).
    Status(Option<&'a [Status]>),
}

/// What to sync, and how.
#[derive(Debug, Clone, Copy)]
pub struct SyncRequest<'a> {
    pub which: Which<'a>,
    /// `--strategy`; `None`: `sync.strategy`.
    pub strategy: Option<SyncStrategy>,
    /// `--gate` (the user's own, trusted); `None`: `sync.gate`.
    pub gate: Option<&'a str>,
    pub fetch: bool,
    pub dry_run: bool,
    pub keep_going: bool,
}

/// What a sync did (in a dry run: would do), run by run.
#[derive(Debug)]
pub struct SyncOutcome {
    pub dry_run: bool,
    pub strategy: SyncStrategy,
    pub runs: Vec<(String, Fate)>,
    /// What stopped the sync part way (what synced before it is listed).
    pub error: Option<Error>,
}

/// Sync the runs `request` names; see the module doc.
pub fn sync(ctx: &Ctx, request: &SyncRequest<'_>, out: &mut Notes<'_>) -> Result<SyncOutcome> {
    let settings = ctx.settings()?;
    let strategy = request.strategy.unwrap_or(settings.sync_strategy.value);
    let _gate = gate_command(ctx, request.gate)?;
    let manifest = ctx.read_manifest()?;
    let entries = chosen(&manifest, request.which)?;
    if request.fetch && !request.dry_run {
        fetch_bases(ctx, &entries, out)?;
    }
    let bases = base_tips(ctx, &entries);
    let mut outcome = SyncOutcome {
        dry_run: request.dry_run,
        strategy,
        runs: Vec::new(),
        error: None,
    };
    let mut stopped = false;
    for entry in &entries {
        let fate = if stopped {
            not_attempted()
        } else {
            match classify(ctx, entry, &bases)? {
                Err(skipped) => Fate::Skipped(skipped),
                Ok(_) => Fate::Skipped(Skipped::new(
                    Code::NotAttempted,
                    "bringing a base in is not built yet",
                )),
            }
        };
        stopped |= fate.stops() && !request.keep_going;
        outcome.runs.push((entry.id.to_string(), fate));
    }
    Ok(outcome)
}

fn not_attempted() -> Fate {
    Fate::Skipped(Skipped::new(
        Code::NotAttempted,
        "an earlier run was skipped (--keep-going goes on)",
    ))
}

/// The gate: `--gate` (the user's own, trusted), else `sync.gate` with the
/// hooks' trust rules (a repository file's gate runs only once trusted:
/// refused before anything changes, `untrusted-hook`).
fn gate_command<'a>(ctx: &'a Ctx, given: Option<&'a str>) -> Result<Option<ConfiguredCommand<'a>>> {
    if let Some(command) = given {
        return Ok(Some(ConfiguredCommand::given(command, "--gate")));
    }
    ctx.configured(crate::configured_command::Kind::SyncGate)
}

/// `--fetch`: each distinct base's upstream fetched first, as `create
/// --fetch` fetches it ([`crate::ops::create::fresh`]: a remote-tracking
/// base is refreshed, a local branch is never moved; a failed fetch is a
/// warning).
fn fetch_bases(ctx: &Ctx, entries: &[Entry], out: &mut Notes<'_>) -> Result<()> {
    let mut seen: Vec<&str> = Vec::new();
    for entry in entries {
        let base = entry.base_branch.as_str();
        if seen.contains(&base) {
            continue;
        }
        seen.push(base);
        if let Some(mut commit) = crate::git::refs::resolve_commit(ctx.repo.gix(), base) {
            crate::ops::create::fresh::check(ctx, base, &mut commit, true, out)?;
        }
    }
    Ok(())
}

/// The runs to sync: those named, in the order named (the same id twice
/// once; an unknown one refuses the command), or every run whose status is
/// in the set (default `active`), by id.
fn chosen(manifest: &Manifest, which: Which<'_>) -> Result<Vec<Entry>> {
    match which {
        Which::Runs(ids) => {
            let mut chosen: Vec<Entry> = Vec::with_capacity(ids.len());
            for id in ids {
                let entry = manifest.get(id)?;
                if !chosen.iter().any(|e| e.id == entry.id) {
                    chosen.push(entry.clone());
                }
            }
            Ok(chosen)
        }
        Which::Status(statuses) => {
            let statuses = statuses.unwrap_or(&[Status::Active]);
            let mut chosen: Vec<Entry> = manifest
                .worktrees
                .iter()
                .filter(|e| statuses.contains(&e.status))
                .cloned()
                .collect();
            chosen.sort_by(|a, b| a.id.as_str().cmp(b.id.as_str()));
            Ok(chosen)
        }
    }
}

/// Each distinct recorded base's tip, read once (`None`: it no longer
/// resolves to a commit).
fn base_tips(ctx: &Ctx, entries: &[Entry]) -> HashMap<String, Option<ObjectId>> {
    let mut tips = HashMap::new();
    for entry in entries {
        let base = &entry.base_branch;
        if !tips.contains_key(base) {
            let tip = crate::git::refs::resolve_commit(ctx.repo.gix(), base);
            tips.insert(base.clone(), tip);
        }
    }
    tips
}

/// The run's branch tip and its base's tip, when the base has something to
/// bring in; else the skip (`no-base`, `no-branch`, `up-to-date`).
fn classify(
    ctx: &Ctx,
    entry: &Entry,
    bases: &HashMap<String, Option<ObjectId>>,
) -> Result<std::result::Result<(ObjectId, ObjectId), Skipped>> {
    let base = &entry.base_branch;
    let with_base = |mut s: Skipped| {
        s.base = Some(base.clone());
        Ok(Err(s))
    };
    let Some(Some(onto)) = bases.get(base).copied() else {
        let reason = if base.is_empty() {
            "it records no base".to_owned()
        } else {
            format!("its base {base} does not resolve to a commit")
        };
        return with_base(Skipped::new(Code::NoBase, reason));
    };
    let branch = entry.branch();
    let Some(tip) = ctx.repo.branch_target(&branch)? else {
        let reason = format!("its branch {branch} does not exist");
        return with_base(Skipped::new(Code::NoBranch, reason));
    };
    if tip == onto || crate::safety::descends_from(ctx.repo.gix(), tip, onto) {
        let reason = format!(
            "{base} ({}) is already in {branch}",
            ctx.repo.short_id(onto)
        );
        return with_base(Skipped::new(Code::UpToDate, reason));
    }
    Ok(Ok((tip, onto)))
}
