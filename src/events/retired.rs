//! The `branch-delete` event of the kernel's retirement of a branch
//! ([`crate::safety::retire`]): worded once, for land, cleanup and
//! `branches`. Written here rather than in the kernel, which knows nothing
//! of the log (the log depends on it for the codes).

use super::{Event, EventKind};

impl crate::safety::retire::Retired {
    /// The `branch-delete` event of a deletion (`None`: the branch was
    /// kept): its tip, its proof and base, and the trash ref that keeps it
    /// (`git loop trash restore <branch>` brings it back).
    pub fn event(&self) -> Option<Event> {
        let crate::safety::retire::Retired::Deleted {
            branch,
            base,
            tip,
            merged_by,
            trash_ref,
        } = self
        else {
            return None;
        };
        let id = crate::runid::of_branch(branch).unwrap_or(branch);
        let mut e = Event::new(EventKind::BranchDelete, id);
        let proof = match merged_by {
            Some(by) => format!("merged into {base}: {by}"),
            None => format!("no commits of its own; in {base}"),
        };
        e.detail = Some(format!(
            "branch {branch} deleted at {tip} ({proof}); kept as {trash_ref}"
        ));
        Some(e)
    }
}
