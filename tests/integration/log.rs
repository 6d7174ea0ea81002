//! `log` and the event log (`.loop-worktrees/events.jsonl`): every mutation
//! recorded, never repaired; an unknown id said so; fixed-width times.

use std::fs;

use crate::common::{JsonExt, TestRepo};

/// `log <id>` with no event naming the id says so on stderr (exit 0: an
/// empty history is an answer).
#[test]
fn log_of_an_unknown_id_says_so() {
    let repo = TestRepo::new();
    repo.create("a");
    let run = repo.run(["log", "nope"]);
    run.ok();
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.contains("no event") && run.stderr.contains("\"nope\""),
        "{}",
        run.stderr
    );
    let run = repo.run(["--json", "log", "nope"]);
    run.ok();
    assert_eq!(run.json()["events"], serde_json::json!([]));
    assert_eq!(repo.run(["log", "a"]).stderr, "");
}

/// `log` prints every time at one width, to the second.
#[test]
fn log_times_have_a_fixed_width() {
    let repo = TestRepo::new();
    let at = |now: &str, args: &[&str]| {
        TestRepo::output(repo.command().env("GIT_LOOP_TEST_NOW", now).args(args)).ok();
    };
    at(
        "2026-11-30T19:30:50.123456789Z",
        &["create", "a", "--pattern", "p"],
    );
    at("2026-11-30T19:31:00Z", &["mark", "a", "merged"]);
    let run = repo.run(["log"]);
    run.ok();
    let times: Vec<&str> = run
        .stdout
        .lines()
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(
        times,
        ["2026-11-30T19:30:50Z", "2026-11-30T19:31:00Z"],
        "{}",
        run.stdout
    );
    // JSON keeps the time as stored.
    let v = repo.run(["--json", "log"]).json();
    assert_eq!(v["events"][0]["at"], "2026-11-30T19:30:50.123456789Z");
}

#[test]
fn event_log_records_every_mutation_and_never_repairs() {
    let repo = TestRepo::new();
    repo.create("a");
    repo.create("b");
    repo.run(["mark", "a", "rejected"]).ok();
    repo.run(["mark", "b", "rejected"]).ok();
    fs::write(repo.wt("b").join("wip"), "x").unwrap();
    repo.run(["cleanup"]).ok();
    repo.run(["create", "b", "--pattern", "p", "--reuse"])
        .code(1); // b is rejected: branch exists
    repo.run(["mark", "b", "active"]).ok();
    repo.run(["create", "b", "--pattern", "p", "--reuse"]).ok();

    let v = repo.run(["--json", "log"]).json();
    let kinds: Vec<String> = v
        .arr("events")
        .iter()
        .map(|e| format!("{} {}", e.text("event"), e.text("id")))
        .collect();
    assert_eq!(
        kinds,
        [
            "create a", "create b", "mark a", "mark b", "remove a", "skip b", "mark b", "reuse b"
        ],
        "{v}"
    );
    let mark = &v["events"][2];
    assert_eq!(
        (mark["from"].as_str(), mark["to"].as_str()),
        (Some("active"), Some("rejected"))
    );
    assert_eq!(v["events"][5]["code"], "untracked");
    assert!(v["events"][0].text("at").ends_with('Z'));

    // One run's events, as text.
    let only_a = repo.run(["log", "a"]);
    only_a.ok();
    assert_eq!(only_a.stdout.lines().count(), 3, "{}", only_a.stdout);
    assert!(only_a.stdout.contains("active -> rejected"));

    // A line cut short by a crash is reported and skipped, and left as it is.
    let log = repo.loop_dir().join("events.jsonl");
    let mut text = fs::read_to_string(&log).unwrap();
    text.push_str("{\"at\":\"2026-01-01T00:00:00Z\",\"ev");
    fs::write(&log, &text).unwrap();
    let run = repo.run(["--json", "log"]);
    run.ok();
    assert_eq!(run.json()["malformedLines"], serde_json::json!([9]));
    assert_eq!(run.json().arr("events").len(), 8);
    assert!(run.stderr.contains("line 9"), "{}", run.stderr);
    assert_eq!(fs::read_to_string(&log).unwrap(), text, "never rewritten");
    // Appending goes on after it.
    repo.run(["mark", "a", "merged"]).code(1); // a was removed from the manifest
    repo.run(["mark", "b", "merged"]).ok();
    assert!(fs::read_to_string(&log).unwrap().starts_with(&text));
    // No log yet: nothing, and nothing created.
    let fresh = TestRepo::new();
    assert_eq!(
        fresh.run(["--json", "log"]).json()["events"],
        serde_json::json!([])
    );
    assert!(!fresh.loop_dir().exists());
}

