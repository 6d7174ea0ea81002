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

/// What git's refusal of a two-tree `read-tree -m -u` says (see
/// [`super::plumbing::read_tree_two_way`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReadTreeRefusal {
    /// The paths git names as in the way, in git's order, each once: a
    /// local change (staged: "would be overwritten by merge", unstaged:
    /// "not uptodate"), an untracked file ("Untracked working tree file …
    /// would be overwritten / removed"), a directory holding untracked
    /// files ("Updating … would lose untracked files in it").
    pub paths: Vec<String>,
    /// Some path was "not uptodate": perhaps only its cached stat is stale
    /// (a file touched, its content unchanged), which an index refresh
    /// settles.
    pub stale: bool,
    /// The index has unmerged entries ("You need to resolve your current
    /// index first"): a conflict left unresolved.
    pub unmerged: bool,
}

/// Read git's refusal of a two-tree `read-tree -m -u` (stderr, `LC_ALL=C`).
/// A path is what git quotes between the first `'` and the last one before
/// its own words, so a path holding `'` reads whole.
pub fn read_tree(stderr: &str) -> ReadTreeRefusal {
    const SHAPES: [(&str, &str, bool); 5] = [
        ("Entry '", "' not uptodate. Cannot merge.", true),
        (
            "Entry '",
            "' would be overwritten by merge. Cannot merge.",
            false,
        ),
        (
            "Untracked working tree file '",
            "' would be overwritten by merge.",
            false,
        ),
        (
            "Untracked working tree file '",
            "' would be removed by merge.",
            false,
        ),
        ("Updating '", "' would lose untracked files in it", false),
    ];
    let mut out = ReadTreeRefusal::default();
    for line in stderr.lines() {
        let line = line.trim_end();
        let line = line
            .strip_prefix("error: ")
            .or_else(|| line.strip_prefix("fatal: "))
            .unwrap_or(line);
        if line.contains("resolve your current index first") {
            out.unmerged = true;
        }
        for (head, tail, stale) in SHAPES {
            let Some(path) = line.strip_prefix(head).and_then(|l| l.strip_suffix(tail)) else {
                continue;
            };
            out.stale |= stale;
            if !out.paths.iter().any(|p| p == path) {
                out.paths.push(path.to_owned());
            }
            break;
        }
    }
    out
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

    #[test]
    fn read_tree_refusals_name_their_paths() {
        let stderr = "error: Entry 'a' not uptodate. Cannot merge.\n\
                      error: Entry 'it's here' would be overwritten by merge. Cannot merge.\n\
                      error: Untracked working tree file 'd/new' would be overwritten by merge.\n\
                      error: Updating 'dir' would lose untracked files in it\n\
                      error: Entry 'a' not uptodate. Cannot merge.\n";
        let got = read_tree(stderr);
        assert_eq!(got.paths, ["a", "it's here", "d/new", "dir"]);
        assert!(got.stale && !got.unmerged);
        let got = read_tree("fatal: You need to resolve your current index first\n");
        assert!(got.unmerged && got.paths.is_empty());
    }
}
