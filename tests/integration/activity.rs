//! `git loop activity` and `git loop claude-hook activity`: what a run is
//! doing, recorded in the event log, shown by `list`; `notify.command` on a
//! transition to waiting or done.

use std::fs;
use std::path::Path;

use crate::common::{Run, TestRepo};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/claude-hooks");

/// Feed a hook fixture, its `cwd` set to `cwd`, to `claude-hook activity`.
fn hook(repo: &TestRepo, fixture: &str, cwd: &Path) -> Run {
    let text = fs::read_to_string(format!("{FIXTURES}/{fixture}"))
        .unwrap()
        .replace("@CWD@", cwd.to_str().unwrap())
        .replace("@HOME@", repo.home.to_str().unwrap());
    TestRepo::output_with_stdin(repo.command().args(["claude-hook", "activity"]), &text)
}

/// The run's `activity` and `activityAt` as `list --json` shows them.
fn listed_activity(repo: &TestRepo, id: &str) -> (serde_json::Value, serde_json::Value) {
    let list = repo.run(["--json", "list"]);
    list.ok();
    let v = list.json();
    let run = v["worktrees"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["id"] == id)
        .unwrap()
        .clone();
    (run["activity"].clone(), run["activityAt"].clone())
}

fn activity_events(repo: &TestRepo) -> Vec<serde_json::Value> {
    let text = fs::read_to_string(repo.loop_dir().join("events.jsonl")).unwrap_or_default();
    text.lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|e| e["event"] == "activity")
        .collect()
}

#[test]
fn the_three_claude_code_hooks_drive_the_activity_list_shows() {
    let repo = TestRepo::new();
    repo.create("agent");
    repo.create("idle");
    let deep = repo.wt("agent").join("src/deep");
    fs::create_dir_all(&deep).unwrap();
    assert_eq!(listed_activity(&repo, "agent").0, serde_json::Value::Null);
    assert_eq!(listed_activity(&repo, "agent").1, serde_json::Value::Null);
    // No activity anywhere: the table is as it always was.
    let table = repo.run(["list"]);
    assert!(!table.stdout.contains("ACTIVITY"), "{}", table.stdout);

    for (fixture, activity) in [
        ("user-prompt-submit.json", "working"),
        ("notification.json", "waiting"),
        ("stop.json", "done"),
    ] {
        let run = hook(&repo, fixture, &deep);
        assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{}", run.stderr);
        let (listed, at) = listed_activity(&repo, "agent");
        assert_eq!(listed, activity, "after {fixture}");
        assert!(at.as_str().unwrap().ends_with('Z'), "{at}");
        assert_eq!(listed_activity(&repo, "idle").0, serde_json::Value::Null);
    }
    let events = activity_events(&repo);
    assert_eq!(events.len(), 3);
    // Notification's message is the note; the prompt is never recorded.
    assert_eq!(
        events[1]["detail"],
        "Claude needs your permission to use Bash"
    );
    assert_eq!(events[0].get("detail"), None);
    let table = repo.run(["list"]);
    let header = table.stdout.lines().next().unwrap();
    assert!(header.ends_with("ACTIVITY"), "{}", table.stdout);
    let agent = table
        .stdout
        .lines()
        .find(|l| l.starts_with("agent"))
        .unwrap();
    assert!(agent.ends_with("done just now"), "{}", table.stdout);
    let idle = table
        .stdout
        .lines()
        .find(|l| l.starts_with("idle"))
        .unwrap();
    assert!(idle.ends_with(" -"), "{}", table.stdout);
}

#[test]
fn a_hook_from_outside_any_run_changes_nothing_and_says_nothing() {
    let repo = TestRepo::new();
    repo.create("agent");
    let elsewhere = tempfile::tempdir().unwrap();
    for cwd in [repo.root.as_path(), elsewhere.path()] {
        for fixture in ["user-prompt-submit.json", "notification.json", "stop.json"] {
            let run = hook(&repo, fixture, cwd);
            assert_eq!(
                (run.code, run.stdout.as_str(), run.stderr.as_str()),
                (0, "", "")
            );
        }
    }
    assert!(activity_events(&repo).is_empty());
}

