//! git's refusal texts, read in one place (`LC_ALL=C` is set for every git
//! git-loop runs, so the English text is stable).

/// What git's refusal of `git worktree remove` says, in kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// "contains modified or untracked files": git says the same for both.
    ModifiedOrUntracked,
    Locked,
    Submodules,
    Other,
}

/// The machine code for git's own refusal text (`git worktree remove`):
/// printed in JSON beside it (`"code"`) and used by summaries ("skipped 2
/// (dirty)"). git's message for modified and for untracked files is the same,
/// so both read as `dirty` here; the caller tells them apart with gix.
/// Skips git-loop decides itself carry their code from where they are made.
///
/// Only git's own words are matched: what git quotes (`'<path>'`, which holds
/// the run id: a run named `locked` must not read as locked) and the user's
/// lock reason (after `lock reason:`) are cut out first ([`gits_words`]).
pub(crate) fn classify(reason: &str) -> Refusal {
    let words = gits_words(reason);
    if words.contains("cannot remove a locked working tree") {
        Refusal::Locked
    } else if words.contains("modified or untracked") {
        Refusal::ModifiedOrUntracked
    } else if words.contains("submodule") {
        Refusal::Submodules
    } else {
        Refusal::Other
    }
}

/// `reason` without what git quotes between `'`s (paths, holding the run id)
/// and without the user's text after `lock reason:`.
fn gits_words(reason: &str) -> String {
    let reason = reason
        .split_once("lock reason:")
        .map_or(reason, |(before, _)| before);
    reason
        .split('\'')
        .enumerate()
        .filter(|(i, _)| i % 2 == 0)
        .map(|(_, part)| part)
        .collect::<Vec<_>>()
        .join("''")
}

/// git's refusal without its advice to force ("…, use --force to delete
/// it", "; use 'remove -f -f' to override or unlock first"): git-loop never
/// forces, so neither its human output nor its event log repeats it.
pub fn without_force_advice(reason: &str) -> &str {
    let cut = ["use --force", "use 'remove -f -f'", "; use"]
        .iter()
        .filter_map(|m| reason.find(m))
        .min()
        .unwrap_or(reason.len());
    reason[..cut].trim_end_matches([',', ';', ' '])
}

/// git 2.47 fails a `worktree remove` or `add` when another one deletes or
/// creates an entry of `.git/worktrees/` while it reads them ("Invalid path
/// '…/.git/worktrees/x'", "failed to read .git/worktrees/x/commondir"). Such
/// a failure says nothing about the worktree being removed.
pub fn is_transient(stderr: &str) -> bool {
    stderr.contains("/worktrees/")
        && (stderr.contains("Invalid path")
            || stderr.contains("failed to read")
            || stderr.contains("No such file or directory"))
}

/// Whether a refusal may be a leftover git-loop can finish
/// ([`crate::worktree::leftover`]): git saw changes (a never-checked-out or
/// half-deleted worktree looks modified), or could not validate it (`'.git'
/// does not exist`, `validation failed`).
pub(crate) fn may_be_leftover(kind: Refusal, reason: &str) -> bool {
    kind == Refusal::ModifiedOrUntracked
        || reason.contains("'.git' does not exist")
        || gits_words(reason).contains("validation failed")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_in_a_quoted_path_is_not_gits_words() {
        let cases = [
            (
                "'.loop-worktrees/locked' contains modified or untracked files, use --force to delete it",
                Refusal::ModifiedOrUntracked,
            ),
            (
                "failed to delete '/r/.loop-worktrees/locked': Operation not permitted",
                Refusal::Other,
            ),
            (
                "validation failed, cannot remove working tree: '/r/.loop-worktrees/locked/.git' does not exist",
                Refusal::Other,
            ),
            ("'/r/.loop-worktrees/submodule' is dirty", Refusal::Other),
            (
                "cannot remove a locked working tree, lock reason: modified or untracked files galore; use 'remove -f -f' to override or unlock first",
                Refusal::Locked,
            ),
            (
                "cannot remove a locked working tree; use 'remove -f -f' to override or unlock first",
                Refusal::Locked,
            ),
            (
                "working trees containing submodules cannot be moved or removed",
                Refusal::Submodules,
            ),
        ];
        for (text, kind) in cases {
            assert_eq!(classify(text), kind, "{text}");
        }
    }
}
