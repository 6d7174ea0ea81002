//! The documents more than one command prints. Not a command: any command
//! may use these, and these use no command (`tests/integration/layout.rs`).

/// Cleanup's report, printed by `cleanup`, `remove` and (as text on
/// stderr) `claude-hook remove`.
pub mod reclaim;

/// Land's report, printed by `land` and, for its winner, by `pick --land`.
pub mod land;

/// The table of a task's attempts, printed by `judge` and `list --task`.
pub mod attempts;

/// `fleet.publish`: the publish after a command that changed runs.
pub mod fleet;

/// The fleet listing, printed by `list --fleet` and shown by `watch --fleet`.
pub mod fleet_list;
