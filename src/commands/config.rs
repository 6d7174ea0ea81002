//! `git loop config` — the effective settings and where each came from, like
//! `git config --show-origin`. Read-only; takes no mutex. `base` is the base
//! the commands use ([`crate::ops::base::configured`]): in a repository
//! without `main`, the default branch found instead, and why.
//!
//! `--json`: `{"base":{"value":"main","source":"built-in default"},
//! "cleanup.status":{"value":["rejected","escalated"],"source":…},
//! "cleanup.older-than":{"value":null,"source":…}}` — keys are the TOML key
//! paths; the cutoff is printed in the largest unit that divides it exactly
//! (`1440m` is shown as `1d`).

use std::borrow::Cow;

use serde::Serialize;

use crate::config::keys::{
    TOML_CLEANUP_RECYCLE, TOML_CREATE_PORTS, TOML_JUDGE_GATE, TOML_LAND_GATE, TOML_LAND_INTO,
    TOML_LAND_PUSH_RETRIES, TOML_LAND_QUEUE_STATUS, TOML_LAND_REQUIRE_CLEAN, TOML_LAND_STRATEGY,
    TOML_POOL_KEEP, TOML_POOL_SIZE, TOML_TRASH_KEEP, TOML_WATCH_BELL,
};
use crate::config::{Settings, Sourced};
use crate::config::{
    TOML_BASE, TOML_CLAUDE_PATTERN, TOML_CLEANUP_DELETE_MERGED, TOML_CLEANUP_OLDER_THAN,
    TOML_CLEANUP_PRE_COMMAND, TOML_CLEANUP_SALVAGE, TOML_CLEANUP_STATUS, TOML_CREATE_COPY,
    TOML_CREATE_FETCH, TOML_CREATE_IGNORE_FILE, TOML_CREATE_PATTERN, TOML_CREATE_POST_COMMAND,
    TOML_NOTIFY_COMMAND,
};
use crate::ctx::Ctx;
use crate::error::Result;
use crate::output::{Out, Report};
use crate::style::escape;

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Shown<T> {
    pub value: T,
    pub source: String,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct ConfigReport {
    #[serde(rename = "base")]
    pub base: Shown<String>,
    #[serde(rename = "cleanup.status")]
    pub cleanup_status: Shown<Vec<String>>,
    #[serde(rename = "cleanup.older-than")]
    pub cleanup_older_than: Shown<Option<String>>,
    #[serde(rename = "cleanup.delete-merged-branches")]
    pub cleanup_delete_merged_branches: Shown<bool>,
    #[serde(rename = "cleanup.salvage")]
    pub cleanup_salvage: Shown<bool>,
    #[serde(rename = "cleanup.pre-command")]
    pub cleanup_pre_command: Shown<Option<String>>,
    #[serde(rename = "create.copy")]
    pub create_copy: Shown<Vec<String>>,
    #[serde(rename = "create.post-command")]
    pub create_post_command: Shown<Option<String>>,
    #[serde(rename = "create.ignore-file")]
    pub create_ignore_file: Shown<&'static str>,
    #[serde(rename = "create.fetch")]
    pub create_fetch: Shown<bool>,
    #[serde(rename = "create.pattern")]
    pub create_pattern: Shown<String>,
    #[serde(rename = "claude.pattern")]
    pub claude_pattern: Shown<String>,
    #[serde(rename = "cleanup.recycle")]
    pub cleanup_recycle: Shown<bool>,
    #[serde(rename = "pool.size")]
    pub pool_size: Shown<usize>,
    #[serde(rename = "trash.keep")]
    pub trash_keep: Shown<String>,
    #[serde(rename = "pool.keep")]
    pub pool_keep: Shown<Vec<String>>,
    #[serde(rename = "land.gate")]
    pub land_gate: Shown<Option<String>>,
    #[serde(rename = "land.strategy")]
    pub land_strategy: Shown<&'static str>,
    #[serde(rename = "land.into")]
    pub land_into: Shown<Option<String>>,
    #[serde(rename = "land.queue-status")]
    pub land_queue_status: Shown<Vec<String>>,
    #[serde(rename = "land.push-retries")]
    pub land_push_retries: Shown<usize>,
    #[serde(rename = "land.require-clean")]
    pub land_require_clean: Shown<bool>,
    #[serde(rename = "judge.gate")]
    pub judge_gate: Shown<Option<String>>,
    #[serde(rename = "notify.command")]
    pub notify_command: Shown<Option<String>>,
    #[serde(rename = "create.ports")]
    pub create_ports: Shown<usize>,
    #[serde(rename = "watch.bell")]
    pub watch_bell: Shown<bool>,
}

impl<T> Shown<T> {
    /// One row of the text table: the key, the value as text, the source.
    fn row(&self, key: &'static str, text: impl Fn(&T) -> String) -> (&'static str, String, &str) {
        (key, text(&self.value), &self.source)
    }
}

/// An optional value as the table shows it.
fn or_none(v: &Option<String>) -> String {
    v.clone().unwrap_or_else(|| "(none)".to_owned())
}

/// A list of words as the table shows it.
fn words(v: &[String]) -> String {
    if v.is_empty() {
        "(none)".to_owned()
    } else {
        v.join(" ")
    }
}

impl Report for ConfigReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        let rows = [
            self.base.row(TOML_BASE, String::clone),
            self.cleanup_status
                .row(TOML_CLEANUP_STATUS, |v| v.join(",")),
            self.cleanup_older_than
                .row(TOML_CLEANUP_OLDER_THAN, or_none),
            self.cleanup_delete_merged_branches
                .row(TOML_CLEANUP_DELETE_MERGED, bool::to_string),
            self.cleanup_salvage
                .row(TOML_CLEANUP_SALVAGE, bool::to_string),
            self.cleanup_pre_command
                .row(TOML_CLEANUP_PRE_COMMAND, or_none),
            self.create_copy.row(TOML_CREATE_COPY, |v| words(v)),
            self.create_post_command
                .row(TOML_CREATE_POST_COMMAND, or_none),
            self.create_ignore_file
                .row(TOML_CREATE_IGNORE_FILE, |v| (*v).to_owned()),
            self.create_fetch.row(TOML_CREATE_FETCH, bool::to_string),
            self.create_pattern.row(TOML_CREATE_PATTERN, String::clone),
            self.claude_pattern.row(TOML_CLAUDE_PATTERN, String::clone),
            self.cleanup_recycle
                .row(TOML_CLEANUP_RECYCLE, bool::to_string),
            self.pool_size.row(TOML_POOL_SIZE, usize::to_string),
            self.trash_keep.row(TOML_TRASH_KEEP, String::clone),
            self.pool_keep.row(TOML_POOL_KEEP, |v| words(v)),
            self.land_gate.row(TOML_LAND_GATE, or_none),
            self.land_strategy
                .row(TOML_LAND_STRATEGY, |v| (*v).to_owned()),
            self.land_into.row(TOML_LAND_INTO, or_none),
            self.land_queue_status
                .row(TOML_LAND_QUEUE_STATUS, |v| v.join(",")),
            self.land_push_retries
                .row(TOML_LAND_PUSH_RETRIES, usize::to_string),
            self.land_require_clean
                .row(TOML_LAND_REQUIRE_CLEAN, bool::to_string),
            self.judge_gate.row(TOML_JUDGE_GATE, or_none),
            self.notify_command.row(TOML_NOTIFY_COMMAND, or_none),
            self.create_ports.row(TOML_CREATE_PORTS, usize::to_string),
            self.watch_bell.row(TOML_WATCH_BELL, bool::to_string),
        ];
        // Values and sources come from files, git config and the
        // environment: escaped, so none can drive the terminal or split a row.
        // Each setting's git config key beside its name: what a git user
        // types (`git config loop.cleanupStatus …`).
        let rows = rows.map(|(key, value, source)| {
            let git = crate::config::keys::ALL
                .iter()
                .find(|k| k.toml == key)
                .map_or("", |k| k.git);
            [
                (Cow::Borrowed(key), ""),
                (Cow::Borrowed(git), ""),
                (Cow::Owned(escape(&value).into_owned()), ""),
                (Cow::Owned(escape(source).into_owned()), ""),
            ]
        });
        let header = ["SETTING", "GIT CONFIG", "VALUE", "FROM"];
        crate::style::write_table(out.stdout, header, &rows, out.color)?;
        // git config is the one way to change a setting (git-loop writes no
        // configuration): the note gives the command with a real key.
        out.note(format_args!(
            "to change one: git config <GIT CONFIG key> <value> (this repository; --global for all of yours), e.g. git config loop.cleanupStatus rejected"
        ));
        Ok(())
    }
}

