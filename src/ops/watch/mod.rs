//! `git loop watch`'s operation: what the live view shows, when to read it
//! again, and when to ring. The view itself (the screen, the keys) is the
//! command's (`commands::watch`); this module never draws.
//!
//! What is shown is what `list --long` reads ([`crate::ops::list`]), nothing
//! more: the same row-building functions, so the two never disagree. Reading
//! a run's worktree (dirty, ahead, behind, merged) is the expensive part (a
//! gix status per worktree), so it is not redone on every change:
//! - the manifest or the event log changed ([`changes`]: inotify on
//!   `.loop-worktrees/`, which the manifest's rename and the log's appends
//!   write into): statuses and activities are read again, and each run's
//!   worktree state is kept from the last full reading ([`read`] with
//!   `full = false`); a run seen for the first time gets its full reading
//!   then;
//! - every [`FULL_REFRESH`] (the fallback, and the only way a worktree's own
//!   edits are seen): everything is read again.
//!
//! Between the two the caller blocks (terminal input, a file change or the
//! timer, whichever comes first): nothing polls.
//!
//! The bell ([`became_waiting_or_done`]) rings for a change seen while
//! watching: a run whose latest activity became `waiting` or `done` since
//! the previous reading (as `notify.command` runs once per transition, a
//! repeated `waiting` does not ring again); the runs on screen when the
//! view opens do not.

pub mod changes;
pub mod diffstat;

use std::collections::HashMap;
use std::time::Duration;

use crate::ctx::Ctx;
use crate::error::Result;
use crate::events::Activity;
use crate::ops::list::Run;
use crate::output::Notes;

/// How often everything (each worktree's state included) is read again
/// when nothing else asked for it.
pub const FULL_REFRESH: Duration = Duration::from_secs(10);

/// Every recorded run, in the manifest's order. With `full`, each run's
/// worktree and branch are read (`list --long`); without, each run's
/// [`crate::ops::list::State`] is taken from `previous` (by id), and only
/// the runs `previous` did not hold are read in full.
pub fn read(ctx: &Ctx, previous: Vec<Run>, full: bool) -> Result<Vec<Run>> {
    let disks: HashMap<String, Option<crate::ops::disk::Usage>> = previous
        .iter()
        .filter_map(|r| Some((r.entry.id.as_str().to_owned(), r.disk?)))
        .collect();
    let mut runs = read_runs(ctx, previous, full)?;
    with_disk(ctx, &mut runs, &disks);
    Ok(runs)
}

/// Each run's disk use ([`crate::ops::disk`]): measured once, when the run
/// first shows in the view (a walk of its worktree, as `list --disk`), and
/// carried from `known` after that, so the view's refreshes never walk the
/// worktrees again (idle, it stays idle).
fn with_disk(
    ctx: &Ctx,
    runs: &mut [Run],
    known: &HashMap<String, Option<crate::ops::disk::Usage>>,
) {
    let new: Vec<usize> = (0..runs.len())
        .filter(|&i| !known.contains_key(runs[i].entry.id.as_str()))
        .collect();
    let measured = crate::ops::disk::of_runs(
        ctx,
        new.iter()
            .map(|&i| (runs[i].entry.id.as_str(), runs[i].present)),
    );
    for (i, usage) in new.into_iter().zip(measured) {
        runs[i].disk = Some(usage);
    }
    for run in runs.iter_mut() {
        if let Some(usage) = known.get(run.entry.id.as_str()) {
            run.disk = Some(*usage);
        }
    }
}

fn read_runs(ctx: &Ctx, previous: Vec<Run>, full: bool) -> Result<Vec<Run>> {
    let mut stderr = std::io::sink();
    // The listing's progress line is for a terminal's stderr: the view owns
    // that terminal, so the listing writes nowhere.
    let mut out = Notes {
        stderr: &mut stderr,
        json: false,
        quiet: true,
        stderr_is_terminal: false,
    };
    let mut listing = crate::ops::list::gather(ctx, None, None, full, &mut out)?.runs;
    if full {
        return Ok(listing);
    }
    let mut states: HashMap<String, Option<Box<crate::ops::list::State>>> = previous
        .into_iter()
        .map(|r| (r.entry.id.as_str().to_owned(), r.state))
        .collect();
    let mut unknown = false;
    for run in &mut listing {
        match states.remove(run.entry.id.as_str()) {
            Some(state) => run.state = state,
            None => unknown = true,
        }
    }
    if unknown {
        return crate::ops::list::gather(ctx, None, None, true, &mut out).map(|l| l.runs);
    }
    Ok(listing)
}

/// Each run's latest activity, by id: what [`became_waiting_or_done`]
/// compares the next reading with.
pub fn activities(runs: &[Run]) -> HashMap<String, Option<Activity>> {
    runs.iter()
        .map(|r| {
            (
                r.entry.id.as_str().to_owned(),
                r.activity.as_ref().map(|a| a.activity),
            )
        })
        .collect()
}

/// The runs (ids, in `after`'s order) whose latest activity became
/// `waiting` or `done` since `before` ([`activities`] of the previous
/// reading): a run whose activity was another one, or none, or that
/// `before` did not hold.
pub fn became_waiting_or_done<'a>(
    before: &HashMap<String, Option<Activity>>,
    after: &'a [Run],
) -> Vec<(&'a str, Activity)> {
    after
        .iter()
        .filter_map(|r| {
            let now = r.activity.as_ref()?.activity;
            let rings = matches!(now, Activity::Waiting | Activity::Done)
                && before
                    .get(r.entry.id.as_str())
                    .is_none_or(|&w| w != Some(now));
            rings.then_some((r.entry.id.as_str(), now))
        })
        .collect()
}
