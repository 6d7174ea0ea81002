//! `git loop judge <TASK>`: run a gate in every active attempt of a task,
//! then rank the attempts on evidence (issue "Best of N").
//!
//! # The attempts
//!
//! The active runs named `<TASK>.<n>` ([`crate::runid::attempt_of`]), in
//! the order of `n`; none is refused (`no-attempts`, naming the task). An
//! attempt whose branch or worktree is gone is left out, with a note.
//!
//! # The gate
//!
//! `--gate` (the user's own), else `judge.gate` with the hooks' trust rules
//! ([`crate::configured_command::lookup`], [`Kind::JudgeGate`]): one from
//! the repository's `.git-loop.toml` runs only once trusted, and the files
//! it names are checked in each attempt's worktree before its gate is
//! spawned (an attempt that changed `check.sh` is refused, naming it, as
//! that is not the script you trusted). No gate at all is refused
//! (`no-gate`) before anything runs. [`gates`] runs it in each attempt's
//! own worktree as the attempt left it (uncommitted changes included: the
//! attempt is then flagged `dirty`), `--jobs` at a time (default: the
//! number of cores), each with `--timeout` (default [`DEFAULT_TIMEOUT`],
//! land's), its output in `<git common dir>/git-loop/judge/<TASK>/<ID>.log`.
//! A gate may write into the worktree; judge never undoes it, but reports
//! it (`wroteToWorktree`, from [`snapshot`]s before and after).
//!
//! # The evidence and the order
//!
//! From the committed tip (what would land; [`evidence`], in memory):
//! whether merging it into its base's current tip conflicts, its hunks
//! against the merge base, its lines and files changed. **Agreement** is
//! the share of an attempt's hunks that at least one *other* attempt whose
//! gate passed also has (the same file, the same removed and added lines):
//! agreed hunks / its hunks, 0 when it has none; independent attempts that
//! converge on the same change are more likely right. The order
//! ([`rank`]): an attempt that changes nothing last; then passed first;
//! then no conflict with the base first; then
//! higher agreement; then fewer lines changed; then a faster gate; then the
//! attempt's number. Rank 1 is the leader.
//!
//! # What it changes
//!
//! Nothing but the log files and the event log: one `judge` event per
//! attempt ([`Judgement::event`]), appended under the manifest mutex once
//! every attempt is ranked, so `list --task` and `pick` read the results
//! without running the gate again. No lock is held while the gates run.

mod evidence;
mod gates;
mod rank;
mod snapshot;

pub use gates::log_path;

use std::time::Duration;

use gix::ObjectId;

use crate::configured_command::ConfiguredCommand;
#[cfg(doc)]
use crate::configured_command::Kind;
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::events::Judgement;
use crate::manifest::{Entry, Manifest, Status};
use crate::output::Notes;

/// How long a gate may run by default: land's gate timeout.
pub const DEFAULT_TIMEOUT: Duration = crate::ops::land::gate::TIMEOUT;

/// What to judge, and how.
pub struct JudgeRequest<'a> {
    pub task: &'a str,
    pub gate: Option<&'a str>,
    pub jobs: Option<usize>,
    pub timeout: Option<Duration>,
}

/// The judgements, in rank order.
#[derive(Debug)]
pub struct JudgeOutcome {
    pub task: String,
    pub gate: String,
    pub attempts: Vec<Judgement>,
}