/// A cutoff in the largest unit that divides it exactly (`86400s` → `1d`).
fn cutoff_text(d: jiff::SignedDuration) -> String {
    let secs = d.as_secs();
    for (unit, per) in [("d", 86_400), ("h", 3600), ("m", 60)] {
        if secs != 0 && secs % per == 0 {
            return format!("{}{unit}", secs / per);
        }
    }
    format!("{secs}s")
}

/// A setting as shown: its value (as `text` makes it) and its origin.
fn shown<T, U>(s: &Sourced<T>, text: impl FnOnce(&T) -> U) -> Shown<U> {
    Shown {
        value: text(&s.value),
        source: s.origin.to_string(),
    }
}

/// Whether the repository's own `.git-loop.toml`'s hooks may run, when it
/// sets one: said beside each hook from there (the file is hashed once,
/// and only when it sets a hook).
fn trust_state(ctx: &Ctx, s: &Settings) -> Result<&'static str> {
    let repo_hooks = [
        &s.cleanup_pre_command,
        &s.create_post_command,
        &s.land_gate,
        &s.judge_gate,
        &s.notify_command,
    ]
    .iter()
    .any(|sourced| sourced.value.is_some() && sourced.from_repo_file());
    if !repo_hooks {
        return Ok("");
    }
    let blob = s.repo_file_id.as_deref().unwrap_or_default();
    Ok(
        if crate::configured_command::trust::is_trusted(ctx.repo.common_dir(), blob)? {
            "trusted"
        } else {
            "NOT trusted: will not run until `git loop trust`"
        },
    )
}

