//! What a command that failed part way says beside what it did.

use super::Error;

/// A failure part way through a command that already changed things: the
/// report still lists what was done, with this beside it, and the command
/// exits 1 (the shape of every JSON failure: `{"code","message"}`).
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct Failure {
    pub code: &'static str,
    pub message: String,
    /// The error's help, for the human diagnostic (not in the JSON, whose
    /// failure shape is `{"code","message"}`).
    #[serde(skip)]
    #[schemars(skip)]
    pub help: Option<String>,
}

impl From<&Error> for Failure {
    fn from(e: &Error) -> Failure {
        Failure {
            code: e.code(),
            message: e.to_string(),
            help: miette::Diagnostic::help(e).map(|h| h.to_string()),
        }
    }
}
