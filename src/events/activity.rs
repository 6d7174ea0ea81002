//! [`Activity`]: the word an `activity` event records (in its `to`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What a run is doing, as its agent last said: `working` on a prompt,
/// `waiting` for a person (a question, a permission), `done` with its turn.
/// Recorded by `activity` events; the manifest does not hold it.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Activity {
    Working,
    Waiting,
    Done,
}

impl Activity {
    pub const ALL: [Activity; 3] = [Activity::Working, Activity::Waiting, Activity::Done];

    pub fn as_str(self) -> &'static str {
        match self {
            Activity::Working => "working",
            Activity::Waiting => "waiting",
            Activity::Done => "done",
        }
    }

    pub fn parse(text: &str) -> Option<Activity> {
        Activity::ALL.into_iter().find(|a| a.as_str() == text)
    }
}

impl std::fmt::Display for Activity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.as_str())
    }
}
