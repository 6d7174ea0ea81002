//! What `create` prints: the path on stdout (the human rendering), or the
//! entry and what was done to it (JSON). The progress lines on stderr are
//! the operation's own (`crate::ops::create`, said before the post-command
//! runs).

use serde::Serialize;

use crate::error::Failure;
use crate::manifest::Entry;
use crate::ops::create::{Created, Method, Upstream};
use crate::output::{Out, Report};

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct CreateReport {
    #[serde(flatten)]
    pub entry: Entry,
    /// With `--reuse`: `"reused"`, `"adopted"` or `"created"`; `"pooled"`
    /// when the worktree was taken from the pool.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<Method>,
    /// The base's upstream and how far the base is behind it (absent when
    /// the base has none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upstream: Option<Upstream>,
    /// With `create.copy`: what was copied into the new worktree.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub copy: Option<crate::copy::CopyReport>,
    /// With `create.post-command`: how it ended.
    #[serde(rename = "postCommand", skip_serializing_if = "Option::is_none")]
    pub post_command: Option<crate::configured_command::Ended>,
    /// With `create.ports` (or `--ports`): the TCP ports leased to the run,
    /// ascending; `GIT_LOOP_PORT` is the first. Absent when none were leased.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<u16>,
    /// Set when the post-command failed: the run exists, but is not set up.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Failure>,
    /// The worktree's absolute path, what the text output prints (absent
    /// when it is not UTF-8: JSON cannot hold it exactly; `path` is relative
    /// to the repository root).
    #[serde(rename = "absolutePath", skip_serializing_if = "Option::is_none")]
    pub absolute_path: Option<String>,
    #[serde(skip)]
    pub abs_path: std::path::PathBuf,
}

impl CreateReport {
    /// The report of what the operation did. `"method"` is said with
    /// `--reuse` (`reuse`), and for a run taken from the pool.
    pub fn new(created: Created, reuse: bool) -> CreateReport {
        let method = match created.method {
            Method::Pooled => Some(Method::Pooled),
            method => reuse.then_some(method),
        };
        CreateReport {
            entry: created.entry,
            method,
            upstream: created.upstream,
            copy: created.copy,
            post_command: created.post_command,
            ports: created.ports,
            error: created.error,
            absolute_path: created.abs_path.to_str().map(str::to_owned),
            abs_path: created.abs_path,
        }
    }
}

/// JSON: the report holds the entry's relative path (and relative names
/// of copied files), and the absolute worktree path only when it is UTF-8
/// (`absolutePath`, else absent), so it can be written whatever bytes the
/// repository's own path holds. That is why `create --json` needs no early
/// refusal of a root path that is not UTF-8: it cannot end as a created
/// run that the JSON output fails to report.
///
/// A failed post-command is said here, not through
/// [`Report::failed_part_way`]: `emit` would say it after this rendering,
/// so the help could not follow it, and would say it on stderr with
/// `--json` too, where create says it in the document only. The dispatch
/// exits 1 when [`CreateReport::error`] is set.
impl Report for CreateReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        // Byte for byte, so `cd "$(git loop create x --pattern p)"` works
        // whatever the path holds.
        crate::style::write_path_line(&mut *out.stdout, &self.abs_path)?;
        if let Some(e) = &self.error {
            writeln!(out.stderr, "error: {}", crate::style::escape(&e.message))?;
            writeln!(
                out.stderr,
                "  help: the run is recorded and its worktree kept as it is; fix it there, or mark the run rejected and clean it up"
            )?;
        }
        Ok(())
    }
}

/// `create <TASK> --attempts <N>`: the N paths, one a line (human), or the
/// N create documents in attempt order (JSON: an array). Every attempt was
/// made and set up, or none: a post-command that fails undoes them all, so
/// no entry carries an `error`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct AttemptsReport(pub Vec<CreateReport>);

impl AttemptsReport {
    pub fn new(created: Vec<Created>) -> AttemptsReport {
        AttemptsReport(
            created
                .into_iter()
                .map(|c| CreateReport::new(c, false))
                .collect(),
        )
    }
}

impl Report for AttemptsReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        for attempt in &self.0 {
            crate::style::write_path_line(&mut *out.stdout, &attempt.abs_path)?;
        }
        Ok(())
    }
}
