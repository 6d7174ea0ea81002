//! `git loop list [--status <CSV>] [--long]` — read-only, no mutex. An absent
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

use serde::Serialize;

use crate::ctx::Ctx;
use crate::error::Result;
use crate::manifest::{Entry, Status};
use crate::output::{Out, Report};
use crate::style::{Cell, escape, write_table};

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Listed {
    #[serde(flatten)]
    pub entry: Entry,
    pub present: bool,
    /// With `--long`.
    #[serde(flatten)]
    pub long: Option<Long>,
}

/// What `--long` adds to a run.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct Long {
    pub dirty: Option<bool>,
    pub untracked: Option<bool>,
    pub ahead: Option<usize>,
    pub behind: Option<usize>,
    /// `true` only when the run made commits and they are in its base.
    pub merged: Option<bool>,
    /// How the work reached the base when `merged`: `ancestor`, `squash`
    /// or `rebase` (see [`crate::git::merged`]).
    #[serde(rename = "mergedBy")]
    pub merged_by: Option<crate::git::merged::MergedBy>,
    /// `rebase` when patch ids say the run was probably rebase-merged but
    /// merging it would still change its base: evidence, not proof (then
    /// `merged` is `false`, and nothing deletes its branch).
    #[serde(rename = "probablyMerged")]
    pub probably_merged: Option<crate::git::merged::MergedBy>,
    /// The run has no commits of its own (then `merged` is `false`).
    pub empty: Option<bool>,
    /// Commits only the worktree's detached HEAD holds (no branch, tag or
    /// remote-tracking branch contains them; counted up to 1000).
    #[serde(rename = "unreachableCommits")]
    pub unreachable_commits: Option<usize>,
    /// A rebase, merge, cherry-pick, revert or bisect in progress.
    pub operation: Option<&'static str>,
    /// `git worktree lock`ed: cleanup leaves it alone whatever else holds.
    pub locked: Option<bool>,
    /// Repositories nested inside the worktree (ignored or not).
    #[serde(rename = "nestedRepos")]
    pub nested_repos: Option<Vec<String>>,
    /// Processes whose working directory is in the worktree (this one
    /// included): cleanup skips it, code `in-use`.
    #[serde(rename = "inUse")]
    pub in_use: Option<Vec<u32>>,
}

