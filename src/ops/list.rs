//! `git loop list [--status <CSV>] [--long | --task <TASK>]`'s operation — read-only, no mutex. An absent
//! manifest lists nothing and creates nothing. An empty list says so on
//! stderr (`no runs recorded`, or that none has the statuses asked for);
//! stdout stays empty, so scripts reading it are unaffected.
//!
//! `--long` adds, per run, what an operator asks before `mark`: does its
//! worktree hold uncommitted work (`dirty`: tracked changes, staged or not;
//! `untracked`: files git neither tracks nor ignores — read with gix the way
//! `git worktree remove` judges them), how many commits its branch is ahead
//! of and behind its base as the base is now, and whether its work is in
//! the base (`merged`, `mergedBy`: `ancestor`, `squash` or `rebase`; a run
//! with no commits of its own is `empty`, never merged — see
//! [`crate::git::merged`]). A value that cannot be known (the
//! worktree or the branch is gone, the base no longer resolves) is `null`
//! in JSON and `-` in the table. Worktrees are read in parallel. `inUse`
//! lists the processes working in a worktree (see [`crate::worktree`]'s
//! risk checks); `/proc` is read once for all of them.
//!
//! A cold `--long` over many runs takes seconds (4.7 s measured, the status
//! of each worktree read from disk): on a terminal's stderr a count of the
//! runs read (`reading worktrees: 3/40`, then `comparing branches with
//! their base: 3/40`) is drawn once the survey has taken longer than a
//! second, and erased before the table ([`Progress`]: nothing when piped or
//! with `--quiet`, and nothing for a survey that is quick).
//!
//! Each run's latest activity (`git loop activity`) is read from the end of
//! the event log, as far back as the oldest run's latest activity and never
//! further than the log's last 1 MiB (see [`crate::events::latest_activities`]:
//! a run whose latest activity is older is listed with none).
//!
//! `--task <TASK>` lists only the task's attempts (`<TASK>.<n>`), in
//! attempt order (numerically: `fix.2` before `fix.10`), each with its
//! latest judgement read from the event log (`judge` events, see
//! [`crate::events::latest_judgements`]; none when it was never judged).
//!
//! [`gather`] reads the runs; with `--long`, [`fill_long`] adds each run's
//! [`State`] in three phases: the worktrees (in parallel), the commits only
//! a detached HEAD holds, and the branch against its base.

use std::collections::HashMap;

use crate::ctx::Ctx;
use crate::error::Result;
use crate::git::merged::{Detector, Verdict};
use crate::git::repo::Worktree;
use crate::manifest::{Entry, Status};
use crate::output::{Notes, Progress};

/// The runs listed, and how many the manifest holds (before the filter).
#[derive(Debug)]
pub struct Listing {
    pub runs: Vec<Run>,
    pub recorded: usize,
}

/// One recorded run. What only some listings read is boxed: 10,000 runs
/// of a plain `list` are a tenth of the memory they were (456 bytes each,
/// and memory touched first is a page fault each 4 KiB).
#[derive(Debug)]
pub struct Run {
    pub entry: Entry,
    /// Its directory exists.
    pub present: bool,
    /// With `--long`.
    pub state: Option<Box<State>>,
    /// Its latest activity event, if any.
    pub activity: Option<Box<crate::events::Latest>>,
    /// With `--task`: its latest judgement (`git loop judge`), if any.
    pub judgement: Option<Box<crate::events::Judgement>>,
    /// With `--disk` ([`crate::ops::disk::of_runs`]); `None` inside: no worktree to measure.
    pub disk: Option<Option<crate::ops::disk::Usage>>,
}

/// What `--long` reads about a run (`None`: cannot be known).
#[derive(Debug, Default)]
pub struct State {
    /// Tracked changes, staged or not.
    pub dirty: Option<bool>,
    /// Files git neither tracks nor ignores.
    pub untracked: Option<bool>,
    pub ahead: Option<usize>,
    pub behind: Option<usize>,
    /// The safety kernel's verdict of the branch against its base.
    pub verdict: Option<Verdict>,
    /// Commits only the worktree's detached HEAD holds (up to 1000).
    pub unreachable_commits: Option<usize>,
    /// A rebase, merge, cherry-pick, revert or bisect in progress.
    pub operation: Option<&'static str>,
    pub locked: Option<bool>,
    pub nested_repos: Option<Vec<String>>,
    /// Processes whose working directory is in the worktree.
    pub in_use: Option<Vec<u32>>,
}

