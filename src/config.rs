//! Effective settings and where each value came from.
//!
//! Today two layers exist: the built-in defaults and command-line flags. The
//! layered configuration (user TOML, repo TOML, git config, environment) plugs
//! in at [`Settings::load`], which returns each value with its origin so that
//! errors can name the layer a bad value came from.

use std::path::Path;

use jiff::SignedDuration;

use crate::error::{Error, Result};
use crate::manifest::Status;

/// The git-config key that sets the default base.
pub const KEY_BASE: &str = "loop.base";
pub const DEFAULT_BASE: &str = "main";
pub const DEFAULT_CLEANUP_STATUS: [Status; 2] = [Status::Rejected, Status::Escalated];

/// A value and the layer it came from ("built-in default", "--base", …).
#[derive(Debug, Clone, PartialEq)]
pub struct Sourced<T> {
    pub value: T,
    pub origin: String,
}

impl<T> Sourced<T> {
    pub fn new(value: T, origin: impl Into<String>) -> Self {
        Sourced {
            value,
            origin: origin.into(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Settings {
    pub base: Sourced<String>,
    pub cleanup_status: Sourced<Vec<Status>>,
    pub cleanup_older_than: Sourced<Option<SignedDuration>>,
}

impl Settings {
    pub fn built_in() -> Settings {
        Settings {
            base: Sourced::new(DEFAULT_BASE.to_owned(), "built-in default"),
            cleanup_status: Sourced::new(DEFAULT_CLEANUP_STATUS.to_vec(), "built-in default"),
            cleanup_older_than: Sourced::new(None, "built-in default"),
        }
    }

    /// The effective settings for the repository at `root`.
    pub fn load(_root: &Path) -> Result<Settings> {
        Ok(Settings::built_in())
    }
}

/// Parse a status CSV (`rejected,escalated`). `origin` names where it came
/// from; `usage` says whether it was typed on the command line (exit 2) or read
/// from a config layer (exit 1).
pub fn parse_status_csv(text: &str, origin: &str, usage: bool) -> Result<Vec<Status>> {
    let mut out = Vec::new();
    for member in text.split(',') {
        let member = member.trim();
        let status = Status::parse(member).ok_or_else(|| Error::InvalidStatus {
            value: member.to_owned(),
            origin: origin.to_owned(),
            usage,
        })?;
        if !out.contains(&status) {
            out.push(status);
        }
    }
    Ok(out)
}

/// Parse a cutoff (`24h`) with the same rules as `--older-than`.
pub fn parse_cutoff(text: &str, origin: &str, usage: bool) -> Result<SignedDuration> {
    crate::time::parse_cutoff(text).ok_or_else(|| Error::InvalidCutoff {
        value: text.to_owned(),
        origin: origin.to_owned(),
        usage,
    })
}
