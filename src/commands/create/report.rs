//! What `create` returns and how it is said: the path on stdout (the report's
//! human rendering), the progress lines on stderr ([`CreateReport::say_done`],
//! said by `create` itself before the post-command runs).

use serde::Serialize;

use crate::manifest::Entry;
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
    pub upstream: Option<super::Upstream>,
    /// With `create.copy`: what was copied into the new worktree.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub copy: Option<crate::copy::CopyReport>,
    /// With `create.post-command`: how it ended.
    #[serde(rename = "postCommand", skip_serializing_if = "Option::is_none")]
    pub post_command: Option<crate::configured_command::Outcome>,
    /// Set when the post-command failed: the run exists, but is not set up.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<FailedHook>,
    #[serde(skip)]
    pub abs_path: std::path::PathBuf,
}

/// The `"error"` of a create whose post-command failed (the shape of every
/// JSON failure, beside the entry that was created).
#[derive(Debug, Serialize, schemars::JsonSchema)]
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
            copy_summary(copy, out);
        }
        if self.method == Some(Method::Adopted) {
            out.note(format_args!(
                "adopted the existing branch {} into {} (base {})",
                self.entry.branch(),
                self.entry.path(),
                self.entry.base_branch
            ));
            return;
        }
        out.note(format_args!(
            "created {} on branch {} from {}",
            self.entry.path(),
            self.entry.branch(),
            self.entry.base_branch
        ));
    }
}

/// How many skipped paths a human create names one by one (`--json` lists
/// them all).
const SKIPS_SHOWN: usize = 3;

/// One line for what was copied — count, size, how (reflinked or copied),
/// time — never the list of files (`--json` has it; a `node_modules/` is
/// thousands of paths). Then the first few paths not copied, and how many
/// more there are.
fn copy_summary(copy: &crate::copy::CopyReport, out: &mut Out<'_>) {
    let files = copy.copied.len();
    if files > 0 {
        let mut how = Vec::new();
        if copy.reflinked > 0 {
            how.push(format!("{} reflinked", copy.reflinked));
        }
        if copy.plain > 0 {
            how.push(format!("{} copied", copy.plain));
        }
        if copy.symlinks > 0 {
            how.push(format!(
                "{} symlink{}",
                copy.symlinks,
                if copy.symlinks == 1 { "" } else { "s" }
            ));
        }
        out.note(format_args!(
            "copied {files} file{} ({}): {}, {}, in {} ms",
            if files == 1 { "" } else { "s" },
            copy.sources.join(", "),
            human_bytes(copy.bytes),
            how.join(", "),
            copy.elapsed_ms
        ));
    }
    for s in copy.skipped.iter().take(SKIPS_SHOWN) {
        out.note(format_args!("not copied {}: {}", s.path, s.reason));
    }
    if copy.skipped.len() > SKIPS_SHOWN {
        out.note(format_args!(
            "not copied: {} more (--json lists them)",
            copy.skipped.len() - SKIPS_SHOWN
        ));
    }
}

/// `512 B`, `1.5 KiB`, `200.0 MiB`, `1.2 GiB`.
fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// How `create --reuse` got its run (`"method"` in JSON).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// A new worktree was checked out.
    Created,
    /// An intact active run was handed back unchanged.
    Reused,
    /// An existing `loop/<id>` with no worktree was checked out as it is.
    Adopted,
    /// A prepared worktree was taken from the pool (`git loop pool`).
    Pooled,
}
