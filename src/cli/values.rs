//! The typed values of flags and arguments, each with its parser: a usage
//! error comes from here, before any repository is opened.

use crate::error::Error;
use crate::manifest::Status;
pub use crate::runid::RunId;

/// `--status <CSV>`: statuses, each once, in the order given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusList(pub Vec<Status>);

pub(super) fn status_flag(text: &str) -> Result<StatusList, Error> {
    crate::config::parse_status_csv(text, "--status").map(StatusList)
}

/// A cutoff typed on the command line (`24h`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cutoff(pub jiff::SignedDuration);

pub(super) fn older_than_flag(text: &str) -> Result<Cutoff, Error> {
    crate::config::parse_cutoff(text, "--older-than").map(Cutoff)
}

/// `log --since <AGE>`: a cutoff, named as typed in its errors.
pub(super) fn since_flag(text: &str) -> Result<Cutoff, Error> {
    crate::config::parse_cutoff(text, "--since").map(Cutoff)
}

/// `--min-age`: a cutoff, or a bare `0` to disable the guard. Keeps the text
/// as typed for messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MinAge {
    pub age: jiff::SignedDuration,
    pub text: String,
}

pub(super) fn default_min_age() -> MinAge {
    min_age_flag("2h").expect("2h is a valid age")
}

pub(super) fn min_age_flag(text: &str) -> Result<MinAge, Error> {
    let age = if text == "0" {
        jiff::SignedDuration::ZERO
    } else {
        crate::config::parse_cutoff(text, "--min-age")?
    };
    Ok(MinAge {
        age,
        text: text.to_owned(),
    })
}

/// A `--sparse` directory: a path relative to the top of the worktree, as
/// git's cone mode takes it (no leading `/`, no `.` or `..`, no glob
/// characters, no control characters). A trailing `/` is dropped.
pub(super) fn sparse_dir(text: &str) -> Result<String, String> {
    let dir = text.strip_suffix('/').unwrap_or(text);
    let refuse = |why: &str| {
        Err(format!(
            "{why}; give a directory relative to the top of the repository, e.g. --sparse src/app"
        ))
    };
    if dir.is_empty() {
        return refuse("it is empty");
    }
    if dir.starts_with('/') {
        return refuse("it is absolute");
    }
    if let Some(c) = dir
        .chars()
        .find(|c| c.is_control() || "*?[]\\".contains(*c))
    {
        return refuse(&format!("it contains {c:?}, which cone mode does not take"));
    }
    if dir
        .split('/')
        .any(|part| matches!(part, "" | "." | ".." | ".git"))
    {
        return refuse("it has an empty, `.`, `..` or `.git` component");
    }
    Ok(dir.to_owned())
}

/// A `--ports` count: a whole number from 0 to `create.ports`' maximum.
pub(super) fn port_count(text: &str) -> Result<usize, String> {
    let max = crate::config::keys::MAX_CREATE_PORTS;
    text.parse::<usize>()
        .ok()
        .filter(|n| *n <= max)
        .ok_or_else(|| {
            format!("{text:?} is not a port count; expected a whole number from 0 to {max}")
        })
}