#[test]
fn activity_without_an_id_inside_a_worktree_records_for_that_run() {
    let repo = TestRepo::new();
    repo.create("fix-login");
    repo.create("other");
    let sub = repo.wt("fix-login").join("a/b");
    fs::create_dir_all(&sub).unwrap();
    let run = TestRepo::output(repo.command().current_dir(&sub).args([
        "--json",
        "activity",
        "waiting",
        "--note",
        "which db?",
    ]));
    run.ok();
    let event = run.json();
    assert_eq!(event["event"], "activity");
    assert_eq!(event["id"], "fix-login");
    assert_eq!(event["to"], "waiting");
    assert_eq!(event["detail"], "which db?");
    assert_eq!(listed_activity(&repo, "fix-login").0, "waiting");
    assert_eq!(listed_activity(&repo, "other").0, serde_json::Value::Null);
    // The manifest's shape does not change.
    assert!(repo.manifest().to_string().find("activity").is_none());
    // Outside every run, the id is needed: a usage error naming the directory.
    let outside = TestRepo::output(repo.command().args(["activity", "done"]));
    assert_eq!(outside.code, 2, "{}", outside.stderr);
    assert!(
        outside.stderr.contains(repo.root.to_str().unwrap()),
        "{}",
        outside.stderr
    );
    assert_eq!(activity_events(&repo).len(), 1);
}

#[test]
fn an_unknown_run_is_refused_with_the_id_it_may_have_meant() {
    let repo = TestRepo::new();
    repo.create("fix-login");
    let run = repo.run(["activity", "fix-logn", "done"]);
    run.code(1);
    assert!(run.stderr.contains("fix-logn"), "{}", run.stderr);
    assert!(run.stderr.contains("fix-login"), "{}", run.stderr);
    assert!(activity_events(&repo).is_empty());
}

#[test]
fn notify_runs_once_per_transition_to_waiting_or_done() {
    let repo = TestRepo::new();
    repo.create("r1");
    let log = repo.home.join("notified");
    let command = format!(
        "printf '%s|%s|%s|%s|%s\\n' \"$GIT_LOOP_ID\" \"$GIT_LOOP_ACTIVITY\" \"$GIT_LOOP_NOTE\" \"$GIT_LOOP_BRANCH\" \"$PWD\" >> '{}'",
        log.display()
    );
    repo.git(["config", "loop.notifyCommand", &command]);
    let say = |args: &[&str]| {
        let run = repo.run(args);
        run.ok();
        run
    };
    say(&["activity", "r1", "working"]);
    say(&["activity", "r1", "waiting", "--note", "a question"]);
    say(&["activity", "r1", "waiting", "--note", "still"]);
    say(&["activity", "r1", "done"]);
    say(&["activity", "r1", "done"]);
    say(&["activity", "r1", "working"]);
    // Through the hook too: a Notification after working is a transition.
    let run = hook(&repo, "notification.json", &repo.wt("r1"));
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{}", run.stderr);
    let wt = repo.wt("r1");
    let wt = wt.display();
    assert_eq!(
        fs::read_to_string(&log).unwrap(),
        format!(
            "r1|waiting|a question|loop/r1|{wt}\nr1|done||loop/r1|{wt}\nr1|waiting|Claude needs your permission to use Bash|loop/r1|{wt}\n"
        )
    );
    assert_eq!(activity_events(&repo).len(), 7);
}