impl Long {
    /// `clean`, or what a removal would have to keep, joined by `+`.
    fn state(&self) -> String {
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

fn opt<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "-".to_owned(), |v| v.to_string())
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct ListReport {
    pub version: u32,
    pub worktrees: Vec<Listed>,
    /// How many runs the manifest holds, before `--status` filtered them.
    #[serde(skip)]
    pub recorded: usize,
    /// The `--status` filter, if any.
    #[serde(skip)]
    pub filter: Option<Vec<Status>>,
}

impl ListReport {
    /// The `--long` table (it reads worktrees, so the rendering is not the
    /// cost).
    fn human_long(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        let now = crate::time::now();
        let header = [
            "ID", "STATUS", "PATTERN", "AGE", "BRANCH", "STATE", "AHEAD", "BEHIND", "MERGED",
        ];
        let rows: Vec<[Cell<'_>; 9]> = self
            .worktrees
            .iter()
            .map(|l| {
                let long = l.long.as_ref().expect("--long fills every row");
                let state = if l.present {
                    long.state()
                } else {
                    "missing".to_owned()
                };
                let state_sgr = match state.as_str() {
                    "clean" => "",
                    "missing" => "1;31",
                    _ => "33",
                };
                let merged: Cell<'_> = match (long.merged_by, long.probably_merged, long.empty) {
                    (Some(by), ..) => (by.as_str().into(), "32"),
                    // Evidence, not proof: `rebase?`.
                    (None, Some(by), _) => (format!("{by}?").into(), "33"),
                    (None, None, Some(true)) => ("empty".into(), "2"),
                    _ if long.merged == Some(false) => ("no".into(), ""),
                    _ => ("-".into(), ""),
                };
                [
                    (escape(&l.entry.id), ""),
                    (l.entry.status.as_str().into(), status_sgr(l.entry.status)),
                    (escape(&l.entry.pattern), ""),
                    (crate::time::age(now, l.entry.created_at.0).into(), "2"),
                    (escape(&l.entry.branch()).into_owned().into(), ""),
                    (state.into(), state_sgr),
                    (opt(long.ahead).into(), ""),
                    (opt(long.behind).into(), ""),
                    merged,
                ]
            })
            .collect();
        write_table(out.stdout, header, &rows, out.color)
    }
}

impl Report for ListReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        if self.worktrees.is_empty() {
            match &self.filter {
                Some(statuses) if self.recorded > 0 => {
                    let names: Vec<&str> = statuses.iter().map(|s| s.as_str()).collect();
                    out.note(format_args!(
                        "no run has status {} ({} recorded)",
                        names.join(","),
                        self.recorded
                    ));
                }
                _ => out.note(format_args!("no runs recorded")),
            }
            return Ok(());
        }
        if self.worktrees[0].long.is_some() {
            return self.human_long(out);
        }
        let now = crate::time::now();
        // Stored text is escaped (borrowed when there is nothing to escape,
        // as almost always), so each run stays one inert line.
        let rows: Vec<[Cell<'_>; 6]> = self
            .worktrees
            .iter()
            .map(|l| {
                let id = escape(&l.entry.id);
                let branch = crate::runid::branch_name(&id);
                [
                    (id, ""),
                    (l.entry.status.as_str().into(), status_sgr(l.entry.status)),
                    (escape(&l.entry.pattern), ""),
                    (crate::time::age(now, l.entry.created_at.0).into(), "2"),
                    (branch.into(), ""),
                    if l.present {
                        ("yes".into(), "")
                    } else {
                        ("missing".into(), "1;31")
                    },
                ]
            })
            .collect();
        let header = ["ID", "STATUS", "PATTERN", "AGE", "BRANCH", "PRESENT"];
        write_table(out.stdout, header, &rows, out.color)
    }
}

