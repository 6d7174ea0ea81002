//! The checks of each setting's value (the table in [`super::keys`] names
//! one per setting). Each layer's values are checked on their own before they are merged: an
//! invalid value is an error naming its layer and the value even when a
//! higher layer overrides it, so a broken setting never lies in wait.
//!
//! Messages name the layer once (a file with the key in it, or the
//! git-config key, or the variable) and the offending value; the help says
//! where to fix it — the file and line, the `git config --file … --unset`
//! that removes it, the variable — never `git loop config`, which reads the
//! same broken layer and fails the same way.

use jiff::SignedDuration;

use super::source::Origin;
use super::types::{
    self as keys, IgnoreFile, Key, LandStrategy, SizeValue, StatusValue, SyncStrategy,
};
use crate::error::{Error, Result};
use crate::manifest::Status;

/// Where a value being checked was set: its layer, its key, and its line
/// in a TOML file when known.
pub struct At<'a> {
    pub origin: &'a Origin,
    pub key: Key,
    pub line: Option<usize>,
}

impl At<'_> {
    /// The layer as messages name it: a file with the key, or the
    /// git-config key or variable (which name the key themselves).
    pub fn name(&self) -> String {
        match self.origin {
            Origin::UserFile(_) | Origin::RepoFile(_) => {
                format!("{} (`{}`)", self.origin, self.key.toml)
            }
            _ => self.origin.to_string(),
        }
    }

    pub fn help(&self) -> String {
        self.origin.fix(Some(self.key.toml), self.line)
    }

    pub fn error(&self, message: String) -> Error {
        Error::Config {
            origin: self.name(),
            message,
            help: self.help(),
        }
    }
}

/// git's boolean spellings, for messages.
pub const BOOL_SPELLINGS: &str = "true/false, yes/no, on/off, 1/0, or an empty value (false)";

/// git's boolean spellings (`git config --type=bool`): true/yes/on/1 and
/// false/no/off/0/empty, case-insensitive.
pub fn parse_git_bool(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "1" => Some(true),
        "false" | "no" | "off" | "0" | "" => Some(false),
        _ => None,
    }
}

/// A boolean in git's spellings, or an error naming the value.
pub(super) fn git_bool(text: &str, at: &At<'_>) -> Result<bool> {
    parse_git_bool(text).ok_or_else(|| {
        at.error(format!(
            "{text:?} is not a boolean; git's spellings are {BOOL_SPELLINGS}"
        ))
    })
}

/// A value that needs no check beyond its shape (a boolean).
pub(super) fn as_read<T>(value: T, _: &At<'_>) -> Result<T> {
    Ok(value)
}

/// `base`: not empty (it names the branch or commit runs start from).
pub(super) fn base(b: String, at: &At<'_>) -> Result<String> {
    if b.trim().is_empty() {
        return Err(at.error(format!(
            "the base {b:?} is empty; it names the branch or commit runs start from"
        )));
    }
    Ok(b)
}

/// `cleanup.status`: a CSV, or a list of CSVs; each status once, in order.
pub(super) fn status_set(value: StatusValue, at: &At<'_>) -> Result<Vec<Status>> {
    let items = match value {
        StatusValue::Csv(csv) => vec![csv],
        StatusValue::List(list) => list,
    };
    let mut out: Vec<Status> = Vec::new();
    for item in items {
        for s in status_csv(&item, at)? {
            if !out.contains(&s) {
                out.push(s);
            }
        }
    }
    Ok(out)
}

/// `cleanup.older-than`, `trash.keep`: a cutoff, as `--older-than` takes.
pub(super) fn cutoff(text: String, at: &At<'_>) -> Result<SignedDuration> {
    parse_cutoff(&text, &at.name()).map_err(|e| e.with_help(at.help()))
}

/// `cleanup.older-than`: a [`cutoff`], where the default is none.
pub(super) fn some_cutoff(text: String, at: &At<'_>) -> Result<Option<SignedDuration>> {
    cutoff(text, at).map(Some)
}

