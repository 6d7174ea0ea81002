//! Where the zsh and fish scripts had drifted from the clap tree (and from
//! the bash script): each test fails on the scripts generated before the fix.

use super::{IDS, STATUSES, fish_completer, fixture, zsh_completer};

/// zsh completed file names for `git loop log` (its optional run id kept
/// clap_complete's `_default`); the repository's README was offered.
#[test]
fn zsh_offers_run_ids_for_git_loop_log() {
    let (repo, path) = fixture();
    let complete = zsh_completer(&repo, &path);
    assert_eq!(complete("git loop log "), IDS);
    assert_eq!(complete("git-loop log "), IDS);
}

/// fish offered run ids at any position of `mark` (so again after the id,
/// where the status goes), and none for `run` and `log`.
#[test]
fn fish_offers_statuses_after_mark_id_and_run_ids_for_run_and_log() {
    let (repo, path) = fixture();
    let complete = fish_completer(&repo, &path);
    assert_eq!(complete("git loop mark alpha "), STATUSES);
    assert_eq!(complete("git-loop mark alpha "), STATUSES);
    assert_eq!(complete("git loop --json mark -C . alpha "), STATUSES);
    assert_eq!(complete("git loop mark "), IDS);
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
        "--help",
        "--json",
        "--long",
        "--quiet",
        "--repo",
        "--salvaged",
        "--status",
    ];
    assert_eq!(zsh_completer(&repo, &path)("git loop list --"), flags);
    assert_eq!(fish_completer(&repo, &path)("git loop list --"), flags);
}
