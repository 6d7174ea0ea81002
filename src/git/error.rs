//! [`CommandError`]: what a failed `git` invocation said — the git runner's
//! error type ([`super::cmd`], [`super::plumbing`]). A caller that gives up
//! on it turns it into the crate's [`Error::Git`] (its message, one line).

use crate::error::Error;

/// A failed `git` invocation: program arguments, exit status and stderr.
#[derive(Debug, Clone)]
pub struct CommandError {
    pub args: Vec<String>,
    pub status: Option<i32>,
    pub stderr: String,
}

impl CommandError {
    /// git's own explanation, without the `fatal: ` / `error: ` prefixes, on one line.
    pub fn reason(&self) -> String {
        let text: Vec<&str> = self
            .stderr
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(|l| {
                l.strip_prefix("fatal: ")
                    .or_else(|| l.strip_prefix("error: "))
                    .unwrap_or(l)
            })
            .collect();
        if text.is_empty() {
            match self.status {
                Some(code) => format!("git exited with status {code}"),
                None => "git was killed by a signal".to_owned(),
            }
        } else {
            text.join("; ")
        }
    }
}

impl std::fmt::Display for CommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`git {}` failed: {}", self.args.join(" "), self.reason())
    }
}

impl From<CommandError> for Error {
    fn from(failure: CommandError) -> Error {
        Error::Git(failure.to_string())
    }
}