/// The base every command uses (not only the setting): the default branch
/// found when the built-in `main` does not exist, with why.
fn base_shown(ctx: &Ctx, setting: &Sourced<String>) -> Result<Shown<String>> {
    let used = crate::ops::base::configured(ctx)?;
    let source = match &used.fallback {
        Some(why) => format!("default branch ({why})"),
        None => setting.origin.to_string(),
    };
    Ok(Shown {
        value: used.name,
        source,
    })
}

pub fn run(ctx: &Ctx) -> Result<ConfigReport> {
    let s = ctx.settings()?;
    let trust_state = trust_state(ctx, s)?;
    let hook = |sourced: &Sourced<Option<String>>| Shown {
        value: sourced.value.clone(),
        source: if sourced.value.is_none() || !sourced.from_repo_file() {
            sourced.origin.to_string()
        } else {
            format!("{} ({trust_state})", sourced.origin)
        },
    };
    let mut report = ConfigReport {
        base: base_shown(ctx, &s.base)?,
        cleanup_status: shown(&s.cleanup_status, |v| {
            v.iter().map(|st| st.as_str().to_owned()).collect()
        }),
        cleanup_older_than: shown(&s.cleanup_older_than, |v| v.map(cutoff_text)),
        cleanup_delete_merged_branches: shown(&s.cleanup_delete_merged_branches, |v| *v),
        cleanup_salvage: shown(&s.cleanup_salvage, |v| *v),
        cleanup_pre_command: hook(&s.cleanup_pre_command),
        create_copy: shown(&s.create_copy, Vec::clone),
        create_post_command: hook(&s.create_post_command),
        create_ignore_file: shown(&s.create_ignore_file, |v| v.as_str()),
        create_fetch: shown(&s.create_fetch, |v| *v),
        create_pattern: shown(&s.create_pattern, String::clone),
        claude_pattern: shown(&s.claude_pattern, String::clone),
        cleanup_recycle: shown(&s.cleanup_recycle, |v| *v),
        pool_size: shown(&s.pool_size, |v| *v),
        trash_keep: shown(&s.trash_keep, |v| cutoff_text(*v)),
        pool_keep: shown(&s.pool_keep, Vec::clone),
        land_gate: hook(&s.land_gate),
        land_strategy: shown(&s.land_strategy, |v| v.as_str()),
        land_into: shown(&s.land_into, Option::clone),
        land_queue_status: shown(&s.land_queue_status, |v| {
            v.iter().map(|st| st.as_str().to_owned()).collect()
        }),
        land_push_retries: shown(&s.land_push_retries, |v| *v),
        land_require_clean: shown(&s.land_require_clean, |v| *v),
        judge_gate: hook(&s.judge_gate),
        notify_command: hook(&s.notify_command),
        create_ports: shown(&s.create_ports, |v| *v),
        watch_bell: shown(&s.watch_bell, |v| *v),
    };
    // A value the untrusted repository file set and that was ignored: said
    // beside the value that applies instead (see `config::keys::Class`).
    let ignored = [
        (TOML_CLEANUP_STATUS, &mut report.cleanup_status.source),
        (
            TOML_CLEANUP_DELETE_MERGED,
            &mut report.cleanup_delete_merged_branches.source,
        ),
        (TOML_CLEANUP_SALVAGE, &mut report.cleanup_salvage.source),
        (TOML_CREATE_COPY, &mut report.create_copy.source),
        (TOML_CLEANUP_RECYCLE, &mut report.cleanup_recycle.source),
        (TOML_TRASH_KEEP, &mut report.trash_keep.source),
        (TOML_POOL_KEEP, &mut report.pool_keep.source),
        (TOML_LAND_QUEUE_STATUS, &mut report.land_queue_status.source),
    ];
    for (key, source) in ignored {
        if s.ignored.contains(&key) {
            source.push_str(
                " (.git-loop.toml's value ignored: not trusted; `git loop trust` trusts it)",
            );
        }
    }
    Ok(report)
}
