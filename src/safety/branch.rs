//! May this branch be deleted? The one merged verdict, with its guards.
//!
//! [`judge`] is what `list --long`, `mark --detect-merged`, `branches` and
//! `cleanup --delete-merged-branches` all ask. Its guards, in order:
//! 1. the base must be **stable**: a full commit id (40 hex digits, 64 in
//!    a SHA-256 repository), or a name that git
//!    resolves to a ref under `refs/` (`main`, `origin/main`, `v1.0`,
//!    `refs/heads/main`). An expression (`HEAD`, `HEAD~2`, `:/message`,
//!    `@{-1}`, `main^`) is resolved again at every check and may by then
//!    name the run's own tip (the main checkout detached at `loop/x`, a
//!    message the run's own commit matches): it proves nothing. `create`
//!    records such a base as the commit it resolved to (see
//!    `ops::base`), so only runs recorded by older versions
//!    meet this guard.
//! 2. the base must not be read through the branch itself (`loop/x`, a
//!    symbolic ref to it): a branch is never merged into itself;
//! 3. the base must resolve.
//!
//! Then [`crate::git::merged::Detector`] gives the verdict. Only two deletes:
//! `Merged(by)` — the strongest proof: the tip is an ancestor of the base,
//! or merging the branch's whole change into the base changes nothing (with
//! git's own text merge) — and `Empty` with the tip contained in the base
//! (no commits of its own). An `Empty` branch whose tip is not in the base
//! (made at another branch's tip, holding its commits) is judged as its tip:
//! deleted only on `Merged` for that tip ([`Judged::tip_merged`]), the very
//! proof that deletes the branch that made those commits, so the branches
//! at one tip share one verdict. Anything else (a patch-id likeness, a verdict
//! that could not be computed) keeps the branch.
//!
//! [`super::retire`] (the one deletion) keeps the tip under
//! `refs/loop/trash/` (see [`super::trash`]) before the compare-and-swap
//! delete at the exact tip judged, so even a wrong proof loses nothing for
//! `trash.keep`: `git loop trash restore <branch>` brings it back.
//!
//! `GIT_LOOP_TEST_FORCE_MERGED=1` (tests only, see [`crate::crash`]) makes
//! every verdict "merged", to show that a wrong proof is recoverable.

use gix::ObjectId;

use crate::error::Result;
use crate::git::merged::{Detector, MergedBy, Verdict, base_reads_branch, branch_start};

/// What [`judge`] found.
#[derive(Debug, Clone)]
pub struct Judged {
    /// The detector's verdict; `None` when a guard stopped it (see `guard`).
    pub verdict: Option<Verdict>,
    /// Why no verdict could be proof (a guard), if one stopped it.
    pub guard: Option<String>,
    /// Whether the branch may be deleted: the strongest proof holds.
    pub deletable: bool,
    /// An empty branch whose tip is not in the base (made at another
    /// branch's tip: it holds that branch's commits): the tip's own proof,
    /// when it is proven merged. The same proof, at the same tip, that
    /// deletes the branch that made those commits, so it deletes this one
    /// too: one tip, one verdict.
    pub tip_merged: Option<MergedBy>,
}

impl Judged {
    fn guarded(why: String) -> Judged {
        Judged {
            verdict: None,
            guard: Some(why),
            deletable: false,
            tip_merged: None,
        }
    }

    /// How the work is in the base, when it was proven (`None` for an
    /// empty branch and for anything not proven).
    pub fn merged_by(&self) -> Option<MergedBy> {
        self.verdict.and_then(Verdict::merged_by)
    }

    /// The proof a deletion rests on: the branch's own, or its tip's
    /// ([`Judged::tip_merged`]); `None` for an empty branch in its base.
    pub fn proof(&self) -> Option<MergedBy> {
        self.merged_by().or(self.tip_merged)
    }
}

/// Names git resolves to something outside `refs/` (or that move by
/// themselves): never a stable base.
fn pseudo_ref(name: &str) -> bool {
    let name = name.trim();
    name == "@"
        || name.bytes().all(|b| b.is_ascii_uppercase() || b == b'_') && name.ends_with("HEAD")
}

/// Whether `spec` names its commit stably: a full commit id in the
/// repository's object format, or a plain
/// name git resolves to a ref below `refs/` (see the module doc).
pub fn stable_base(repo: &gix::Repository, spec: &str) -> bool {
    if spec.len() == repo.object_hash().len_in_hex() && spec.bytes().all(|b| b.is_ascii_hexdigit())
    {
        return true;
    }
    if pseudo_ref(spec) || spec.starts_with('-') {
        return false;
    }
    crate::git::refs::dwim_name(repo, spec).is_some_and(|name| name.starts_with("refs/"))
}

/// The merged verdict of `branch` at `tip` against `base_spec`, with the
/// guards (see the module doc).
pub fn judge(
    repo: &gix::Repository,
    detector: &mut Detector<'_>,
    branch: &str,
    tip: ObjectId,
    base_spec: &str,
) -> Result<Judged> {
    if !stable_base(repo, base_spec) {
        return Ok(Judged::guarded(format!(
            "its base {base_spec:?} is an expression git resolves anew each time (it may name {branch} itself): no proof"
        )));
    }
    if base_reads_branch(repo, base_spec, branch) {
        return Ok(Judged::guarded(format!(
            "its base {base_spec:?} is {branch} itself"
        )));
    }
    let base = crate::git::refs::resolve_commit(repo, base_spec);
    let Some(base) = base else {
        return Ok(Judged::guarded(format!(
            "its base {base_spec:?} no longer resolves"
        )));
    };
    if crate::crash::force_merged() {
        return Ok(Judged {
            verdict: Some(Verdict::Merged(MergedBy::Squash)),
            guard: None,
            deletable: true,
            tip_merged: None,
        });
    }
    let verdict = detector.check(tip, base, branch_start(repo, branch))?;
    let in_base = || {
        tip == base
            || repo
                .merge_base(tip, base)
                .ok()
                .flatten()
                .is_some_and(|b| b.detach() == tip)
    };
    let (deletable, tip_merged) = match verdict {
        Verdict::Merged(_) => (true, None),
        Verdict::Empty if in_base() => (true, None),
        // Judged as its tip (no start: as the branch that made its commits
        // is judged); only a proof deletes it.
        Verdict::Empty => match detector.check(tip, base, None)? {
            Verdict::Merged(by) => (true, Some(by)),
            _ => (false, None),
        },
        _ => (false, None),
    };
    Ok(Judged {
        verdict: Some(verdict),
        guard: None,
        deletable,
        tip_merged,
    })
}