#[test]
fn an_untrusted_notify_command_is_not_run_and_the_activity_still_recorded() {
    let repo = TestRepo::new();
    repo.create("r1");
    let marker = repo.home.join("ran");
    fs::write(
        repo.root.join(".git-loop.toml"),
        format!("[notify]\ncommand = \"touch '{}'\"\n", marker.display()),
    )
    .unwrap();
    let run = repo.run(["activity", "r1", "waiting"]);
    run.ok();
    assert!(
        run.stderr.contains("notify.command not run"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("git loop trust"), "{}", run.stderr);
    let run = hook(&repo, "stop.json", &repo.wt("r1"));
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{}", run.stderr);
    assert!(
        run.stderr.contains("notify.command not run"),
        "{}",
        run.stderr
    );
    assert!(!marker.exists(), "an untrusted notify.command ran");
    assert_eq!(activity_events(&repo).len(), 2);
    // Trusted, it runs on the next transition.
    repo.run(["trust"]).ok();
    repo.run(["activity", "r1", "waiting"]).ok();
    assert!(marker.exists());
}

#[test]
fn a_failing_notify_command_is_a_warning_never_a_failure() {
    let repo = TestRepo::new();
    repo.create("r1");
    repo.git(["config", "loop.notifyCommand", "exit 3"]);
    let run = repo.run(["--json", "activity", "r1", "done"]);
    run.ok();
    assert_eq!(run.json()["to"], "done");
    assert!(run.stderr.contains("exited with 3"), "{}", run.stderr);
    assert_eq!(listed_activity(&repo, "r1").0, "done");
}

/// An event-log line as git-loop writes it (compact JSON, this field order).
fn line(at: &str, kind: &str, id: &str, to: &str, detail: Option<&str>) -> String {
    let detail = detail.map_or(String::new(), |d| format!(r#","detail":"{d}""#));
    format!(r#"{{"at":"{at}","event":"{kind}","id":"{id}","to":"{to}"{detail}}}"#) + "\n"
}

/// `bytes` of `mark` events of a run nobody lists: the log of a busy
/// repository, between two activities.
fn filler(bytes: usize) -> String {
    let one = line(
        "2026-01-02T00:00:00Z",
        "mark",
        "someone-else",
        "stale",
        None,
    );
    one.repeat(bytes.div_ceil(one.len()))
}

/// The window `list` reads the log's end through (see `events::tail`).
const WINDOW: usize = 1 << 20;

#[test]
fn list_shows_each_runs_latest_activity_from_the_end_of_a_large_log() {
    let repo = TestRepo::new();
    repo.create("a");
    repo.create("b");
    let mut log = line("2026-01-01T00:00:00Z", "activity", "a", "working", None);
    log += &filler(3 * WINDOW);
    log += &line("2026-01-03T00:00:00Z", "activity", "a", "working", None);
    log += &filler(WINDOW / 2);
    log += &line("2026-01-04T00:00:00Z", "activity", "b", "done", None);
    log += &filler(WINDOW / 4);
    log += &line(
        "2026-01-05T00:00:00Z",
        "activity",
        "a",
        "waiting",
        Some("which db?"),
    );
    log += &filler(1000);
    fs::write(repo.loop_dir().join("events.jsonl"), log).unwrap();
    let a = listed_activity(&repo, "a");
    assert_eq!(
        (a.0.as_str(), a.1.as_str()),
        (Some("waiting"), Some("2026-01-05T00:00:00Z"))
    );
    let b = listed_activity(&repo, "b");
    assert_eq!(
        (b.0.as_str(), b.1.as_str()),
        (Some("done"), Some("2026-01-04T00:00:00Z"))
    );
}

/// The documented fallback: an activity further back than the window is
/// not looked for, and the run is listed without one (`null`, `-`), as
/// `activity` then takes it for the run's first (a notification again).
#[test]
fn an_activity_further_back_than_the_window_is_listed_as_none() {
    let repo = TestRepo::new();
    repo.create("a");
    repo.git(["config", "loop.notifyCommand", "echo notified >&2"]);
    let events = repo.loop_dir().join("events.jsonl");
    let early = line("2026-01-01T00:00:00Z", "activity", "a", "waiting", None);
    // Inside the window: found.
    fs::write(&events, early.clone() + &filler(WINDOW - 4096)).unwrap();
    assert_eq!(listed_activity(&repo, "a").0, "waiting");
    // Beyond it: none, in JSON and in the table.
    fs::write(&events, early + &filler(WINDOW + 4096)).unwrap();
    assert_eq!(
        listed_activity(&repo, "a"),
        (serde_json::Value::Null, serde_json::Value::Null)
    );
    let table = repo.run(["list"]);
    assert!(!table.stdout.contains("ACTIVITY"), "{}", table.stdout);
    let run = repo.run(["activity", "a", "waiting"]);
    run.ok();
    assert!(run.stderr.contains("notified"), "{}", run.stderr);
    assert_eq!(listed_activity(&repo, "a").0, "waiting");
}