/// `create.copy`, `pool.keep`: every pattern a [`copy_pattern`].
pub(super) fn copy_patterns(list: Vec<String>, at: &At<'_>) -> Result<Vec<String>> {
    list.iter().map(|p| copy_pattern(p, at)).collect()
}

/// `create.ignore-file`: `gitignore` or `info-exclude`.
pub(super) fn ignore_file(text: String, at: &At<'_>) -> Result<IgnoreFile> {
    IgnoreFile::parse(text.trim()).ok_or_else(|| {
        at.error(format!(
            "{text:?} is not an ignore file; expected gitignore (the root .gitignore) or info-exclude (.git/info/exclude)"
        ))
    })
}

/// `create.pattern`, `claude.pattern`: one line of printable text, not
/// empty.
pub(super) fn pattern_label(p: String, at: &At<'_>) -> Result<String> {
    if p.is_empty() || p.chars().any(char::is_control) {
        return Err(at.error(format!(
            "the pattern {:?} is empty or holds a control character; a pattern label is one line of printable text",
            crate::style::escape(&p)
        )));
    }
    Ok(p)
}

/// `pool.size`: a whole number from 0 to [`keys::MAX_POOL_SIZE`] (a TOML
/// integer, or its text from git config or the environment).
pub(super) fn pool_size(value: SizeValue, at: &At<'_>) -> Result<usize> {
    let (n, shown) = match value {
        SizeValue::Number(n) => (usize::try_from(n).ok(), n.to_string()),
        SizeValue::Text(s) => (s.trim().parse::<usize>().ok(), format!("{s:?}")),
    };
    n.filter(|n| *n <= keys::MAX_POOL_SIZE).ok_or_else(|| {
        at.error(format!(
            "{shown} is not a pool size; expected a whole number from 0 to {}",
            keys::MAX_POOL_SIZE
        ))
    })
}

/// `land.strategy`: rebase, squash, merge or ff.
pub(super) fn land_strategy(text: String, at: &At<'_>) -> Result<LandStrategy> {
    LandStrategy::parse(text.trim()).ok_or_else(|| {
        at.error(format!(
            "{text:?} is not a landing strategy; expected rebase, squash, merge or ff"
        ))
    })
}

/// `sync.strategy`: rebase or merge.
pub(super) fn sync_strategy(text: String, at: &At<'_>) -> Result<SyncStrategy> {
    SyncStrategy::parse(text.trim()).ok_or_else(|| {
        at.error(format!(
            "{text:?} is not a sync strategy; expected rebase or merge"
        ))
    })
}

/// `land.into`: a branch name, not empty (an empty value is an error, not
/// "unset": a typo must not silently land runs elsewhere).
pub(super) fn land_into(text: String, at: &At<'_>) -> Result<Option<String>> {
    let name = text.trim();
    if name.is_empty() || name.starts_with('-') || name.chars().any(char::is_control) {
        return Err(at.error(format!(
            "{:?} is not a branch name; land.into names the local branch runs land in",
            crate::style::escape(&text)
        )));
    }
    Ok(Some(name.to_owned()))
}

/// `land.push-retries`: a whole number from 0 to
/// [`keys::MAX_LAND_PUSH_RETRIES`].
pub(super) fn push_retries(value: SizeValue, at: &At<'_>) -> Result<usize> {
    let (n, shown) = match value {
        SizeValue::Number(n) => (usize::try_from(n).ok(), n.to_string()),
        SizeValue::Text(s) => (s.trim().parse::<usize>().ok(), format!("{s:?}")),
    };
    n.filter(|n| *n <= keys::MAX_LAND_PUSH_RETRIES)
        .ok_or_else(|| {
            at.error(format!(
                "{shown} is not a retry count; expected a whole number from 0 to {}",
                keys::MAX_LAND_PUSH_RETRIES
            ))
        })
}

