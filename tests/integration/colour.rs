//! Colour on stdout follows `CLICOLOR_FORCE` (colour even when stdout is not
//! a terminal) and `NO_COLOR` (no colour, whatever else is set), as anstream
//! decides.

use crate::common::TestRepo;

fn list_with(repo: &TestRepo, envs: &[(&str, &str)], args: &[&str]) -> String {
    let mut cmd = repo.command();
    cmd.args(args);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let run = TestRepo::output(&mut cmd);
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.stdout
}

#[test]
fn clicolor_force_colours_a_pipe_and_no_color_wins() {
    let repo = TestRepo::new();
    repo.create("a");
    let piped = list_with(&repo, &[], &["list"]);
    assert!(!piped.contains('\x1b'), "{piped:?}");
    let forced = list_with(&repo, &[("CLICOLOR_FORCE", "1")], &["list"]);
    assert!(forced.contains("\x1b[1mID\x1b[0m"), "{forced:?}");
    assert!(forced.contains("\x1b[32mactive\x1b[0m"), "{forced:?}");
    // Colour codes do not count towards the padding: without them, the
    // table is the piped one.
    let stripped = forced
        .replace("\x1b[0m", "")
        .replace("\x1b[1m", "")
        .replace("\x1b[32m", "")
        .replace("\x1b[2m", "");
    assert_eq!(stripped, piped);
    let long = list_with(&repo, &[("CLICOLOR_FORCE", "1")], &["list", "--long"]);
    assert!(long.contains("\x1b[1mMERGED\x1b[0m"), "{long:?}");
    for envs in [
        &[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")][..],
        &[
            ("CLICOLOR_FORCE", "1"),
            ("CLICOLOR", "0"),
            ("NO_COLOR", "x"),
        ][..],
    ] {
        let plain = list_with(&repo, envs, &["list"]);
        assert_eq!(plain, piped, "{envs:?}");
        let plain = list_with(&repo, envs, &["list", "--long"]);
        assert!(!plain.contains('\x1b'), "{envs:?}: {plain:?}");
    }
    let json = list_with(&repo, &[("CLICOLOR_FORCE", "1")], &["--json", "list"]);
    assert!(!json.contains('\x1b'), "{json:?}");
}
