//! Activity: what a run is doing, as its agent says — `working`, `waiting`
//! (for a person), `done` (with its turn). `git loop activity` and
//! `claude-hook activity` record it as an `activity` event in the event
//! log (the activity in `to`, the note in `detail`); the manifest's shape
//! does not change, and its content is not touched: the log is the record,
//! and `list` reads each run's latest activity from its end
//! ([`crate::events::latest_activities`]).
//!
//! The event is appended under the manifest mutex, as every event is, after
//! the run is checked to be in the manifest (an unknown id is refused with
//! the ids it may have meant, as `mark` refuses it). The previous activity
//! of the run is read under the same mutex, so two agents of one run saying
//! `waiting` at once see one transition, not two.
//!
//! **Notifications.** When the activity *becomes* `waiting` or `done` (the
//! run's previous activity event says something else, or there is none in
//! the log's last 1 MiB, the window `list` reads too),
//! the command that recorded it runs `notify.command` ([`notify`]) — never a
//! daemon. A repeated `waiting` runs nothing.

pub mod notify;

use std::collections::HashSet;

use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::events::{Activity, Event, EventKind, State};
use crate::manifest::Entry;

pub use notify::Notified;

/// An activity recorded: the event written, the run's entry, the activity
/// it had before (if any), and what became of the notification.
#[derive(Debug)]
pub struct Recorded {
    pub event: Event,
    pub entry: Entry,
    pub previous: Option<Activity>,
    pub notified: Notified,
}

impl Recorded {
    /// The activity became `waiting` or `done` with this event.
    pub fn is_transition(&self) -> bool {
        let now = self.activity();
        now != Activity::Working && self.previous != Some(now)
    }

    pub fn activity(&self) -> Activity {
        match self.event.to {
            Some(State::Activity(a)) => a,
            _ => unreachable!("record writes the activity in `to`"),
        }
    }
}

/// Record that run `id` is now `activity` (with `note`), then notify when
/// that is a transition to `waiting` or `done` (see the module doc).
pub fn record(ctx: &Ctx, id: &str, activity: Activity, note: Option<&str>) -> Result<Recorded> {
    if !ctx.loop_dir_exists()? {
        return Err(Error::unknown_id(id, []));
    }
    let loop_dir = ctx.loop_dir();
    let mut tx = ctx.start_transaction()?;
    let entry = tx.manifest()?.get(id)?.clone();
    let previous = crate::events::latest_activities(&loop_dir, &HashSet::from([id]))?
        .remove(id)
        .map(|latest| latest.activity);
    let mut event = Event::new(EventKind::Activity, &entry.id);
    event.to = Some(State::Activity(activity));
    event.detail = note.map(str::to_owned);
    tx.log(event.clone());
    tx.commit_record()?;
    let mut recorded = Recorded {
        event,
        entry,
        previous,
        notified: Notified::NotATransition,
    };
    if recorded.is_transition() {
        recorded.notified = notify::notify(ctx, &recorded);
    }
    Ok(recorded)
}
