//! One key's text, as git config or the environment spells it, read into
//! the raw shape of a layer ([`Raw`]); checked afterwards by
//! [`super::validate`] like a TOML file's values.

use super::keys::{self, Key};
use super::raw::{Raw, SizeValue, StatusValue};
use super::validate::{At, git_bool};
use crate::error::Result;

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
            keys::TOML_CREATE_PATTERN => raw.create.pattern = Some(text),
            keys::TOML_CLAUDE_PATTERN => raw.claude.pattern = Some(text),
            keys::TOML_TRASH_KEEP => raw.trash.keep = Some(text),
            keys::TOML_POOL_KEEP => raw.pool.keep = Some(items),
            keys::TOML_LAND_GATE => raw.land.gate = Some(text),
            keys::TOML_LAND_STRATEGY => raw.land.strategy = Some(text),
            keys::TOML_LAND_INTO => raw.land.into = Some(text),
            keys::TOML_LAND_QUEUE_STATUS => raw.land.queue_status = Some(StatusValue::Csv(text)),
            keys::TOML_LAND_PUSH_RETRIES => raw.land.push_retries = Some(SizeValue::Text(text)),
            keys::TOML_LAND_REQUIRE_CLEAN => raw.land.require_clean = Some(git_bool(&text, at)?),
            keys::TOML_JUDGE_GATE => raw.judge.gate = Some(text),
            keys::TOML_NOTIFY_COMMAND => raw.notify.command = Some(text),
            keys::TOML_CREATE_PORTS => raw.create.ports = Some(SizeValue::Text(text)),
            keys::TOML_WATCH_BELL => raw.watch.bell = Some(git_bool(&text, at)?),
            other => unreachable!("a key without a raw field: {other}"),
        }
        Ok(raw)
    }
}