/// `create.ports`: a whole number from 0 to [`keys::MAX_CREATE_PORTS`].
pub(super) fn port_count(value: SizeValue, at: &At<'_>) -> Result<usize> {
    let (n, shown) = match value {
        SizeValue::Number(n) => (usize::try_from(n).ok(), n.to_string()),
        SizeValue::Text(s) => (s.trim().parse::<usize>().ok(), format!("{s:?}")),
    };
    n.filter(|n| *n <= keys::MAX_CREATE_PORTS).ok_or_else(|| {
        at.error(format!(
            "{shown} is not a port count; expected a whole number from 0 to {}",
            keys::MAX_CREATE_PORTS
        ))
    })
}

/// `fleet.name`: a machine's name, one ref component under
/// `refs/loop/fleet/`, so a run id's rules.
pub(super) fn fleet_name(text: String, at: &At<'_>) -> Result<Option<String>> {
    match crate::runid::problem(&text) {
        None => Ok(Some(text)),
        Some(why) => Err(at.error(format!(
            "{:?} is not a machine name: {why}; a fleet name follows a run id's rules",
            crate::style::escape(&text)
        ))),
    }
}

/// `fleet.remote`: a remote's name (or URL), not empty and not an option.
pub(super) fn fleet_remote(text: String, at: &At<'_>) -> Result<Option<String>> {
    let name = text.trim();
    if name.is_empty() || name.starts_with('-') || name.chars().any(char::is_control) {
        return Err(at.error(format!(
            "{:?} is not a remote; fleet.remote names the remote (or its URL) the fleet's refs live on",
            crate::style::escape(&text)
        )));
    }
    Ok(Some(name.to_owned()))
}

/// A configured command ([`crate::configured_command`]): an empty (or
/// all-blank) one is set but off (`None`), so a higher layer can turn off a
/// lower one's.
pub(super) fn command(t: String, at: &At<'_>) -> Result<Option<String>> {
    if t.contains('\0') {
        return Err(at.error(format!("command {t:?} contains a NUL byte")));
    }
    Ok(Some(t).filter(|t| !t.trim().is_empty()))
}

/// A `create.copy` pattern: gitignore syntax, matched against paths inside
/// the main worktree. Refused: empty, NUL, and `..` segments (a pattern never
/// reaches outside the worktree; such a pattern could only be a mistake).
fn copy_pattern(p: &str, at: &At<'_>) -> Result<String> {
    let bad = |why: &str| at.error(format!("pattern {p:?} {why}"));
    let body = p.strip_prefix('!').unwrap_or(p);
    if body.trim().is_empty() {
        return Err(bad("is empty"));
    }
    if p.contains('\0') || p.contains('\n') {
        return Err(bad("contains a control character"));
    }
    if body.split('/').any(|seg| seg == "..") {
        return Err(bad(
            "has a `..` segment; patterns match paths inside the worktree",
        ));
    }
    Ok(p.to_owned())
}

fn status_csv(text: &str, at: &At<'_>) -> Result<Vec<Status>> {
    parse_status_csv(text, &at.name()).map_err(|e| e.with_help(at.help()))
}

/// Parse a status CSV (`rejected,escalated`). `origin` names where it came
/// from; `usage` says whether it was typed on the command line (exit 2) or read
/// from a config layer (exit 1).
pub fn parse_status_csv(text: &str, origin: &str) -> Result<Vec<Status>> {
    let mut out = Vec::new();
    for member in text.split(',') {
        let member = member.trim();
        let status = Status::parse(member).ok_or_else(|| Error::InvalidStatus {
            value: member.to_owned(),
            origin: origin.to_owned(),
            help: None,
        })?;
        if !out.contains(&status) {
            out.push(status);
        }
    }
    Ok(out)
}

/// Parse a cutoff (`24h`) with the same rules as `--older-than`.
pub fn parse_cutoff(text: &str, origin: &str) -> Result<SignedDuration> {
    crate::time::parse_cutoff(text).ok_or_else(|| Error::InvalidCutoff {
        value: text.to_owned(),
        origin: origin.to_owned(),
        help: None,
    })
}
