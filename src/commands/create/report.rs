//! What `create` returns and how it is said: the path on stdout (the report's
//! human rendering), the progress lines on stderr ([`CreateReport::say_done`],
//! said by `create` itself before the post-command runs).

use serde::Serialize;

use crate::manifest::Entry;
use crate::output::{Out, Report};

#[derive(Debug, Serialize)]
pub struct CreateReport {
    #[serde(flatten)]
    pub entry: Entry,
    /// With `--reuse`: `"reused"` or `"created"`; `"pooled"` when the
    /// worktree was taken from the pool.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<Method>,
    /// With `create.copy`: what was copied into the new worktree.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub copy: Option<crate::copy::CopyReport>,
    /// With `create.post-command`: how it ended.
    #[serde(rename = "postCommand", skip_serializing_if = "Option::is_none")]
    pub post_command: Option<crate::hooks::HookOutcome>,
    /// Set when the post-command failed: the run exists, but is not set up.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<FailedHook>,
    #[serde(skip)]
    pub abs_path: std::path::PathBuf,
}

/// The `"error"` of a create whose post-command failed (the shape of every
/// JSON failure, beside the entry that was created).
#[derive(Debug, Serialize)]
pub struct FailedHook {
    pub code: &'static str,
    pub message: String,
}

/// JSON: the report holds only the entry's relative path (and relative
/// names of copied files), never the absolute worktree path, so it can be
/// written whatever bytes the repository's own path holds. That is why
/// `create --json` needs no early refusal of a root path that is not UTF-8:
/// it cannot end as a created run that the JSON output fails to report. (If
/// an absolute path is ever added here, check its representability before
/// the run is created, not in `check_json`.)
impl Report for CreateReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        // Byte for byte, so `cd "$(git loop create x --pattern p)"` works
        // whatever the path holds.
        crate::style::write_path_line(&mut *out.stdout, &self.abs_path)?;
        if let Some(e) = &self.error {
            writeln!(
                out.stderr,
                "git-loop: error: {}",
                crate::style::escape(&e.message)
            )?;
            writeln!(
                out.stderr,
                "  help: the run is recorded and its worktree kept as it is; fix it there, or mark the run rejected and clean it up"
            )?;
        }
        Ok(())
    }
}

impl CreateReport {
    /// The progress lines of a human create: what was made (or reused) and
    /// copied. Said by [`super::run`] as soon as the work is done — before the
    /// post-command runs, so they precede its output on the shared stderr —
    /// not by [`Report::human`], which runs after it. Not with `--json`.
    pub(super) fn say_done(&self, out: &mut Out<'_>) {
        if out.json {
            return;
        }
        if self.method == Some(Method::Reused) {
            out.note(format_args!(
                "reusing {} (active since {})",
                self.entry.path(),
                self.entry.created_at.0
            ));
            return;
        }
        if let Some(copy) = &self.copy {
            if !copy.copied.is_empty() {
                out.note(format_args!(
                    "copied {} file{} (create.copy): {}",
                    copy.copied.len(),
                    if copy.copied.len() == 1 { "" } else { "s" },
                    copy.copied.join(", ")
                ));
            }
            for s in &copy.skipped {
                out.note(format_args!("not copied {}: {}", s.path, s.reason));
            }
        }
        out.note(format_args!(
            "created {} on branch {} from {}",
            self.entry.path(),
            self.entry.branch(),
            self.entry.base_branch
        ));
    }
}

/// How `create --reuse` got its run (`"method"` in JSON).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// A new worktree was checked out.
    Created,
    /// An intact active run was handed back unchanged.
    Reused,
    /// A prepared worktree was taken from the pool (`git loop pool`).
    Pooled,
}
