//! Each layer's values, checked on their own before they are merged: an
//! invalid value is an error naming its layer and the value even when a
//! higher layer overrides it, so a broken setting never lies in wait.
//!
//! Messages name the layer once (a file with the key in it, or the
//! git-config key, or the variable) and the offending value; the help says
//! where to fix it — the file and line, the `git config --file … --unset`
//! that removes it, the variable — never `git loop config`, which reads the
//! same broken layer and fails the same way.

use jiff::SignedDuration;

use super::keys::{self, IgnoreFile, Key, LandStrategy};
use super::raw::{Raw, SizeValue, StatusValue};
use super::source::Origin;
use crate::error::{Error, Result};
use crate::manifest::Status;

/// One layer's validated values; each `None` where the layer does not set it.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Values {
    pub base: Option<String>,
    pub cleanup_status: Option<Vec<Status>>,
    pub cleanup_older_than: Option<SignedDuration>,
    pub cleanup_delete_merged: Option<bool>,
    pub cleanup_salvage: Option<bool>,
    /// `Some(None)`: set to an empty command, which turns a lower layer's
    /// hook off.
    pub cleanup_pre_command: Option<Option<String>>,
    pub create_copy: Option<Vec<String>>,
    pub create_post_command: Option<Option<String>>,
    pub create_ignore_file: Option<IgnoreFile>,
    pub create_fetch: Option<bool>,
    pub create_pattern: Option<String>,
    pub claude_pattern: Option<String>,
    pub cleanup_recycle: Option<bool>,
    pub pool_size: Option<usize>,
    pub trash_keep: Option<SignedDuration>,
    pub pool_keep: Option<Vec<String>>,
    pub land_gate: Option<Option<String>>,
    pub land_strategy: Option<LandStrategy>,
    pub land_into: Option<String>,
    pub land_queue_status: Option<Vec<Status>>,
    pub land_push_retries: Option<usize>,
    pub land_require_clean: Option<bool>,
    pub judge_gate: Option<Option<String>>,
    pub notify_command: Option<Option<String>>,
    pub create_ports: Option<usize>,
    pub watch_bell: Option<bool>,
}

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

impl Raw {
    /// Check every value of the layer `origin`; `line_of` finds a key's line
    /// (TOML files only). The keys are checked in this order: the first
    /// invalid value is the error.
    pub fn validate(
        self,
        origin: &Origin,
        line_of: &dyn Fn(&str) -> Option<usize>,
    ) -> Result<Values> {
        let at = |key: Key| At {
            origin,
            key,
            line: line_of(key.toml),
        };
        let base = checked(self.base, &at, keys::BASE, base)?;
        let cleanup_status = checked(self.cleanup.status, &at, keys::CLEANUP_STATUS, status_set)?;
        let cleanup_older_than = checked(
            self.cleanup.older_than,
            &at,
            keys::CLEANUP_OLDER_THAN,
            cutoff,
        )?;
        let trash_keep = checked(self.trash.keep, &at, keys::TRASH_KEEP, cutoff)?;
        let create_copy = checked(self.create.copy, &at, keys::CREATE_COPY, copy_patterns)?;
        // pool.keep: gitignore patterns of paths inside the worktree, as
        // create.copy's.
        let pool_keep = checked(self.pool.keep, &at, keys::POOL_KEEP, copy_patterns)?;
        let create_ignore_file = checked(
            self.create.ignore_file,
            &at,
            keys::CREATE_IGNORE_FILE,
            ignore_file,
        )?;
        let create_pattern = checked(
            self.create.pattern,
            &at,
            keys::CREATE_PATTERN,
            pattern_label,
        )?;
        let claude_pattern = checked(
            self.claude.pattern,
            &at,
            keys::CLAUDE_PATTERN,
            pattern_label,
        )?;
        let land_strategy = checked(self.land.strategy, &at, keys::LAND_STRATEGY, land_strategy)?;
        let land_into = checked(self.land.into, &at, keys::LAND_INTO, land_into)?;
        let land_queue_status = checked(
            self.land.queue_status,
            &at,
            keys::LAND_QUEUE_STATUS,
            status_set,
        )?;
        let land_push_retries = checked(
            self.land.push_retries,
            &at,
            keys::LAND_PUSH_RETRIES,
            push_retries,
        )?;
        Ok(Values {
            base,
            cleanup_status,
            cleanup_older_than,
            cleanup_delete_merged: self.cleanup.delete_merged_branches,
            cleanup_salvage: self.cleanup.salvage,
            cleanup_pre_command: configured_command(
                self.cleanup.pre_command,
                &at(keys::CLEANUP_PRE_COMMAND),
            )?,
            create_copy,
            create_post_command: configured_command(
                self.create.post_command,
                &at(keys::CREATE_POST_COMMAND),
            )?,
            create_ignore_file,
            create_fetch: self.create.fetch,
            create_pattern,
            claude_pattern,
            cleanup_recycle: self.cleanup.recycle,
            pool_size: checked(self.pool.size, &at, keys::POOL_SIZE, pool_size)?,
            trash_keep,
            pool_keep,
            land_gate: configured_command(self.land.gate, &at(keys::LAND_GATE))?,
            land_strategy,
            land_into,
            land_queue_status,
            land_push_retries,
            land_require_clean: self.land.require_clean,
            judge_gate: configured_command(self.judge.gate, &at(keys::JUDGE_GATE))?,
            notify_command: configured_command(self.notify.command, &at(keys::NOTIFY_COMMAND))?,
            create_ports: checked(self.create.ports, &at, keys::CREATE_PORTS, port_count)?,
            watch_bell: self.watch.bell,
        })
    }
}

