//! Where the zsh and fish scripts had drifted from the clap tree (and from
//! the bash script): each test fails on the scripts generated before the fix.

use super::{IDS, IDS_AND_STATUSES, STATUSES_AND_BETA, fish_completer, fixture, zsh_completer};

/// zsh completed file names for `git loop log` (its optional run id kept
/// clap_complete's `_default`); the repository's README was offered.
#[test]
fn zsh_offers_run_ids_for_git_loop_log() {
    let (repo, path) = fixture();
    let complete = zsh_completer(&repo, &path);
    assert_eq!(complete("git loop log "), IDS);
    assert_eq!(complete("git-loop log "), IDS);
}

/// fish offered run ids at any position of `mark` and never a status, and
/// none for `run` and `log`. `mark` takes several run ids, then a status:
/// after the first id, both (but never an id already typed).
#[test]
fn fish_offers_statuses_after_mark_id_and_run_ids_for_run_and_log() {
    let (repo, path) = fixture();
    let complete = fish_completer(&repo, &path);
    assert_eq!(complete("git loop mark alpha "), STATUSES_AND_BETA);
    assert_eq!(complete("git-loop mark alpha "), STATUSES_AND_BETA);
    assert_eq!(
        complete("git loop --json mark -C . alpha "),
        STATUSES_AND_BETA
    );
    // Neither id again.
    assert_eq!(
        complete("git loop mark alpha beta "),
        ["active", "escalated", "merged", "rejected", "stale"]
    );
    assert_eq!(complete("git loop mark "), IDS_AND_STATUSES);
    assert_eq!(complete("git loop run "), IDS);
    assert_eq!(complete("git loop log "), IDS);
    assert_eq!(complete("git-loop run "), IDS);
    assert_eq!(complete("git-loop log "), IDS);
}

/// The hidden `list --ids` (for the scripts' own use) was offered by zsh and
/// fish; bash never offered it.
#[test]
fn zsh_and_fish_do_not_offer_the_hidden_ids_flag() {
    let (repo, path) = fixture();
    let flags = [
        "--color",
        "--disk",
        "--fleet",
        "--help",
        "--json",
        "--long",
        "--quiet",
        "--repo",
        "--salvaged",
        "--status",
        "--task",
    ];
    assert_eq!(zsh_completer(&repo, &path)("git loop list --"), flags);
    assert_eq!(fish_completer(&repo, &path)("git loop list --"), flags);
}
