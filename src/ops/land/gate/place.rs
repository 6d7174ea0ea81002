//! Where a gate stands in its `land` ([`Place`]): the words of its status
//! line on a terminal and of what Ctrl-C during it says.

use std::sync::Mutex;

/// Where a gate stands in its `land`: for its status line and for what
/// Ctrl-C says.
#[derive(Debug, Clone, Default)]
pub struct Place {
    /// The runs this `land` landed before it.
    pub landed: Vec<String>,
    /// The runs after it, not started.
    pub ahead: Vec<String>,
    /// Its run's place among those to land (1-based), and how many.
    pub at: usize,
    pub of: usize,
    /// Draw the status line (stderr a terminal, neither `--json` nor `--quiet`).
    pub progress: bool,
}

impl Place {
    /// `place` set for the run at `at` of `entries`, after `done`.
    pub(in crate::ops::land) fn update(
        place: &Mutex<Place>,
        done: &[(String, crate::ops::land::Fate)],
        entries: &[crate::manifest::Entry],
        at: usize,
    ) {
        let mut place = place.lock().unwrap_or_else(|p| p.into_inner());
        place.landed = done
            .iter()
            .filter(|(_, fate)| matches!(fate, crate::ops::land::Fate::Landed(_)))
            .map(|(id, _)| crate::style::escape(id).into_owned())
            .collect();
        place.ahead = entries[at + 1..]
            .iter()
            .map(|e| crate::style::escape(e.id.as_str()).into_owned())
            .collect();
        (place.at, place.of) = (at + 1, entries.len());
    }

    /// What an interrupt of `id`'s gate leaves, in words.
    pub fn interrupted(&self, id: &str) -> String {
        let id = crate::style::escape(id);
        let mut said = Vec::new();
        if !self.landed.is_empty() {
            said.push(format!("landed {}", self.landed.join(", ")));
        }
        said.push(format!("{id}'s gate stopped, nothing of {id} changed"));
        if !self.ahead.is_empty() {
            said.push(format!("{} not started", self.ahead.join(", ")));
        }
        said.join("; ")
    }

    /// The status line's words while `id`'s gate runs.
    pub(super) fn words(&self, id: &str) -> crate::output::live::Words {
        let id = crate::style::escape(id).into_owned();
        let of = if self.of > 1 {
            format!(" ({} of {})", self.at, self.of)
        } else {
            String::new()
        };
        Box::new(move |spent, last| {
            let last = if last.is_empty() {
                String::new()
            } else {
                format!(": {last}")
            };
            format!("gate of {id}{of}: {}s{last}", spent.as_secs())
        })
    }
}
