//! [`Activity`]: the word an `activity` event records (in its `to`).

crate::vocab::vocabulary! {
    /// What a run is doing, as its agent last said: `working` on a prompt,
    /// `waiting` for a person (a question, a permission), `done` with its turn.
    /// Recorded by `activity` events; the manifest does not hold it.
    pub enum Activity {
        Working = "working",
        Waiting = "waiting",
        Done = "done",
    }
}
