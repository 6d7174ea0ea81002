use std::fs;

use crate::common::{JsonExt, TestRepo, manifest_with};

#[test]
fn list_without_a_manifest_prints_nothing_and_creates_nothing() {
    let repo = TestRepo::new();
    let run = repo.run(["list"]);
    run.ok();
    assert_eq!(run.stdout, "");
    let run = repo.run(["--json", "list"]);
    run.ok();
    assert_eq!(run.json(), serde_json::json!({"version":1,"worktrees":[]}));
    assert!(!repo.loop_dir().exists());
    assert!(!repo.root.join(".gitignore").exists());
}

#[test]
fn list_reports_entries_with_present_and_filters_by_status() {
    let repo = TestRepo::new();
    repo.create("here");
    let mut m = repo.manifest();
    let mut gone = m["worktrees"][0].clone();
    gone["id"] = "gone".into();
    gone["path"] = ".loop-worktrees/gone".into();
    gone["branch"] = "loop/gone".into();
    gone["status"] = "stale".into();
    m["worktrees"].as_array_mut().unwrap().push(gone);
    repo.write_manifest(&m.to_string());

    let v = repo.run(["--json", "list"]).json();
    let list = v.arr("worktrees");
    assert_eq!(list.len(), 2);
    assert_eq!(list[0]["present"], true);
    assert_eq!(list[1]["present"], false);
    assert_eq!(list[1]["status"], "stale");

    let v = repo.run(["--json", "list", "--status", "stale"]).json();
    assert_eq!(v.arr("worktrees").len(), 1);
    assert_eq!(v["worktrees"][0]["id"], "gone");

    let text = repo.run(["list"]).stdout;
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("ID"));
    assert!(
        lines[2].contains("gone") && lines[2].contains("missing"),
        "{text}"
    );
    repo.run(["list", "--status", "bogus"]).code(2);
}

#[test]
fn path_prints_the_absolute_worktree_path() {
    let repo = TestRepo::new();
    repo.create("p");
    let run = repo.run(["path", "p"]);
    run.ok();
    assert_eq!(run.stdout, format!("{}\n", repo.wt("p").display()));
    let sub = TestRepo::output(
        repo.command()
            .current_dir(repo.wt("p"))
            .args(["--json", "path", "p"]),
    );
    sub.ok();
    assert_eq!(sub.json()["path"], repo.wt("p").display().to_string());
    let run = repo.run(["--json", "path", "nope"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "unknown-id");
}

#[test]
fn reads_take_no_mutex() {
    let repo = TestRepo::new();
    repo.write_manifest(&manifest_with(&[("a", "merged", "2026-01-01T00:00:00Z")]));
    fs::create_dir(repo.wt("a")).unwrap();
    // A live (fresh) mutex does not block list or path.
    fs::write(repo.mutex_path(), "someone else").unwrap();
    let start = std::time::Instant::now();
    let run = TestRepo::output(repo.command().args(["list"]));
    run.ok();
    TestRepo::output(repo.command().args(["path", "a"])).ok();
    assert!(start.elapsed() < std::time::Duration::from_secs(10));
    assert_eq!(
        fs::read_to_string(repo.mutex_path()).unwrap(),
        "someone else"
    );
}

#[test]
fn closed_stdout_is_not_an_error() {
    let repo = TestRepo::new();
    let ids: Vec<(String, &str, &str)> = (0..2000)
        .map(|i| (format!("r{i}"), "merged", "2026-01-01T00:00:00Z"))
        .collect();
    let refs: Vec<(&str, &str, &str)> = ids.iter().map(|(a, b, c)| (a.as_str(), *b, *c)).collect();
    repo.write_manifest(&manifest_with(&refs));
    let out = std::process::Command::new("bash")
        .args([
            "-o",
            "pipefail",
            "-c",
            &format!("'{}' list | head -n 1", crate::common::BIN),
        ])
        .current_dir(&repo.root)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

#[test]
fn run_executes_in_the_worktree_and_passes_the_exit_code_through() {
    let repo = TestRepo::new();
    repo.create("r");
    let run = repo.run([
        "run",
        "r",
        "--",
        "sh",
        "-c",
        "pwd; echo \"$GIT_LOOP_ID $GIT_LOOP_ROOT\"; exit 7",
    ]);
    run.code(7);
    assert_eq!(
        run.stdout,
        format!("{}\nr {}\n", repo.wt("r").display(), repo.root.display())
    );
    repo.run(["run", "r", "--", "true"]).ok();
    // From inside another worktree, and with a signal: 128 + N.
    let killed = TestRepo::output(repo.command().current_dir(repo.wt("r")).args([
        "run",
        "r",
        "--",
        "sh",
        "-c",
        "kill -TERM $$",
    ]));
    killed.code(143);
    // Unknown id, missing worktree, missing command: clear errors, nothing run.
    let unknown = repo.run(["--json", "run", "nope", "--", "true"]);
    unknown.code(1);
    assert_eq!(unknown.json()["error"]["code"], "unknown-id");
    repo.run(["run", "r"]).code(2);
    repo.run(["run", "../x", "--", "true"]).code(2);
    let missing_cmd = repo.run(["run", "r", "--", "no-such-command-here"]);
    missing_cmd.code(127);
    assert!(
        missing_cmd.stderr.contains("no-such-command-here"),
        "{}",
        missing_cmd.stderr
    );
    fs::remove_dir_all(repo.wt("r")).unwrap();
    let gone = repo.run(["--json", "run", "r", "--", "touch", "created"]);
    gone.code(1);
    assert_eq!(gone.json()["error"]["code"], "worktree-missing");
    assert!(!repo.wt("r").exists() && !repo.root.join("created").exists());
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