impl State {
    /// `clean`, or what a removal would have to keep, joined by `+` (in
    /// this order: locked, the operation, unreachable, nested-repo, in-use,
    /// dirty, untracked); `-` when it was not read. The one wording of
    /// `list --long`'s STATE column and `watch`'s.
    pub fn words(&self) -> String {
        let mut parts: Vec<&str> = Vec::new();
        if self.locked == Some(true) {
            parts.push("locked");
        }
        if let Some(op) = self.operation {
            parts.push(op);
        }
        if self.unreachable_commits.is_some_and(|n| n > 0) {
            parts.push("unreachable");
        }
        if self.nested_repos.as_ref().is_some_and(|n| !n.is_empty()) {
            parts.push("nested-repo");
        }
        if self.in_use.as_ref().is_some_and(|p| !p.is_empty()) {
            parts.push("in-use");
        }
        if self.dirty == Some(true) {
            parts.push("dirty");
        }
        if self.untracked == Some(true) {
            parts.push("untracked");
        }
        if !parts.is_empty() {
            return parts.join("+");
        }
        match (self.dirty, self.untracked) {
            (Some(false), Some(false)) => "clean".to_owned(),
            _ => "-".to_owned(),
        }
    }
}

pub fn gather(
    ctx: &Ctx,
    filter: Option<&[Status]>,
    task: Option<&str>,
    long: bool,
    out: &mut Notes<'_>,
) -> Result<Listing> {
    let manifest = ctx.read_manifest()?;
    // One directory read instead of a stat per entry (10,000 entries).
    let present: std::collections::HashSet<std::ffi::OsString> = if manifest.worktrees.is_empty() {
        Default::default()
    } else {
        std::fs::read_dir(ctx.loop_dir())
            .map(|dir| dir.flatten().map(|e| e.file_name()).collect())
            .unwrap_or_default()
    };
    let recorded = manifest.worktrees.len();
    let mut runs: Vec<Run> = manifest
        .worktrees
        .into_iter()
        .filter(|e| filter.is_none_or(|f| f.contains(&e.status)))
        .filter(|e| task.is_none_or(|t| attempt_number(&e.id, t).is_some()))
        .map(|entry| Run {
            present: present.contains(std::ffi::OsStr::new(&entry.id)),
            entry,
            state: None,
            activity: None,
            judgement: None,
            disk: None,
        })
        .collect();
    if let Some(task) = task {
        runs.sort_by_key(|r| attempt_number(&r.entry.id, task));
        judgements(ctx, task, &mut runs)?;
    }
    latest_activities(ctx, &mut runs)?;
    if long {
        fill_long(ctx, &mut runs, out)?;
    }
    Ok(Listing { runs, recorded })
}

/// The attempt number of `id` when it is an attempt of `task`
/// (`<TASK>.<n>`, see [`crate::runid::attempt_of`]).
fn attempt_number(id: &str, task: &str) -> Option<u32> {
    crate::runid::attempt_of(id).and_then(|(t, n)| (t == task).then_some(n))
}

/// `--task`: each attempt's latest judgement, read from the event log
/// (`judge` events), so listing never re-runs a gate.
fn judgements(ctx: &Ctx, task: &str, runs: &mut [Run]) -> Result<()> {
    if runs.is_empty() || !ctx.loop_dir_exists()? {
        return Ok(());
    }
    let (events, _) = crate::events::read(&ctx.loop_dir())?;
    let mut latest = crate::events::latest_judgements(&events, task);
    for r in runs.iter_mut() {
        r.judgement = latest.remove(r.entry.id.as_str()).map(Box::new);
    }
    Ok(())
}

/// Each listed run's latest activity, read from the end of the event log
/// (only as far back as the oldest of them, within a bounded window: see
/// [`crate::events::latest_activities`]).
fn latest_activities(ctx: &Ctx, runs: &mut [Run]) -> Result<()> {
    let loop_dir = ctx.loop_dir();
    // No log (or nothing to list): no set of 10,000 ids made for nothing. A
    // log that is a symlink is there, and refused by the read.
    if runs.is_empty() || crate::events::path(&loop_dir).symlink_metadata().is_err() {
        return Ok(());
    }
    let ids: std::collections::HashSet<&str> = runs.iter().map(|r| r.entry.id.as_str()).collect();
    let mut latest = crate::events::latest_activities(&loop_dir, &ids)?;
    for r in runs.iter_mut() {
        r.activity = latest.remove(r.entry.id.as_str()).map(Box::new);
    }
    Ok(())
}

/// Fill in `--long` for every listed run, counting the runs read on a
/// terminal when it takes long.
fn fill_long(ctx: &Ctx, runs: &mut [Run], out: &mut Notes<'_>) -> Result<()> {
    let mut progress = Progress::start();
    let registrations: HashMap<String, Worktree> = ctx.repo.loop_worktrees()?.into_iter().collect();
    for r in runs.iter_mut() {
        r.state = Some(Box::default());
    }
    worktrees(ctx, &registrations, runs, &mut progress, out);
    let read = detached_heads(ctx, &registrations, runs)
        .and_then(|()| against_base(ctx, runs, &mut progress, out));
    progress.done(out);
    read
}

