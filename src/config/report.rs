//! How `git loop config` shows a setting: its value as `--json` writes it
//! and as the table writes it ([`Show`], one impl per type of value), and
//! where it came from ([`Shown`]). The report itself, `keys::ConfigReport`,
//! has a field per setting of the table in [`super::keys`].

use jiff::SignedDuration;
use serde::Serialize;

use super::class::Class;
use super::source::Sourced;
use super::types::{IgnoreFile, Key, LandStrategy, SyncStrategy};
use crate::manifest::Status;

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Shown<T> {
    pub value: T,
    pub source: String,
}

impl<T> Shown<T> {
    /// Setting `key`'s value `s` as shown. Its source says, beside a
    /// command the repository's own file sets, whether that file is
    /// trusted (`trust`); and beside a value that applies because the
    /// untrusted file's was ignored (`ignored`), that it was.
    pub fn of<V: Show<Json = T>>(
        s: &Sourced<V>,
        key: Key,
        ignored: &[&str],
        trust: &str,
    ) -> Shown<T> {
        let mut source = s.origin.to_string();
        if key.class == Class::RunsCommand && s.value.is_set() && s.from_repo_file() {
            source = format!("{source} ({trust})");
        }
        if ignored.contains(&key.toml) {
            source.push_str(
                " (.git-loop.toml's value ignored: not trusted; `git loop trust` trusts it)",
            );
        }
        Shown {
            value: s.value.json(),
            source,
        }
    }
}

/// A type of setting value as `git loop config` shows it.
pub trait Show {
    /// The value in `--json`.
    type Json: Serialize + schemars::JsonSchema;
    fn json(&self) -> Self::Json;
    /// The value in the table.
    fn text(json: &Self::Json) -> String;
    /// Whether it is set at all (a command may be none).
    fn is_set(&self) -> bool {
        true
    }
}

impl Show for String {
    type Json = String;
    fn json(&self) -> String {
        self.clone()
    }
    fn text(json: &String) -> String {
        json.clone()
    }
}

impl Show for bool {
    type Json = bool;
    fn json(&self) -> bool {
        *self
    }
    fn text(json: &bool) -> String {
        json.to_string()
    }
}

impl Show for usize {
    type Json = usize;
    fn json(&self) -> usize {
        *self
    }
    fn text(json: &usize) -> String {
        json.to_string()
    }
}

/// A command, or a branch: `(none)` when unset.
impl Show for Option<String> {
    type Json = Option<String>;
    fn json(&self) -> Option<String> {
        self.clone()
    }
    fn text(json: &Option<String>) -> String {
        or_none(json)
    }
    fn is_set(&self) -> bool {
        self.is_some()
    }
}

/// Patterns, as words.
impl Show for Vec<String> {
    type Json = Vec<String>;
    fn json(&self) -> Vec<String> {
        self.clone()
    }
    fn text(json: &Vec<String>) -> String {
        if json.is_empty() {
            "(none)".to_owned()
        } else {
            json.join(" ")
        }
    }
}

/// Statuses, as `--status` takes them.
impl Show for Vec<Status> {
    type Json = Vec<String>;
    fn json(&self) -> Vec<String> {
        self.iter().map(|s| s.as_str().to_owned()).collect()
    }
    fn text(json: &Vec<String>) -> String {
        json.join(",")
    }
}

impl Show for SignedDuration {
    type Json = String;
    fn json(&self) -> String {
        cutoff_text(*self)
    }
    fn text(json: &String) -> String {
        json.clone()
    }
}

impl Show for Option<SignedDuration> {
    type Json = Option<String>;
    fn json(&self) -> Option<String> {
        self.map(cutoff_text)
    }
    fn text(json: &Option<String>) -> String {
        or_none(json)
    }
}

impl Show for IgnoreFile {
    type Json = &'static str;
    fn json(&self) -> &'static str {
        self.as_str()
    }
    fn text(json: &&'static str) -> String {
        (*json).to_owned()
    }
}

impl Show for LandStrategy {
    type Json = &'static str;
    fn json(&self) -> &'static str {
        self.as_str()
    }
    fn text(json: &&'static str) -> String {
        (*json).to_owned()
    }
}

impl Show for SyncStrategy {
    type Json = &'static str;
    fn json(&self) -> &'static str {
        self.as_str()
    }
    fn text(json: &&'static str) -> String {
        (*json).to_owned()
    }
}

/// An optional value as the table shows it.
fn or_none(v: &Option<String>) -> String {
    v.clone().unwrap_or_else(|| "(none)".to_owned())
}

/// A cutoff in the largest unit that divides it exactly (`86400s` → `1d`).
pub fn cutoff_text(d: SignedDuration) -> String {
    let secs = d.as_secs();
    for (unit, per) in [("d", 86_400), ("h", 3600), ("m", 60)] {
        if secs != 0 && secs % per == 0 {
            return format!("{}{unit}", secs / per);
        }
    }
    format!("{secs}s")
}
