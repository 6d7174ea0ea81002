//! The note for a large repository without a commit-graph.

use std::sync::Mutex;

use super::{Inner, LARGE_OBJECTS};

/// The note for a large repository without a commit-graph, once per
/// process: set by the first walk that reads a commit from the object
/// database of a repository that has no commit-graph (and does not turn it
/// off, `core.commitGraph=false`) and holds more than [`LARGE_OBJECTS`]
/// packed objects.
static NOTE: Mutex<Option<String>> = Mutex::new(None);
static NOTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The note, if a walk of this process set it (taken: said once; the
/// caller prints it on stderr).
pub fn take_note() -> Option<String> {
    NOTE.lock().unwrap_or_else(|e| e.into_inner()).take()
}

impl Inner {
    /// At the first commit read from the object database: note a large
    /// repository without a commit-graph.
    pub(super) fn note_if_large(&self) {
        if !matches!(self.graph, Some(None))
            || NOTED.swap(true, std::sync::atomic::Ordering::Relaxed)
        {
            return;
        }
        let enabled = self
            .repo
            .config_snapshot()
            .boolean("core.commitGraph")
            .unwrap_or(true);
        let large = || {
            self.repo
                .objects
                .packed_object_count()
                .is_ok_and(|n| n > LARGE_OBJECTS)
        };
        if enabled && large() {
            *NOTE.lock().unwrap_or_else(|e| e.into_inner()) = Some(
                "note: this repository has no commit-graph, so its history is read commit by commit; `git maintenance start` (or `git commit-graph write --reachable`) keeps one written and makes history walks faster"
                    .to_owned(),
            );
        }
    }
}
