//! The longer help texts of some errors, written out by a function (they
//! depend on the error's fields).

pub(super) fn active_exists_help(id: &str, missing: bool) -> String {
    if missing {
        format!(
            "`git loop reconcile` drops runs whose directory is gone (their branch is kept); then `git loop create {id} --reuse` checks loop/{id} out again as it is, or pick another run id"
        )
    } else {
        format!(
            "use that worktree, or mark it finished first: git loop mark {id} rejected (or merged, escalated, stale)"
        )
    }
}

pub(super) fn branch_exists_help(branch: &str, racing: bool) -> String {
    if racing {
        "wait for it: `git loop list` shows the run once it is recorded. If no create is running, one was interrupted: `git loop reconcile` shows what it left".to_owned()
    } else {
        format!(
            "it is probably left from an earlier run of this id (cleanup keeps branches). Inspect it with `git log {branch}`; carry on from it with `--reuse` (checks it out as it is); delete it with `git branch -d {branch}` if its work is merged; or pick another run id"
        )
    }
}

pub(super) fn attempts_active_help(task: &str) -> String {
    format!(
        "judge and pick them (git loop judge {task}, then git loop pick <ID>), or mark them finished (git loop mark <ID>... rejected); or give the task another name"
    )
}

/// What to do about a repository format git-loop cannot read.
pub(super) fn unsupported_help(extension: &str, value: &str) -> String {
    match extension.to_ascii_lowercase().as_str() {
        // Read everywhere but in the bare-repository layout (`git::repo::discover`).
        "extensions.refstorage" if value.eq_ignore_ascii_case("reftable") => "nothing was changed; git-loop reads reftable refs in a repository with a work tree, not yet in the bare-repository layout, whose HEAD only git can read: use a clone with a work tree (`git clone <bare> <dir>`), or git itself here".to_owned(),
        "extensions.refstorage" => format!(
            "nothing was changed; git-loop reads files and reftable refs, not {value}: `git refs migrate --ref-format=files` (git 2.46 or later) converts this repository's refs from {value}, and `git refs migrate --ref-format={value}` converts them back"
        ),
        "extensions.objectformat" => format!(
            "nothing was changed; git-loop reads SHA-1 and SHA-256 repositories, not {value}, and git cannot convert one to another: use git itself here"
        ),
        _ => "nothing was changed; this extension may change what a ref or an object is, so git-loop does not guess: use git itself here".to_owned(),
    }
}

/// What to do about a worktree that cannot be adopted, in general.
pub fn adopt_help() -> String {
    "`git loop reconcile` lists the orphans; adopt only a worktree of this repository with loop/<id> checked out".to_owned()
}
