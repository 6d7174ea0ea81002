use super::machine_name;
use crate::git::plumbing::{LeasedPush, read_leased};

#[test]
fn a_host_name_becomes_a_machine_name() {
    assert_eq!(machine_name("laptop\n"), "laptop");
    assert_eq!(machine_name("build-01.example.com"), "build-01.example.com");
    assert_eq!(machine_name("my box"), "my-box");
    assert_eq!(machine_name("..x.."), "x");
    assert_eq!(machine_name("a.lock"), "unnamed");
    assert_eq!(machine_name(""), "unnamed");
    assert_eq!(machine_name("\u{1b}[2J"), "2J");
}

const REF: &str = "refs/loop/claims/t";

fn line(flag: &str, summary: &str) -> String {
    format!("To ../r.git\n{flag}\tabc:{REF}\t{summary}\nDone\n")
}

#[test]
fn a_leased_push_that_went_through_is_done() {
    let out = line("*", "[new reference]");
    assert_eq!(read_leased(true, Some(0), &out, ""), LeasedPush::Done);
}

#[test]
fn a_stale_lease_or_a_lost_race_at_the_remote_is_stale() {
    for (summary, stderr) in [
        ("[rejected] (stale info)", ""),
        (
            "[remote rejected] (atomic transaction failed)",
            "remote: error: cannot lock ref 'refs/loop/claims/t': reference already exists\n",
        ),
        (
            "[remote rejected] (cannot lock ref 'refs/loop/claims/t')",
            "",
        ),
    ] {
        let got = read_leased(false, Some(1), &line("!", summary), stderr);
        assert!(
            matches!(&got, LeasedPush::Stale { refs, .. } if refs == &[REF.to_owned()]),
            "{summary}: {got:?}"
        );
    }
}

#[test]
fn any_other_refusal_or_no_answer_is_a_failure() {
    let got = read_leased(
        false,
        Some(1),
        &line("!", "[remote rejected] (pre-receive hook declined)"),
        "",
    );
    assert!(matches!(got, LeasedPush::Failed { .. }), "{got:?}");
    // An atomic transaction refused for another reason is no lost race.
    let got = read_leased(
        false,
        Some(1),
        &line("!", "[remote rejected] (atomic transaction failed)"),
        "remote: error: disk full\n",
    );
    assert!(matches!(got, LeasedPush::Failed { .. }), "{got:?}");
    let got = read_leased(
        false,
        Some(128),
        "",
        "fatal: unable to connect to 127.0.0.1:\n",
    );
    match got {
        LeasedPush::Failed { reason } => assert!(reason.contains("unable to connect"), "{reason}"),
        other => panic!("{other:?}"),
    }
}