/// A layer's value for `key` checked by `check` (`None`: the layer does
/// not set it; nothing to check).
fn checked<'o, T, U>(
    value: Option<T>,
    at: &dyn Fn(Key) -> At<'o>,
    key: Key,
    check: impl FnOnce(T, &At<'o>) -> Result<U>,
) -> Result<Option<U>> {
    value.map(|v| check(v, &at(key))).transpose()
}

/// `base`: not empty (it names the branch or commit runs start from).
fn base(b: String, at: &At<'_>) -> Result<String> {
    if b.trim().is_empty() {
        return Err(at.error(format!(
            "the base {b:?} is empty; it names the branch or commit runs start from"
        )));
    }
    Ok(b)
}

/// `cleanup.status`: a CSV, or a list of CSVs; each status once, in order.
fn status_set(value: StatusValue, at: &At<'_>) -> Result<Vec<Status>> {
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
fn cutoff(text: String, at: &At<'_>) -> Result<SignedDuration> {
    parse_cutoff(&text, &at.name()).map_err(|e| e.with_help(at.help()))
}

/// `create.copy`, `pool.keep`: every pattern a [`copy_pattern`].
fn copy_patterns(list: Vec<String>, at: &At<'_>) -> Result<Vec<String>> {
    list.iter().map(|p| copy_pattern(p, at)).collect()
}

/// `create.ignore-file`: `gitignore` or `info-exclude`.
fn ignore_file(text: String, at: &At<'_>) -> Result<IgnoreFile> {
    IgnoreFile::parse(text.trim()).ok_or_else(|| {
        at.error(format!(
            "{text:?} is not an ignore file; expected gitignore (the root .gitignore) or info-exclude (.git/info/exclude)"
        ))
    })
}

/// `create.pattern`, `claude.pattern`: one line of printable text, not
/// empty.
fn pattern_label(p: String, at: &At<'_>) -> Result<String> {
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
fn pool_size(value: SizeValue, at: &At<'_>) -> Result<usize> {
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
fn land_strategy(text: String, at: &At<'_>) -> Result<LandStrategy> {
    LandStrategy::parse(text.trim()).ok_or_else(|| {
        at.error(format!(
            "{text:?} is not a landing strategy; expected rebase, squash, merge or ff"
        ))
    })
}

/// `land.into`: a branch name, not empty (an empty value is an error, not
/// "unset": a typo must not silently land runs elsewhere).
fn land_into(text: String, at: &At<'_>) -> Result<String> {
    let name = text.trim();
    if name.is_empty() || name.starts_with('-') || name.chars().any(char::is_control) {
        return Err(at.error(format!(
            "{:?} is not a branch name; land.into names the local branch runs land in",
            crate::style::escape(&text)
        )));
    }
    Ok(name.to_owned())
}

/// `land.push-retries`: a whole number from 0 to
/// [`keys::MAX_LAND_PUSH_RETRIES`].
fn push_retries(value: SizeValue, at: &At<'_>) -> Result<usize> {
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
fn port_count(value: SizeValue, at: &At<'_>) -> Result<usize> {
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

/// A configured command ([`crate::configured_command`]): an empty (or
/// all-blank) one is set but off, so a higher layer can turn off a lower one's.
fn configured_command(text: Option<String>, at: &At<'_>) -> Result<Option<Option<String>>> {
    match text {
        Some(t) if t.contains('\0') => Err(at.error(format!("command {t:?} contains a NUL byte"))),
        Some(t) if t.trim().is_empty() => Ok(Some(None)),
        other => Ok(other.map(Some)),
    }
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
