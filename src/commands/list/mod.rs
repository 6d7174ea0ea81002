//! `git loop list [--status <CSV>] [--long | --task <TASK>]`: the adapter to
//! [`crate::ops::list`] (what is read, and how) and the report it prints.
//! An empty list says so on stderr (`no runs recorded`, or that none has
//! the statuses asked for); stdout stays empty, so scripts reading it are
//! unaffected.

pub mod fleet;
mod task;

pub use task::Judged;

use serde::Serialize;

use crate::commands::shared::attempts::status_sgr;
use crate::ctx::Ctx;
use crate::error::Result;
use crate::events::Activity;
use crate::git::merged::Verdict;
use crate::manifest::{Entry, Status};
use crate::ops::list::{Listing, State};
use crate::output::{Out, Report};
use crate::style::{Cell, escape};

mod disk;
mod table;
pub use disk::Disk;
use disk::disk_table;
use table::{push, table, table_rows};

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Listed {
    #[serde(flatten)]
    pub entry: Entry,
    pub present: bool,
    /// Its latest activity (`git loop activity`), `null` when none.
    pub activity: Option<Activity>,
    /// When that activity was recorded (ISO-8601 UTC), `null` when none.
    #[serde(rename = "activityAt")]
    pub activity_at: Option<String>,
    /// With `--long` (boxed, as what only some listings read is: see
    /// [`crate::ops::list::Run`]).
    #[serde(flatten)]
    pub long: Option<Box<Long>>,
    /// With `--task`.
    #[serde(flatten)]
    pub task: Option<Box<Judged>>,
    /// With `--disk`.
    #[serde(flatten)]
    pub disk: Option<Box<Disk>>,
}

impl Listed {
    /// The ACTIVITY cell: the activity and how long ago it was said
    /// (`waiting 3m`), `-` when none.
    fn activity_cell(&self, now: jiff::Timestamp) -> Cell<'static> {
        let (Some(activity), Some(at)) = (self.activity, &self.activity_at) else {
            return ("-".into(), "");
        };
        let age = match at.parse::<jiff::Timestamp>() {
            Ok(then) => crate::time::age(now, then),
            Err(_) => "?".to_owned(),
        };
        let age = age.strip_suffix(" ago").unwrap_or(&age);
        let sgr = match activity {
            Activity::Working => "32",
            Activity::Waiting => "1;33",
            Activity::Done => "36",
        };
        (format!("{activity} {age}").into(), sgr)
    }
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
    /// How the work reached the base when `merged`: `ancestor` (its tip is
    /// in the base), `squash` or `rebase` (merging its change changes
    /// nothing).
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
    /// The STATE column's words ([`State::words`]), made with the rest.
    #[serde(skip)]
    #[schemars(skip)]
    pub state: String,
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
    /// The `--task`, if any.
    #[serde(skip)]
    pub task: Option<String>,
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
                    long.state.clone()
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
        if self.worktrees[0].disk.is_some() {
            disk_table::<9, 10, 11, 12>(out, header, rows, &self.worktrees)?;
        } else {
            table::<9, 10>(out, header, rows, &self.worktrees)?;
        }
        self.hint_missing(out);
        Ok(())
    }
}

impl Report for ListReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        if self.worktrees.is_empty() {
            if let Some(task) = &self.task {
                out.note(format_args!(
                    "no attempts of {} recorded ({} runs recorded)",
                    escape(task),
                    self.recorded
                ));
                return Ok(());
            }
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
        if self.worktrees[0].task.is_some() {
            return self.human_task(out);
        }
        let now = crate::time::now();
        // Each run's age and branch made into one string (10,000 runs: not
        // two strings each), which the cells then borrow.
        let mut made = String::with_capacity(self.worktrees.len() * 32);
        let mut spans = Vec::with_capacity(self.worktrees.len());
        for l in &self.worktrees {
            let start = made.len();
            crate::time::write_age(&mut made, now, l.entry.created_at.0);
            let age = made.len();
            made.push_str(crate::runid::BRANCH_PREFIX);
            made.push('/');
            made.push_str(&escape(&l.entry.id));
            spans.push((start, age, made.len()));
        }
        // Stored text is escaped (borrowed when there is nothing to escape,
        // as almost always), so each run stays one inert line.
        let rows = || {
            self.worktrees
                .iter()
                .zip(&spans)
                .map(|(l, &(start, age, end))| plain_row(l, &made[start..age], &made[age..end]))
        };
        let header = ["ID", "STATUS", "PATTERN", "AGE", "BRANCH", "PRESENT"];
        if self.worktrees[0].disk.is_some() {
            disk_table::<6, 7, 8, 9>(out, header, rows().collect(), &self.worktrees)?;
        } else {
            table_rows::<6, 7, _>(out, header, rows, &self.worktrees)?;
        }
        self.hint_missing(out);
        Ok(())
    }
}

