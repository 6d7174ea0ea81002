//! The raw shape of a layer: what a TOML file sets, as serde reads it (one
//! key's text from git config or the environment is read into it by
//! `super::text`'s `Raw::from_text`, which knows git's boolean
//! spellings). Nothing here is checked beyond its shape; the checks are
//! [`super::validate`]'s, on each layer on its own.

use serde::Deserialize;
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
    pub judge: RawJudge,
    #[serde(default)]
    pub notify: RawNotify,
    #[serde(default)]
    pub watch: RawWatch,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct RawLand {
    pub gate: Option<String>,
    pub strategy: Option<String>,
    pub into: Option<String>,
    pub queue_status: Option<StatusValue>,
    pub push_retries: Option<SizeValue>,
    pub require_clean: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawJudge {
    pub gate: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawNotify {
    pub command: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawWatch {
    pub bell: Option<bool>,
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
    pub ports: Option<SizeValue>,
    pub pattern: Option<String>,
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
