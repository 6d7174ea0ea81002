//! The raw shape of a layer: each setting's value as read, before it is
//! checked — what serde reads from a TOML file (its shape only), or one
//! key's text from git config or the environment read by [`Read`], which
//! knows git's boolean spellings. A layer's raw values are `keys::Raw`, a
//! field per setting of the table; the checks are [`super::validate`]'s, on
//! each layer on its own.

pub use super::types::{SizeValue, StatusValue};
use super::validate::{At, git_bool};
use crate::error::Result;

/// How a setting's raw value is read: from TOML through serde (its shape
/// only), or from one key's text as git config or the environment spells
/// it (`items`: a list's items, git's multivar values or the variable's
/// comma-separated parts).
pub trait Read: serde::de::DeserializeOwned {
    fn from_text(text: String, items: Vec<String>, at: &At<'_>) -> Result<Self>;

    /// The value as one text, when it is one (a command's).
    fn as_text(&self) -> Option<&str> {
        None
    }
}

impl Read for String {
    fn from_text(text: String, _: Vec<String>, _: &At<'_>) -> Result<String> {
        Ok(text)
    }

    fn as_text(&self) -> Option<&str> {
        Some(self)
    }
}

/// A boolean in git's spellings.
impl Read for bool {
    fn from_text(text: String, _: Vec<String>, at: &At<'_>) -> Result<bool> {
        git_bool(&text, at)
    }
}

/// A list: its items.
impl Read for Vec<String> {
    fn from_text(_: String, items: Vec<String>, _: &At<'_>) -> Result<Vec<String>> {
        Ok(items)
    }
}

impl Read for SizeValue {
    fn from_text(text: String, _: Vec<String>, _: &At<'_>) -> Result<SizeValue> {
        Ok(SizeValue::Text(text))
    }
}

impl Read for StatusValue {
    fn from_text(text: String, _: Vec<String>, _: &At<'_>) -> Result<StatusValue> {
        Ok(StatusValue::Csv(text))
    }
}
