//! What `git loop pool status | fill | drain` return: one report type, its
//! text and its JSON (shapes in the README's "Warm runs").

use serde::Serialize;

use crate::output::{Out, Report};
use crate::worktree::SkipCode;

/// `pool status`, `pool fill` and `pool drain`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PoolReport {
    /// `"status"`, `"fill"` or `"drain"`.
    pub action: &'static str,
    /// `pool.size`: how many members `fill` prepares and `cleanup
    /// --recycle` keeps.
    pub size: usize,
    /// The members after the action.
    pub members: Vec<MemberReport>,
    /// `fill`: the members it prepared.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub added: Option<Vec<MemberReport>>,
    /// `drain`: the members it removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed: Option<Vec<MemberReport>>,
    /// `drain`: the members it left, and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<Vec<Discarded>>,
    /// `fill`: members that failed their checks and were discarded (or left).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discarded: Option<Vec<Discarded>>,
}

/// One member.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct MemberReport {
    pub name: String,
    pub path: String,
    /// The commit its HEAD is detached at (from its name).
    pub commit: Option<String>,
    /// `"ready"`, `"busy"` (claimed by a create, fill or drain right now) or
    /// `"unfit"` (fails its checks: the next create or fill discards it).
    pub state: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// A member that was discarded, or that drain left.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Discarded {
    pub name: String,
    pub path: String,
    /// Why it was discarded (or, for drain, left).
    pub reason: String,
    /// Whether its worktree was removed.
    pub removed: bool,
    /// Why it was left in place (git's or git-loop's refusal).
    #[serde(rename = "leftBecause", skip_serializing_if = "Option::is_none")]
    pub left_because: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<SkipCode>,
}

impl Discarded {
    /// The human line (also said by `create` on stderr).
    pub fn line(&self) -> String {
        match (&self.left_because, self.removed) {
            (_, true) => format!("discarded pool member {} ({})", self.path, self.reason),
            (Some(why), false) => format!(
                "left pool member {} ({}): it cannot be removed safely: {why}",
                self.path, self.reason
            ),
            (None, false) => format!("left pool member {} ({})", self.path, self.reason),
        }
    }
}

impl Report for PoolReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        let esc = |s: &str| crate::style::escape(s).into_owned();
        for d in self.discarded.iter().chain(&self.skipped).flatten() {
            writeln!(out.stderr, "{}", esc(&d.line()))?;
        }
        for m in self.removed.iter().flatten() {
            writeln!(out.stderr, "removed {}", esc(&m.path))?;
        }
        for m in self.added.iter().flatten() {
            writeln!(out.stderr, "prepared {}", esc(&m.path))?;
        }
        let ready = self.members.iter().filter(|m| m.state == "ready").count();
        writeln!(
            out.stdout,
            "pool: {} member{} ({ready} ready), pool.size {}",
            self.members.len(),
            if self.members.len() == 1 { "" } else { "s" },
            self.size
        )?;
        for m in &self.members {
            let commit = m.commit.as_deref().map_or("?", |c| &c[..c.len().min(12)]);
            let why = m
                .reason
                .as_deref()
                .map(|r| format!(": {r}"))
                .unwrap_or_default();
            writeln!(
                out.stdout,
                "  {:<6} {commit}  {}{}",
                m.state,
                esc(&m.path),
                esc(&why)
            )?;
        }
        Ok(())
    }
}