/// Fill in `--long` for every listed run.
fn fill_long(ctx: &Ctx, listed: &mut [Listed]) -> Result<()> {
    let registrations = ctx.repo.loop_worktrees()?;
    // Worktree state: gix status per worktree, in parallel (each thread opens
    // its own repository handle).
    let registrations: std::collections::HashMap<String, crate::git::repo::Worktree> =
        registrations.into_iter().collect();
    let jobs: Vec<(usize, std::path::PathBuf, &crate::git::repo::Worktree)> = listed
        .iter()
        .enumerate()
        .filter(|(_, l)| l.present)
        .filter_map(|(i, l)| {
            let wt = registrations.get(l.entry.id.as_str())?;
            Some((i, ctx.worktree_path(&l.entry.id), wt))
        })
        .collect();
    for l in listed.iter_mut() {
        l.long = Some(Long::default());
    }
    // Every process's working directory, read once (not per worktree).
    let processes = if jobs.is_empty() {
        crate::worktree::Processes::default()
    } else {
        crate::worktree::Processes::scan()
    };
    crate::pool::for_each_parallel(
        &jobs,
        |(_, path, wt)| {
            let c = crate::git::repo::cleanliness(path, &wt.admin_dir).ok();
            let mut risk = crate::worktree::AtRisk::read_files(wt, path);
            risk.in_use = processes.inside(path);
            (c, risk)
        },
        |k, (c, risk)| {
            let long = listed[jobs[k].0].long.as_mut().expect("just set");
            if let Some(c) = c {
                long.dirty = Some(c.modified);
                long.untracked = Some(c.untracked);
            }
            long.operation = risk.operation;
            long.nested_repos = Some(risk.nested_repos);
            long.in_use = Some(risk.in_use);
        },
    );
    // Commits only a detached HEAD holds (registered worktrees, present or
    // not): one read of every ref tip, then a walk per detached HEAD.
    let mut tips = None;
    for l in listed.iter_mut() {
        let Some(wt) = registrations.get(l.entry.id.as_str()) else {
            continue;
        };
        let long = l.long.as_mut().expect("just set");
        long.locked = Some(wt.locked.is_some());
        long.unreachable_commits = Some(match wt.detached_head {
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
    // Ahead/behind: one revision walk each way, in the main repository;
    // merged: see `crate::git::merged`.
    let mut bases: std::collections::HashMap<String, Option<gix::ObjectId>> = Default::default();
    let mut detector = None;
    for l in listed.iter_mut() {
        let base = *bases
            .entry(l.entry.base_branch.clone())
            .or_insert_with(|| ctx.repo.resolve_commit(&l.entry.base_branch));
        let tip = ctx.repo.branch_target(&l.entry.branch())?;
        if let (Some(tip), Some(base)) = (tip, base) {
            let (ahead, behind) = ctx.repo.ahead_behind(tip, base)?;
            let long = l.long.as_mut().expect("just set");
            long.ahead = Some(ahead);
            long.behind = Some(behind);
            if detector.is_none() {
                detector = Some(crate::git::merged::Detector::new(ctx.repo.gix())?);
            }
            let detector = detector.as_mut().expect("just set");
            // A run whose history cannot be read (a missing object, say)
            // is unknown (`null`), not a failure of the whole listing. The
            // safety kernel's guards apply: a base read through the run's
            // own branch, or an expression, proves nothing.
            let judged = crate::safety::branch::judge(
                ctx.repo.gix(),
                detector,
                &l.entry.branch(),
                tip,
                &l.entry.base_branch,
            );
            let verdict = match judged {
                Ok(j) => Ok(j.verdict.unwrap_or(crate::git::merged::Verdict::NotMerged)),
                Err(e) => Err(e),
            };
            if let Ok(verdict) = verdict {
                use crate::git::merged::Verdict;
                long.merged = Some(matches!(verdict, Verdict::Merged(_)));
                long.merged_by = verdict.merged_by();
                long.probably_merged = verdict.probably_merged_by();
                long.empty = Some(verdict == Verdict::Empty);
            }
        }
    }
    Ok(())
}

pub fn run(ctx: &Ctx, filter: Option<&[Status]>, long: bool) -> Result<ListReport> {
    let manifest = if ctx.loop_dir_exists()? {
        ctx.manifest.load_or_default()?
    } else {
        Default::default()
    };
    // One directory read instead of a stat per entry (10,000 entries).
    let present: std::collections::HashSet<std::ffi::OsString> = if manifest.worktrees.is_empty() {
        Default::default()
    } else {
        std::fs::read_dir(ctx.loop_dir())
            .map(|dir| dir.flatten().map(|e| e.file_name()).collect())
            .unwrap_or_default()
    };
    let recorded = manifest.worktrees.len();
    let worktrees = manifest
        .worktrees
        .into_iter()
        .filter(|e| filter.is_none_or(|f| f.contains(&e.status)))
        .map(|entry| Listed {
            present: present.contains(std::ffi::OsStr::new(&entry.id)),
            entry,
            long: None,
        })
        .collect();
    let mut worktrees: Vec<Listed> = worktrees;
    if long {
        fill_long(ctx, &mut worktrees)?;
    }
    Ok(ListReport {
        version: 1,
        worktrees,
        recorded,
        filter: filter.map(<[Status]>::to_vec),
    })
}

fn status_sgr(status: Status) -> &'static str {
    match status {
        Status::Active => "32",
        Status::Rejected => "31",
        Status::Escalated => "33",
        Status::Merged => "36",
        Status::Stale => "2",
    }
}