/// `-n <N>` keeps the newest N events, still oldest first; `--since <AGE>`
/// the events of the last AGE (against the pinned clock); both filter
/// `--json` too, and combine with a run id.
#[test]
fn log_keeps_the_newest_n_and_those_since_an_age() {
    let repo = TestRepo::new();
    let at = |now: &str, args: &[&str]| {
        let run = TestRepo::output(repo.command().env("GIT_LOOP_TEST_NOW", now).args(args));
        run.ok();
        run
    };
    at("2026-11-30T10:00:00Z", &["create", "a", "--pattern", "p"]);
    at("2026-11-30T11:00:00Z", &["create", "b", "--pattern", "p"]);
    at("2026-11-30T12:00:00Z", &["mark", "a", "rejected"]);
    at("2026-11-30T12:30:00Z", &["mark", "b", "merged"]);
    let lines = |run: crate::common::Run| -> Vec<String> {
        run.stdout
            .lines()
            .map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                format!("{} {} {}", w[0], w[1], w[2].trim_end_matches(':'))
            })
            .collect()
    };
    let now = "2026-11-30T13:00:00Z";
    assert_eq!(
        lines(at(now, &["log", "-n", "2"])),
        ["2026-11-30T12:00:00Z mark a", "2026-11-30T12:30:00Z mark b"]
    );
    assert_eq!(
        lines(at(now, &["log", "--max-count", "1", "a"])),
        ["2026-11-30T12:00:00Z mark a"]
    );
    assert_eq!(
        lines(at(now, &["log", "--since", "1h"])),
        ["2026-11-30T12:00:00Z mark a", "2026-11-30T12:30:00Z mark b"]
    );
    assert_eq!(
        lines(at(now, &["log", "--since", "2h", "b"])),
        [
            "2026-11-30T11:00:00Z create b",
            "2026-11-30T12:30:00Z mark b"
        ]
    );
    assert_eq!(
        lines(at(now, &["log", "--since", "2h", "-n", "1", "b"])),
        ["2026-11-30T12:30:00Z mark b"]
    );
    let v = at(now, &["--json", "log", "--since", "150m"]).json();
    let ids: Vec<&str> = v.arr("events").iter().map(|e| e.text("id")).collect();
    assert_eq!(ids, ["b", "a", "b"], "{v}");
    assert_eq!(at(now, &["log", "-n", "0"]).stdout, "");
    repo.run(["log", "--since", "yesterday"]).code(2);
}

/// A skip's event keeps git's reason but not its advice to force (git-loop
/// never forces), as the human output; `--json` keeps git's whole text.
#[test]
fn a_skip_event_drops_gits_advice_to_force() {
    let repo = TestRepo::new();
    repo.create("d");
    repo.run(["mark", "d", "rejected"]).ok();
    fs::write(repo.wt("d").join("README"), "changed\n").unwrap();
    let run = repo.run(["--json", "cleanup"]);
    run.ok();
    let skip = run.json();
    let reason = skip.find_id("skipped", "d")["reason"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        reason.contains("use --force"),
        "git's own text in JSON: {reason}"
    );
    let log = repo.run(["--json", "log", "d"]).json();
    let event = log
        .arr("events")
        .iter()
        .find(|e| e["event"] == "skip")
        .unwrap_or_else(|| panic!("{log}"))
        .clone();
    let detail = event["detail"].as_str().unwrap();
    assert!(
        detail.contains("contains modified or untracked files"),
        "{detail}"
    );
    assert!(!detail.contains("force"), "{detail}");
}