fn state(run: &mut Run) -> &mut State {
    run.state.as_mut().expect("fill_long sets every state")
}

/// Worktree state: gix status per present worktree, in parallel (each
/// thread opens its own repository handle), and the at-risk reads.
fn worktrees(
    ctx: &Ctx,
    registrations: &HashMap<String, Worktree>,
    runs: &mut [Run],
    progress: &mut Progress,
    out: &mut Notes<'_>,
) {
    let jobs: Vec<(usize, std::path::PathBuf, &Worktree)> = runs
        .iter()
        .enumerate()
        .filter(|(_, r)| r.present)
        .filter_map(|(i, r)| {
            let wt = registrations.get(r.entry.id.as_str())?;
            Some((i, ctx.worktree_path(&r.entry.id), wt))
        })
        .collect();
    // Every process's working directory, read once (not per worktree).
    let processes = if jobs.is_empty() {
        crate::worktree::Processes::default()
    } else {
        crate::worktree::Processes::scan()
    };
    let (total, mut done) = (jobs.len(), 0);
    progress.show(out, format_args!("reading worktrees: {done}/{total}"));
    crate::fanout::for_each(
        &jobs,
        |(_, path, wt)| {
            let c = crate::git::repo::cleanliness(path, &wt.admin_dir).ok();
            let mut risk = crate::worktree::AtRisk::read_for_list(wt, path);
            risk.in_use = processes.inside(path);
            (c, risk)
        },
        |k, (c, risk)| {
            let state = state(&mut runs[jobs[k].0]);
            if let Some(c) = c {
                state.dirty = Some(c.modified);
                state.untracked = Some(c.untracked);
            }
            state.operation = risk.operation;
            state.nested_repos = Some(risk.nested_repos);
            state.in_use = Some(risk.in_use);
            done += 1;
            progress.show(out, format_args!("reading worktrees: {done}/{total}"));
        },
    );
}

/// Locks, and commits only a detached HEAD holds (registered worktrees,
/// present or not): one read of every ref tip, then a walk per detached
/// HEAD.
fn detached_heads(
    ctx: &Ctx,
    registrations: &HashMap<String, Worktree>,
    runs: &mut [Run],
) -> Result<()> {
    let mut tips = None;
    for r in runs.iter_mut() {
        let Some(wt) = registrations.get(r.entry.id.as_str()) else {
            continue;
        };
        let state = state(r);
        state.locked = Some(wt.locked.is_some());
        state.unreachable_commits = Some(match wt.detached_head {
            Some(head) => {
                if tips.is_none() {
                    tips = Some(crate::worktree::RefTips::read(ctx.repo.gix())?);
                }
                let tips = tips.as_ref().expect("just read");
                tips.unreachable_from(ctx.repo.gix(), head, 1000)?
            }
            None => 0,
        });
    }
    Ok(())
}

/// Ahead/behind: one walk of both sides down to their merge bases (see
/// `crate::git::repo::Walks`); merged: the safety kernel's verdict (see
/// `crate::git::merged`), its walks sharing what that one read.
fn against_base(
    ctx: &Ctx,
    runs: &mut [Run],
    progress: &mut Progress,
    out: &mut Notes<'_>,
) -> Result<()> {
    let mut bases: HashMap<String, Option<gix::ObjectId>> = Default::default();
    let mut detector = None;
    let total = runs.len();
    for (done, r) in runs.iter_mut().enumerate() {
        progress.show(
            out,
            format_args!("comparing branches with their base: {done}/{total}"),
        );
        let base = *bases
            .entry(r.entry.base_branch.clone())
            .or_insert_with(|| ctx.repo.resolve_commit(&r.entry.base_branch));
        let branch = r.entry.branch();
        let (Some(tip), Some(base)) = (ctx.repo.branch_target(&branch)?, base) else {
            continue;
        };
        let (ahead, behind) = ctx.repo.ahead_behind(tip, base)?;
        if detector.is_none() {
            detector = Some(Detector::new(ctx.repo.gix())?.sharing(ctx.repo.walks()));
        }
        let detector = detector.as_mut().expect("just set");
        // A run whose history cannot be read (a missing object, say) is
        // unknown (`null`), not a failure of the whole listing. The safety
        // kernel's guards apply: a base read through the run's own branch,
        // or an expression, proves nothing.
        let judged = crate::safety::branch::judge(
            ctx.repo.gix(),
            detector,
            &branch,
            tip,
            &r.entry.base_branch,
        );
        let state = state(r);
        state.ahead = Some(ahead);
        state.behind = Some(behind);
        state.verdict = judged.ok().map(|j| j.verdict.unwrap_or(Verdict::NotMerged));
    }
    Ok(())
}
