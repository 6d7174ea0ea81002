//! The gate: a command run in a scratch checkout of the landed commit.

use std::ffi::OsStr;
use std::time::Duration;

use gix::ObjectId;

use crate::configured_command::ConfiguredCommand;
use crate::error::Result;
use crate::git::repo::Repo;

/// How a gate ended.
#[derive(Debug, Clone, PartialEq)]
pub struct GateRun {
    pub command: String,
    pub passed: bool,
    /// `None` when it died of a signal or was killed at the timeout.
    pub exit_code: Option<i32>,
    pub timed_out: bool,
    pub seconds: f64,
    /// The last lines of its output (stdout and stderr together).
    pub tail: String,
}

/// Run `gate` in a scratch checkout of `commit` (which must be in the
/// object database), killing it after `timeout`; the scratch checkout is
/// gone afterwards.
pub fn run(
    repo: &Repo,
    gate: &ConfiguredCommand<'_>,
    commit: ObjectId,
    timeout: Duration,
    env: &[(&str, &OsStr)],
) -> Result<GateRun> {
    let _ = (repo, gate, commit, timeout, env);
    todo!("issue 23: gate")
}
