//! What `git loop pool status | fill | drain` return: one report type, its
//! text and its JSON (shapes in the README's "Warm runs").

use serde::Serialize;

use crate::ops::pool::{Discarded, Drained, Filled, MemberState, Surveyed};
use crate::output::{Out, Report};

/// `pool status`, `pool fill` and `pool drain`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PoolReport {
    /// `"status"`, `"fill"` or `"drain"`.
    pub action: &'static str,
    /// `pool.size`: how many members `fill` prepares and `cleanup
    /// --recycle` keeps.
    pub size: usize,
    /// The members after the action.
    pub members: Vec<MemberState>,
    /// `fill`: the members it prepared.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub added: Option<Vec<MemberState>>,
    /// `drain`: the members it removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed: Option<Vec<MemberState>>,
    /// `drain`: the members it left, and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<Vec<Discarded>>,
    /// `fill`: members that failed their checks and were discarded (or left).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discarded: Option<Vec<Discarded>>,
}

impl From<Surveyed> for PoolReport {
    fn from(s: Surveyed) -> PoolReport {
        PoolReport {
            action: "status",
            size: s.size,
            members: s.members,
            added: None,
            removed: None,
            skipped: None,
            discarded: None,
        }
    }
}

impl From<Filled> for PoolReport {
    fn from(f: Filled) -> PoolReport {
        PoolReport {
            action: "fill",
            size: f.size,
            members: f.members,
            added: Some(f.added),
            removed: None,
            skipped: None,
            discarded: Some(f.discarded),
        }
    }
}

impl From<Drained> for PoolReport {
    fn from(d: Drained) -> PoolReport {
        PoolReport {
            action: "drain",
            size: d.size,
            members: d.members,
            added: None,
            removed: Some(d.removed),
            skipped: Some(d.skipped),
            discarded: None,
        }
    }
}

impl Report for PoolReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        let esc = |s: &str| crate::style::escape(s).into_owned();
        // Notes: `--quiet` silences them (they are escaped there).
        for d in self.discarded.iter().chain(&self.skipped).flatten() {
            out.note(format_args!("{}", d.line()));
        }
        for m in self.removed.iter().flatten() {
            out.note(format_args!("removed {}", m.path));
        }
        for m in self.added.iter().flatten() {
            out.note(format_args!("prepared {}", m.path));
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
