//! A member's checks, and the discard of one that fails them.

use std::fs;

use serde::Serialize;

use super::Member;
use crate::error::Result;
use crate::worktree::{Removal, Remover, SkipCode, remove_worktree};

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
    /// The human line (said by `pool` and, on stderr, by `create`).
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

/// Why `m` must not be used, or `None` when it is fit (see the parent
/// module's doc for the list). `remover` supplies the at-risk checks.
pub fn unfit(remover: &Remover<'_>, m: &Member) -> Result<Option<String>> {
    match fs::symlink_metadata(&m.abs) {
        Err(_) => return Ok(Some("its directory is missing".into())),
        Ok(meta) if !meta.is_dir() => {
            return Ok(Some("it is not a directory".into()));
        }
        Ok(_) => {}
    }
    if let Some(reason) = &m.wt.locked {
        return Ok(Some(if reason.is_empty() {
            "it is locked".into()
        } else {
            format!("it is locked: {reason}")
        }));
    }
    let dot_git = crate::fsx::read_regular(&m.abs.join(".git"), 4096)?
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .unwrap_or_default();
    let points_here = dot_git
        .strip_prefix("gitdir:")
        .map(|p| crate::git::repo::canonical_best_effort(std::path::Path::new(p.trim())))
        == Some(crate::git::repo::canonical_best_effort(&m.wt.admin_dir));
    if !points_here {
        return Ok(Some(
            "its .git file does not point to its registration".into(),
        ));
    }
    let Some(commit) = m.commit else {
        return Ok(Some("its name does not record a commit".into()));
    };
    if let Some(branch) = &m.wt.branch {
        return Ok(Some(format!("it has branch {branch} checked out")));
    }
    if m.wt.detached_head != Some(commit) {
        return Ok(Some(format!(
            "its HEAD is not at {}",
            commit.to_hex_with_len(12)
        )));
    }
    if let Some(skip) = remover.at_risk(&m.wt, &m.abs)?.skip() {
        return Ok(Some(skip.reason));
    }
    let c = crate::git::repo::cleanliness(&m.abs, &m.wt.admin_dir)?;
    Ok(if c.submodules {
        Some("it has submodules".into())
    } else if c.modified {
        Some("it has changes to tracked files".into())
    } else if c.untracked {
        Some("it has untracked files".into())
    } else {
        None
    })
}

/// Remove a member that failed its checks, with the usual rules (never
/// forced). Call under the worktree-operation lock, with `remover` read
/// under it. A member that cannot be removed safely is left, and the
/// outcome says why.
pub fn discard(remover: &mut Remover<'_>, m: &Member, why: String) -> Result<Discarded> {
    remover.registrations.insert(m.key(), m.wt.clone());
    let outcome = remove_worktree(remover, &m.key(), false)?;
    let (removed, left) = match outcome {
        Removal::Removed(_) => (true, None),
        Removal::Skipped(skip) => (false, Some(skip)),
    };
    Ok(Discarded {
        name: m.name.clone(),
        path: m.rel(),
        reason: why,
        removed,
        left_because: left.as_ref().map(|s| s.reason.clone()),
        code: left.map(|s| s.code),
    })
}
