//! `git loop config` — the effective settings and where each came from, like
//! `git config --show-origin`. Read-only; takes no mutex.
//!
//! `--json`: `{"base":{"value":"main","source":"built-in default"},
//! "cleanup.status":{"value":["rejected","escalated"],"source":…},
//! "cleanup.older-than":{"value":null,"source":…}}` — keys are the TOML key
//! paths; the cutoff is printed in the largest unit that divides it exactly
//! (`1440m` is shown as `1d`).

use serde::Serialize;

use crate::config::keys::{TOML_CLEANUP_RECYCLE, TOML_POOL_KEEP, TOML_POOL_SIZE, TOML_TRASH_KEEP};
use crate::config::{
    TOML_BASE, TOML_CLAUDE_PATTERN, TOML_CLEANUP_DELETE_MERGED, TOML_CLEANUP_OLDER_THAN,
    TOML_CLEANUP_PRE_COMMAND, TOML_CLEANUP_SALVAGE, TOML_CLEANUP_STATUS, TOML_CREATE_COPY,
    TOML_CREATE_FETCH, TOML_CREATE_IGNORE_FILE, TOML_CREATE_POST_COMMAND,
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
}

impl Report for ConfigReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        let rows = [
            (TOML_BASE, self.base.value.clone(), &self.base.source),
            (
                TOML_CLEANUP_STATUS,
                self.cleanup_status.value.join(","),
                &self.cleanup_status.source,
            ),
            (
                TOML_CLEANUP_OLDER_THAN,
                self.cleanup_older_than
                    .value
                    .clone()
                    .unwrap_or_else(|| "(none)".to_owned()),
                &self.cleanup_older_than.source,
            ),
            (
                TOML_CLEANUP_DELETE_MERGED,
                self.cleanup_delete_merged_branches.value.to_string(),
                &self.cleanup_delete_merged_branches.source,
            ),
            (
                TOML_CLEANUP_SALVAGE,
                self.cleanup_salvage.value.to_string(),
                &self.cleanup_salvage.source,
            ),
            (
                TOML_CLEANUP_PRE_COMMAND,
                self.cleanup_pre_command
                    .value
                    .clone()
                    .unwrap_or_else(|| "(none)".to_owned()),
                &self.cleanup_pre_command.source,
            ),
            (
                TOML_CREATE_COPY,
                if self.create_copy.value.is_empty() {
                    "(none)".to_owned()
                } else {
                    self.create_copy.value.join(" ")
                },
                &self.create_copy.source,
            ),
            (
                TOML_CREATE_POST_COMMAND,
                self.create_post_command
                    .value
                    .clone()
                    .unwrap_or_else(|| "(none)".to_owned()),
                &self.create_post_command.source,
            ),
            (
                TOML_CREATE_IGNORE_FILE,
                self.create_ignore_file.value.to_owned(),
                &self.create_ignore_file.source,
            ),
            (
                TOML_CREATE_FETCH,
                self.create_fetch.value.to_string(),
                &self.create_fetch.source,
            ),
            (
                TOML_CLAUDE_PATTERN,
                self.claude_pattern.value.clone(),
                &self.claude_pattern.source,
            ),
            (
                TOML_CLEANUP_RECYCLE,
                self.cleanup_recycle.value.to_string(),
                &self.cleanup_recycle.source,
            ),
            (
                TOML_POOL_SIZE,
                self.pool_size.value.to_string(),
                &self.pool_size.source,
            ),
            (
                TOML_TRASH_KEEP,
                self.trash_keep.value.clone(),
                &self.trash_keep.source,
            ),
            (
                TOML_POOL_KEEP,
                if self.pool_keep.value.is_empty() {
                    "(none)".to_owned()
                } else {
                    self.pool_keep.value.join(" ")
                },
                &self.pool_keep.source,
            ),
        ];
        // Values and sources come from files, git config and the
        // environment: escaped, so none can drive the terminal or split a row.
        let rows = rows.map(|(key, value, source)| {
            (
                key,
                escape(&value).into_owned(),
                escape(source).into_owned(),
            )
        });
        let kw = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
        let vw = rows.iter().map(|r| r.1.chars().count()).max().unwrap_or(0);
        for (key, value, source) in rows {
            writeln!(out.stdout, "{key:kw$}  {value:vw$}  {source}")?;
        }
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

pub fn run(ctx: &Ctx) -> Result<ConfigReport> {
    let s = ctx.settings()?;
    // A hook from the repository's own file says whether it may run (the
    // file is hashed once, and only when it sets a hook).
    let repo_hooks = [&s.cleanup_pre_command, &s.create_post_command]
        .iter()
        .any(|sourced| sourced.value.is_some() && sourced.from_repo_file());
    let trust_state = if repo_hooks {
        let blob = s.repo_file_id.as_deref().unwrap_or_default();
        if crate::configured_command::trust::is_trusted(ctx.repo.common_dir(), blob)? {
            "trusted"
        } else {
            "NOT trusted: will not run until `git loop trust`"
        }
    } else {
        ""
    };
    let hook_source = |sourced: &crate::config::Sourced<Option<String>>| {
        if sourced.value.is_none() || !sourced.from_repo_file() {
            return sourced.origin.to_string();
        }
        format!("{} ({trust_state})", sourced.origin)
    };
    Ok(ConfigReport {
        base: Shown {
            value: s.base.value.clone(),
            source: s.base.origin.to_string(),
        },
        cleanup_status: Shown {
            value: s
                .cleanup_status
                .value
                .iter()
                .map(|st| st.as_str().to_owned())
                .collect(),
            source: s.cleanup_status.origin.to_string(),
        },
        cleanup_older_than: Shown {
            value: s.cleanup_older_than.value.map(cutoff_text),
            source: s.cleanup_older_than.origin.to_string(),
        },
        cleanup_delete_merged_branches: Shown {
            value: s.cleanup_delete_merged_branches.value,
            source: s.cleanup_delete_merged_branches.origin.to_string(),
        },
        cleanup_salvage: Shown {
            value: s.cleanup_salvage.value,
            source: s.cleanup_salvage.origin.to_string(),
        },
        cleanup_pre_command: Shown {
            value: s.cleanup_pre_command.value.clone(),
            source: hook_source(&s.cleanup_pre_command),
        },
        create_copy: Shown {
            value: s.create_copy.value.clone(),
            source: s.create_copy.origin.to_string(),
        },
        create_post_command: Shown {
            value: s.create_post_command.value.clone(),
            source: hook_source(&s.create_post_command),
        },
        create_ignore_file: Shown {
            value: s.create_ignore_file.value.as_str(),
            source: s.create_ignore_file.origin.to_string(),
        },
        create_fetch: Shown {
            value: s.create_fetch.value,
            source: s.create_fetch.origin.to_string(),
        },
        claude_pattern: Shown {
            value: s.claude_pattern.value.clone(),
            source: s.claude_pattern.origin.to_string(),
        },
        cleanup_recycle: Shown {
            value: s.cleanup_recycle.value,
            source: s.cleanup_recycle.origin.to_string(),
        },
        pool_size: Shown {
            value: s.pool_size.value,
            source: s.pool_size.origin.to_string(),
        },
        trash_keep: Shown {
            value: cutoff_text(s.trash_keep.value),
            source: s.trash_keep.origin.to_string(),
        },
        pool_keep: Shown {
            value: s.pool_keep.value.clone(),
            source: s.pool_keep.origin.to_string(),
        },
    })
}
