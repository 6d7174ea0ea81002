//! What `land` is asked: which runs, and how each is landed (the options
//! `pick --land` takes too).

use crate::config::LandStrategy;
use crate::manifest::Status;
use crate::runid::RunId;

/// Which runs to land.
#[derive(Debug, Clone, Copy)]
pub enum Which<'a> {
    /// These, in this order.
    Runs(&'a [RunId]),
    /// `--queue`: the runs with these statuses (`None`: `land.queue-status`).
    Queue(Option<&'a [Status]>),
}

/// How a run is landed, as `land` and `pick --land` are asked; `None`
/// leaves it to the settings.
#[derive(Debug, Clone, Copy, Default)]
pub struct Landing<'a> {
    /// The branch to land in (`--into`); `None`: `land.into`, else the
    /// run's base.
    pub into: Option<&'a str>,
    pub strategy: Option<LandStrategy>,
    /// `--gate`: the user's own command, trusted.
    pub gate: Option<&'a str>,
    pub message: Option<&'a str>,
    pub keep: bool,
    /// `--push`: each landing pushed to the target's upstream.
    pub push: bool,
}

/// What `land` was asked for.
#[derive(Debug, Clone, Copy)]
pub struct LandRequest<'a> {
    pub which: Which<'a>,
    pub how: Landing<'a>,
    pub keep_going: bool,
    pub dry_run: bool,
    /// `--fleet` (with `--queue` and `--push`): the other machines'
    /// published runs in the queue's statuses too, after this machine's.
    pub fleet: bool,
}
