//! The ways to build an [`Error`] that take more than its fields: one with
//! a config layer's help added, the unknown-id refusal with its suggestion,
//! an I/O failure naming its path.

use std::path::PathBuf;

use super::{Error, suggest};

impl Error {
    /// The same error with `help` saying where to fix it (an invalid value
    /// from a config layer).
    pub fn with_help(self, text: String) -> Self {
        match self {
            Error::InvalidStatus { value, origin, .. } => Error::InvalidStatus {
                value,
                origin,
                help: Some(text),
            },
            Error::InvalidCutoff { value, origin, .. } => Error::InvalidCutoff {
                value,
                origin,
                help: Some(text),
            },
            Error::Config {
                origin, message, ..
            } => Error::Config {
                origin,
                message,
                help: text,
            },
            other => other,
        }
    }

    /// `id` is not in the manifest whose ids are `known`: the refusal, with
    /// the recorded id it was probably meant to be.
    pub fn unknown_id<'a>(id: &str, known: impl IntoIterator<Item = &'a str>) -> Self {
        Error::UnknownId {
            id: id.to_owned(),
            suggestion: suggest::did_you_mean(id, known),
        }
    }

    pub fn io(action: &'static str, path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            action,
            path: path.into(),
            source,
        }
    }
}