impl ListReport {
    /// A run whose directory is gone (removed by hand) is listed `missing`;
    /// say what to do about it.
    fn hint_missing(&self, out: &mut Out<'_>) {
        let missing = self.worktrees.iter().filter(|l| !l.present).count();
        if missing > 0 {
            let runs = if missing == 1 {
                "1 run has".to_owned()
            } else {
                format!("{missing} runs have")
            };
            out.note(format_args!(
                "hint: {runs} no worktree (its directory was removed by hand?): `git loop reconcile` drops such entries; their branches are kept"
            ));
        }
    }
}

/// A row of the plain table: `age` and `branch` made beforehand.
fn plain_row<'a>(l: &'a Listed, age: &'a str, branch: &'a str) -> [Cell<'a>; 6] {
    [
        (escape(&l.entry.id), ""),
        (l.entry.status.as_str().into(), status_sgr(l.entry.status)),
        (escape(&l.entry.pattern), ""),
        (age.into(), "2"),
        (branch.into(), ""),
        if l.present {
            ("yes".into(), "")
        } else {
            ("missing".into(), "1;31")
        },
    ]
}

pub fn exec(
    ctx: &Ctx,
    filter: Option<&[Status]>,
    task: Option<&str>,
    long: bool,
    disk: bool,
    out: &mut Out<'_>,
) -> Result<ListReport> {
    let Listing { mut runs, recorded } =
        crate::ops::list::gather(ctx, filter, task, long, &mut out.notes())?;
    if disk {
        let ids = runs.iter().map(|r| (r.entry.id.as_str(), r.present));
        let usages = crate::ops::disk::of_runs(ctx, ids);
        for (run, usage) in runs.iter_mut().zip(usages) {
            run.disk = Some(usage);
        }
    }
    Ok(ListReport {
        version: 1,
        // In place: a `Listed` is the size of a `Run` (see the test below),
        // so the runs' buffer is reused, not a second one filled.
        worktrees: runs
            .into_iter()
            .map(|r| Listed {
                entry: r.entry,
                present: r.present,
                activity: r.activity.as_ref().map(|a| a.activity),
                activity_at: r.activity.map(|a| a.at),
                long: r.state.map(|s| Box::new(Long::from(*s))),
                task: task.map(|_| {
                    Box::new(Judged {
                        judge: r.judgement.map(|j| *j),
                    })
                }),
                disk: r.disk.map(|u| {
                    Box::new(Disk {
                        disk_bytes: u.map(|u| u.disk),
                        unique_bytes: u.map(|u| u.unique),
                    })
                }),
            })
            .collect(),
        recorded,
        filter: filter.map(<[Status]>::to_vec),
        task: task.map(str::to_owned),
    })
}

impl From<State> for Long {
    fn from(s: State) -> Long {
        let state = s.words();
        Long {
            state,
            dirty: s.dirty,
            untracked: s.untracked,
            ahead: s.ahead,
            behind: s.behind,
            merged: s.verdict.map(|v| matches!(v, Verdict::Merged(_))),
            merged_by: s.verdict.and_then(Verdict::merged_by),
            probably_merged: s.verdict.and_then(Verdict::probably_merged_by),
            empty: s.verdict.map(|v| v == Verdict::Empty),
            unreachable_commits: s.unreachable_commits,
            operation: s.operation,
            locked: s.locked,
            nested_repos: s.nested_repos,
            in_use: s.in_use,
        }
    }
}

#[cfg(test)]
mod tests {
    /// `run` turns each run into its `Listed` in place only while the two
    /// are the same size (10,000 runs: 1.5 MB not written twice).
    #[test]
    fn a_listed_run_is_the_size_of_a_run() {
        assert_eq!(
            std::mem::size_of::<super::Listed>(),
            std::mem::size_of::<crate::ops::list::Run>()
        );
    }
}
