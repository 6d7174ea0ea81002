//! The raw shape of a layer: what a TOML file sets, as serde reads it (one
//! key's text from git config or the environment is read into it by
//! [`Raw::from_text`] below, which knows git's boolean spellings through
//! [`super::validate`]). Nothing here is checked beyond its shape; the checks are
//! [`super::validate`]'s, on each layer on its own.

use serde::Deserialize;

use super::keys::{self, Key};
use super::validate::{At, git_bool};
use crate::error::Result;
/// The raw shape of a TOML layer. Unknown keys are errors (a typo must not
/// be silently ignored).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Raw {
    pub base: Option<String>,
    #[serde(default)]
    pub create: RawCreate,
    #[serde(default)]
    pub cleanup: RawCleanup,
    #[serde(default)]
    pub claude: RawClaude,
    #[serde(default)]
    pub pool: RawPool,
    #[serde(default)]
    pub trash: RawTrash,
    #[serde(default)]
    pub land: RawLand,
    #[serde(default)]
    pub notify: RawNotify,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct RawLand {
    pub gate: Option<String>,
    pub strategy: Option<String>,
    pub into: Option<String>,
    pub queue_status: Option<StatusValue>,
    pub push_retries: Option<SizeValue>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawNotify {
    pub command: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTrash {
    pub keep: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawClaude {
    pub pattern: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct RawPool {
    pub size: Option<SizeValue>,
    pub keep: Option<Vec<String>>,
}

/// `pool.size`: a number from TOML, text from git config and the environment.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum SizeValue {
    Number(i64),
    Text(String),
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCreate {
    pub copy: Option<Vec<String>>,
    #[serde(rename = "post-command")]
    pub post_command: Option<String>,
    #[serde(rename = "ignore-file")]
    pub ignore_file: Option<String>,
    pub fetch: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCleanup {
    pub status: Option<StatusValue>,
    #[serde(rename = "older-than")]
    pub older_than: Option<String>,
    #[serde(rename = "delete-merged-branches")]
    pub delete_merged_branches: Option<bool>,
    pub salvage: Option<bool>,
    #[serde(rename = "pre-command")]
    pub pre_command: Option<String>,
    pub recycle: Option<bool>,
}

/// The cleanup status set: a TOML array or a CSV string.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum StatusValue {
    Csv(String),
    List(Vec<String>),
}

impl Raw {
    /// The raw value of one key as git config or the environment spells it:
    /// a boolean in git's spellings, a list as its items, anything else text.
    pub fn from_text(key: Key, text: String, items: Vec<String>, at: &At<'_>) -> Result<Raw> {
        let mut raw = Raw::default();
        match key.toml {
            keys::TOML_BASE => raw.base = Some(text),
            keys::TOML_CLEANUP_STATUS => raw.cleanup.status = Some(StatusValue::Csv(text)),
            keys::TOML_CLEANUP_OLDER_THAN => raw.cleanup.older_than = Some(text),
            keys::TOML_CLEANUP_DELETE_MERGED => {
                raw.cleanup.delete_merged_branches = Some(git_bool(&text, at)?);
            }
            keys::TOML_CREATE_FETCH => raw.create.fetch = Some(git_bool(&text, at)?),
            keys::TOML_CLEANUP_PRE_COMMAND => raw.cleanup.pre_command = Some(text),
            keys::TOML_CLEANUP_RECYCLE => raw.cleanup.recycle = Some(git_bool(&text, at)?),
            keys::TOML_POOL_SIZE => raw.pool.size = Some(SizeValue::Text(text)),
            keys::TOML_CLEANUP_SALVAGE => raw.cleanup.salvage = Some(git_bool(&text, at)?),
            keys::TOML_CREATE_COPY => raw.create.copy = Some(items),
            keys::TOML_CREATE_POST_COMMAND => raw.create.post_command = Some(text),
            keys::TOML_CREATE_IGNORE_FILE => raw.create.ignore_file = Some(text),
            keys::TOML_CLAUDE_PATTERN => raw.claude.pattern = Some(text),
            keys::TOML_TRASH_KEEP => raw.trash.keep = Some(text),
            keys::TOML_POOL_KEEP => raw.pool.keep = Some(items),
            keys::TOML_LAND_GATE => raw.land.gate = Some(text),
            keys::TOML_LAND_STRATEGY => raw.land.strategy = Some(text),
            keys::TOML_LAND_INTO => raw.land.into = Some(text),
            keys::TOML_LAND_QUEUE_STATUS => raw.land.queue_status = Some(StatusValue::Csv(text)),
            keys::TOML_LAND_PUSH_RETRIES => raw.land.push_retries = Some(SizeValue::Text(text)),
            keys::TOML_NOTIFY_COMMAND => raw.notify.command = Some(text),
            other => unreachable!("a key without a raw field: {other}"),
        }
        Ok(raw)
    }
}