/// Judge the active attempts of `request.task` (see the module doc).
pub fn judge(ctx: &Ctx, request: &JudgeRequest<'_>, out: &mut Notes<'_>) -> Result<JudgeOutcome> {
    let task = request.task;
    let gate = gate_command(ctx, request.gate)?.ok_or(Error::NoGate)?;
    let manifest = ctx.read_manifest()?;
    let (jobs, found) = prepare(ctx, &gate, task, active_attempts(&manifest, task), out)?;
    if jobs.is_empty() {
        return Err(Error::NoAttempts {
            task: task.to_owned(),
        });
    }
    // One per core unless `--jobs` says otherwise, as every fan-out.
    let workers = request.jobs.unwrap_or_else(crate::fanout::cores);
    let timeout = request.timeout.unwrap_or(DEFAULT_TIMEOUT);
    let progress = out.stderr_is_terminal && !out.json && !out.quiet;
    let at = (ctx.repo.root(), task);
    let ran = gates::run_all(&gate, at, &jobs, (workers, timeout), progress)?;
    let judged: Vec<rank::Judged> = jobs
        .iter()
        .zip(found)
        .zip(ran)
        .map(|((job, (n, head, evidence)), ran)| rank::Judged {
            id: job.id.clone(),
            n,
            head,
            ran,
            evidence,
        })
        .collect();
    let attempts = rank::rank(task, gate.command, judged);
    let mut tx = ctx.start_transaction()?;
    tx.log_all(attempts.iter().map(Judgement::event));
    tx.commit(out)?;
    Ok(JudgeOutcome {
        task: task.to_owned(),
        gate: gate.command.to_owned(),
        attempts,
    })
}

/// An attempt's number, its committed tip, and the evidence read from it.
type Found = (u32, ObjectId, evidence::Evidence);

/// The active runs `<task>.<n>`, by `n`.
fn active_attempts<'m>(manifest: &'m Manifest, task: &str) -> Vec<(u32, &'m Entry)> {
    let mut attempts: Vec<(u32, &Entry)> = manifest
        .worktrees
        .iter()
        .filter(|e| e.status == Status::Active)
        .filter_map(|e| match crate::runid::attempt_of(&e.id) {
            Some((t, n)) if t == task => Some((n, e)),
            _ => None,
        })
        .collect();
    attempts.sort_by_key(|(n, _)| *n);
    attempts
}

/// What each attempt's gate needs, and the evidence of its committed tip
/// (number, tip, evidence), in the same order; an attempt whose branch or
/// worktree is gone is left out with a note. Refused before any gate runs:
/// no attempts, a base that does not resolve, a trusted gate naming a file
/// an attempt changed.
fn prepare(
    ctx: &Ctx,
    gate: &ConfiguredCommand<'_>,
    task: &str,
    attempts: Vec<(u32, &Entry)>,
    out: &mut Notes<'_>,
) -> Result<(Vec<gates::Job>, Vec<Found>)> {
    if attempts.is_empty() {
        return Err(Error::NoAttempts {
            task: task.to_owned(),
        });
    }
    let merger = crate::git::merge::Merger::new(ctx.repo.gix())?;
    let (mut jobs, mut found) = (Vec::new(), Vec::new());
    for (n, entry) in attempts {
        let dir = ctx.worktree_path(&entry.id);
        let left_out =
            |why: String| format!("judge: {} left out: {why}", crate::style::escape(&entry.id));
        let Some(tip) = ctx.repo.branch_target(&entry.branch())? else {
            let why = format!("its branch {} does not exist", entry.branch());
            out.note(format_args!("{}", left_out(why)));
            continue;
        };
        if !dir.is_dir() {
            let why = format!("its worktree {} is missing", dir.display());
            out.note(format_args!("{}", left_out(why)));
            continue;
        }
        let base =
            ctx.repo
                .resolve_commit(&entry.base_branch)
                .ok_or_else(|| Error::BaseNotFound {
                    what: format!("the base {:?} of {}", entry.base_branch, entry.id),
                    help: "`git loop list` shows each run's base".into(),
                })?;
        gate.check_files(&dir)?;
        found.push((n, tip, evidence::read(&merger, base, tip)?));
        jobs.push(gates::Job {
            id: entry.id.to_string(),
            branch: entry.branch(),
            ports: crate::ops::ports::of(ctx, entry)?,
            log: log_path(ctx.repo.common_dir(), task, &entry.id),
            dir,
        });
    }
    Ok((jobs, found))
}

/// The gate: `--gate` (the user's own, trusted), else `judge.gate` with
/// the hooks' trust rules.
fn gate_command<'a>(ctx: &'a Ctx, given: Option<&'a str>) -> Result<Option<ConfiguredCommand<'a>>> {
    if let Some(command) = given {
        return Ok(Some(ConfiguredCommand::given(command, "--gate")));
    }
    ctx.configured(crate::configured_command::Kind::JudgeGate)
}
