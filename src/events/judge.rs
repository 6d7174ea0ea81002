//! [`Judgement`]: what `git loop judge` found for one attempt of a task, as
//! a `judge` event records it (one event per attempt; the attempt's id in
//! `id`, the commit judged in `to`, this document as compact JSON in
//! `detail`). `list --task` and `pick` read the latest one of each attempt
//! back with [`latest_judgements`], so neither re-runs the gate.
//!
//! The fields are the per-attempt figures of `judge --json` (docs/cli.md,
//! "Next"); a field a newer version adds is ignored when read back, and a
//! detail that does not parse is passed over (the attempt then counts as
//! not judged), as `log` passes over a malformed line.

use std::collections::HashMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Event, EventKind, State};

/// One attempt's evidence and its place in the order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Judgement {
    /// The attempt's run id (`<TASK>.<n>`).
    pub id: String,
    /// The task the attempt belongs to.
    pub task: String,
    /// The gate command, as configured or passed.
    pub gate: String,
    /// The commit that was judged (the attempt's branch tip: what would land).
    pub head: String,
    /// The gate exited 0 within its timeout.
    pub passed: bool,
    /// The gate's exit code; absent when it was killed (timeout, signal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// The gate was killed at its timeout.
    #[serde(default)]
    pub timed_out: bool,
    /// Wall-clock seconds the gate took.
    pub seconds: f64,
    /// Merging the attempt into its base conflicts (in-memory merge).
    pub conflicts_with_base: bool,
    /// The share (0 to 1) of this attempt's change that other passing
    /// attempts also made (files and hunks in common).
    pub agreement: f64,
    /// Lines added plus lines removed against the merge base.
    pub lines_changed: u64,
    pub files_changed: u64,
    /// The worktree had uncommitted changes: judged as it stood on disk, but
    /// its committed tip is what would land.
    pub dirty: bool,
    /// The gate changed the worktree (allowed, reported).
    #[serde(default)]
    pub wrote_to_worktree: bool,
    /// 1 for the leader.
    pub rank: u32,
}

impl Judgement {
    /// It changes no file against its base (no commits of its own, or
    /// none that change a file): what it would land is nothing.
    pub fn changes_nothing(&self) -> bool {
        self.files_changed == 0 && self.lines_changed == 0
    }

    /// The `judge` event that records this judgement.
    pub fn event(&self) -> Event {
        let mut e = Event::new(EventKind::Judge, &self.id);
        e.to = Some(State::Commit(self.head.clone()));
        e.detail = Some(serde_json::to_string(self).expect("a judgement serializes"));
        e
    }

    /// The judgement a `judge` event records, if it is one and it parses.
    pub fn from_event(e: &Event) -> Option<Judgement> {
        if e.event != EventKind::Judge {
            return None;
        }
        serde_json::from_str(e.detail.as_deref()?).ok()
    }
}

/// The latest judgement of each attempt of `task` in `events` (the log in
/// its order), by attempt id.
pub fn latest_judgements(events: &[Event], task: &str) -> HashMap<String, Judgement> {
    let mut found = HashMap::new();
    for j in events.iter().filter_map(Judgement::from_event) {
        if j.task == task {
            found.insert(j.id.clone(), j);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(id: &str, rank: u32) -> Judgement {
        Judgement {
            id: id.into(),
            task: "fix".into(),
            gate: "make test".into(),
            head: "0123456789abcdef0123456789abcdef01234567".into(),
            passed: true,
            exit_code: Some(0),
            timed_out: false,
            seconds: 1.5,
            conflicts_with_base: false,
            agreement: 0.5,
            lines_changed: 12,
            files_changed: 2,
            dirty: false,
            wrote_to_worktree: false,
            rank,
        }
    }

    #[test]
    fn a_judgement_round_trips_through_its_event_and_the_latest_one_wins() {
        let first = sample("fix.1", 2);
        let again = sample("fix.1", 1);
        let other_task = Judgement {
            task: "other".into(),
            ..sample("other.1", 1)
        };
        let line = serde_json::to_string(&first.event()).unwrap();
        let back: Event = serde_json::from_str(&line).unwrap();
        assert_eq!(Judgement::from_event(&back), Some(first.clone()));
        let events = [first.event(), other_task.event(), again.event()];
        let latest = latest_judgements(&events, "fix");
        assert_eq!(latest.len(), 1);
        assert_eq!(latest["fix.1"].rank, 1);
    }

    #[test]
    fn a_detail_that_does_not_parse_is_passed_over() {
        let mut e = sample("fix.1", 1).event();
        e.detail = Some("{not json".into());
        assert_eq!(Judgement::from_event(&e), None);
        assert!(latest_judgements(&[e], "fix").is_empty());
    }
}
