//! Landing from the fleet (docs/fleet.md): two machines publish escalated
//! runs, a third lands them all with `land --queue --fleet --push` onto
//! the remote's `main`; a run landed by another machine (its record on
//! the remote says `landed`) is marked `merged` by its own machine's next
//! publish, when its branch is still at the tip that landed; a branch that
//! moved since is left as it is, and said.

use serde_json::Value;

use crate::common::{JsonExt, TestRepo, commit, git_ok};
use crate::fleet::{Fleet, plant};

/// Run `id` on `m` with `file` committed holding `content`, escalated
/// and published.
fn escalated(m: &TestRepo, id: &str, file: &str, content: &str) {
    m.create(id).ok();
    commit(m, &m.wt(id), file, content);
    m.run(["mark", id, "escalated"]).ok();
    m.run(["publish"]).ok();
}

/// `m`'s `main` tracking the fleet's remote's `main` (`origin`), as
/// `land --push` needs.
fn track(fleet: &Fleet, m: &TestRepo) {
    m.git(["remote", "add", "origin", fleet.remote.to_str().unwrap()]);
    m.git(["fetch", "-q", "origin"]);
    m.git(["branch", "-q", "--set-upstream-to=origin/main", "main"]);
}

/// `file` in the remote's `main`, if there.
fn on_remote_main(fleet: &Fleet, file: &str) -> Option<String> {
    let out = fleet.machines[0].git_in(&fleet.remote, ["show", &format!("main:{file}")]);
    out.status
        .success()
        .then(|| String::from_utf8(out.stdout).unwrap())
}

/// The record of `<machine>/<id>` on the remote, as JSON.
fn record_of(fleet: &Fleet, name: &str) -> Value {
    let text = fleet.remote_git(&["show", &format!("refs/loop/fleet/{name}:record.json")]);
    serde_json::from_str(&text).unwrap()
}

#[test]
fn a_third_machine_lands_every_machines_escalated_runs_and_each_is_marked_merged_at_home() {
    let fleet = Fleet::new();
    let (a, b, lander) = (&fleet.machines[0], &fleet.machines[1], &fleet.machines[2]);
    escalated(a, "ra", "a.txt", "from m0\n");
    escalated(b, "rb", "b.txt", "from m1\n");
    track(&fleet, lander);
    let run = lander.run(["--json", "land", "--queue", "--fleet", "--push"]);
    run.ok();
    let v = run.json();
    assert_eq!(v.ids("landed"), ["m0/ra", "m1/rb"], "{v}");
    assert!(v.arr("landed").iter().all(|l| l["pushed"] == true), "{v}");
    assert!(run.stderr.contains("conflicts' order"), "{}", run.stderr);
    assert_eq!(
        on_remote_main(&fleet, "a.txt").as_deref(),
        Some("from m0\n")
    );
    assert_eq!(
        on_remote_main(&fleet, "b.txt").as_deref(),
        Some("from m1\n")
    );
    let remote_main = fleet.remote_git(&["rev-parse", "main"]).trim().to_owned();
    assert_eq!(lander.git(["rev-parse", "main"]).trim(), remote_main);
    for (m, name, id) in [(a, "m0/ra", "ra"), (b, "m1/rb", "rb")] {
        let record = record_of(&fleet, name);
        assert_eq!(record["landed"]["by"], "m2", "{record}");
        assert_eq!(record["landed"]["into"], "main", "{record}");
        assert_eq!(record["landed"]["tip"], record["tip"], "{record}");
        assert_eq!(m.status_of(id).as_deref(), Some("escalated"));
        m.run(["publish"]).ok();
        assert_eq!(m.status_of(id).as_deref(), Some("merged"), "{name}");
        assert!(
            m.wt(id).exists(),
            "its worktree is never touched by the lander"
        );
    }
    // Landed already: a second landing takes nothing of them.
    let again = lander.run(["--json", "land", "--queue", "--fleet", "--push"]);
    assert_eq!(again.json().arr("landed").len(), 0, "{}", again.stdout);
}

#[test]
fn a_run_whose_machine_moved_its_branch_meanwhile_is_not_marked_merged() {
    let fleet = Fleet::new();
    let (a, lander) = (&fleet.machines[0], &fleet.machines[2]);
    escalated(a, "ra", "a.txt", "from m0\n");
    track(&fleet, lander);
    lander
        .run(["--json", "land", "--queue", "--fleet", "--push"])
        .ok();
    commit(a, &a.wt("ra"), "later.txt", "after the landing\n");
    let run = a.run(["publish"]);
    run.ok();
    assert!(run.stderr.contains("moved since"), "{}", run.stderr);
    assert_eq!(a.status_of("ra").as_deref(), Some("escalated"));
    assert_eq!(on_remote_main(&fleet, "later.txt"), None);
}

#[test]
fn a_conflicting_run_is_skipped_and_its_record_not_marked() {
    let fleet = Fleet::new();
    let (a, b, lander) = (&fleet.machines[0], &fleet.machines[1], &fleet.machines[2]);
    escalated(a, "ra", "same.txt", "from m0\n");
    escalated(b, "rb", "same.txt", "from m1\n");
    track(&fleet, lander);
    let run = lander.run(["--json", "land", "--queue", "--fleet", "--push"]);
    let v = run.json();
    assert_eq!(v.ids("landed"), ["m0/ra"], "{v}");
    assert_eq!(v.ids("skipped"), ["m1/rb"], "{v}");
    assert_eq!(v.arr("skipped")[0]["code"], "conflict", "{v}");
    assert_eq!(record_of(&fleet, "m1/rb")["landed"], Value::Null);
    assert_eq!(
        on_remote_main(&fleet, "same.txt").as_deref(),
        Some("from m0\n")
    );
    b.run(["publish"]).ok();
    assert_eq!(b.status_of("rb").as_deref(), Some("escalated"));
}

/// The remote's `main` moved after the lander last fetched (another
/// machine pushed to it): the push is refused, the landing rebuilt on the
/// remote's tip and pushed, as `land --push` retries.
#[test]
fn a_remote_that_moved_during_the_landing_is_retried_as_push_retries() {
    let fleet = Fleet::new();
    let (a, b, lander) = (&fleet.machines[0], &fleet.machines[1], &fleet.machines[2]);
    escalated(a, "ra", "a.txt", "from m0\n");
    track(&fleet, lander);
    commit(b, &b.root, "theirs.txt", "pushed meanwhile\n");
    git_ok(
        b,
        &b.root,
        &["push", "-q", fleet.remote.to_str().unwrap(), "main"],
    );
    let theirs = b.git(["rev-parse", "main"]).trim().to_owned();
    let run = lander.run(["--json", "land", "--queue", "--fleet", "--push"]);
    run.ok();
    let v = run.json();
    assert_eq!(v.ids("landed"), ["m0/ra"], "{v}");
    assert_eq!(v.arr("landed")[0]["pushedTo"]["rebuilds"], 1, "{v}");
    let main = fleet.remote_git(&["rev-parse", "main~1"]).trim().to_owned();
    assert_eq!(main, theirs, "built on the remote's new tip");
    assert_eq!(record_of(&fleet, "m0/ra")["landed"]["by"], "m2");
}

#[test]
fn fleet_without_push_or_queue_is_refused_naming_the_flag() {
    let fleet = Fleet::new();
    let m = &fleet.machines[2];
    for (args, flag) in [
        (vec!["land", "--queue", "--fleet"], "--push"),
        (vec!["land", "--fleet", "--push"], "--queue"),
    ] {
        let run = m.run(&args);
        run.code(2);
        assert!(run.stderr.contains(flag), "{args:?}: {}", run.stderr);
    }
}

/// A run `r` on `m` (machine `m0`) with a commit of its own, escalated
/// and published; its tip.
fn published_run(m: &TestRepo) -> String {
    m.create("r").ok();
    commit(m, &m.wt("r"), "work", "landed\n");
    m.run(["mark", "r", "escalated"]).ok();
    m.run(["publish"]).ok();
    m.git(["rev-parse", "loop/r"]).trim().to_owned()
}

/// The remote's record of `m0/r` rewritten as a landing machine writes it:
/// its `landed` set (of `landed_tip`, in `main`, at `commit`, by `m2`), on
/// the same tip.
fn say_landed(fleet: &Fleet, tip: &str, landed_tip: &str, commit: &str) {
    let name = "refs/loop/fleet/m0/r";
    let text = fleet.remote_git(&["show", &format!("{name}:record.json")]);
    let mut record: Value = serde_json::from_str(&text).unwrap();
    record["landed"] = serde_json::json!({
        "into": "main", "commit": commit, "tip": landed_tip, "by": "m2",
        "at": "2026-01-02T00:00:00Z"
    });
    plant(
        fleet,
        name,
        "record.json",
        record.to_string().as_bytes(),
        Some(tip),
    );
}

/// The record of `m0/r` on the remote, as JSON.
fn record(fleet: &Fleet) -> Value {
    let text = fleet.remote_git(&["show", "refs/loop/fleet/m0/r:record.json"]);
    serde_json::from_str(&text).unwrap()
}

#[test]
fn a_run_landed_elsewhere_is_marked_merged_at_its_next_publish() {
    let fleet = Fleet::new();
    let m = &fleet.machines[0];
    let tip = published_run(m);
    let main = fleet.remote_git(&["rev-parse", "main"]).trim().to_owned();
    say_landed(&fleet, &tip, &tip, &main);
    m.run(["publish"]).ok();
    assert_eq!(m.status_of("r").as_deref(), Some("merged"));
    let now = record(&fleet);
    assert_eq!(now["status"], "merged", "{now}");
    assert_eq!(now["landed"]["by"], "m2", "the landing stays: {now}");
}

#[test]
fn a_run_landed_elsewhere_whose_branch_moved_since_is_not_marked_merged() {
    let fleet = Fleet::new();
    let m = &fleet.machines[0];
    let tip = published_run(m);
    let main = fleet.remote_git(&["rev-parse", "main"]).trim().to_owned();
    say_landed(&fleet, &tip, &tip, &main);
    commit(m, &m.wt("r"), "more", "after the landing\n");
    let run = m.run(["publish"]);
    run.ok();
    assert!(
        run.stderr.contains("r landed in main by m2") && run.stderr.contains("moved since"),
        "{}",
        run.stderr
    );
    assert_eq!(m.status_of("r").as_deref(), Some("escalated"));
    let now = record(&fleet);
    assert_eq!(now["status"], "escalated", "{now}");
    assert_eq!(now["landed"], Value::Null, "{now}");
}

#[test]
fn a_landing_that_names_another_tip_is_skipped_and_marks_nothing() {
    let fleet = Fleet::new();
    let m = &fleet.machines[0];
    let tip = published_run(m);
    let main = fleet.remote_git(&["rev-parse", "main"]).trim().to_owned();
    say_landed(&fleet, &tip, &main, &main);
    let run = m.run(["--json", "list", "--fleet"]);
    run.ok();
    assert_eq!(
        run.json()["skipped"][0]["code"],
        "mismatch",
        "{}",
        run.stdout
    );
    m.run(["publish"]).ok();
    assert_eq!(m.status_of("r").as_deref(), Some("escalated"));
}

/// A record whose `landed` names no machine (an escape sequence) is
/// reported `malformed` and skipped: its run is not marked, nor landed.
#[test]
fn a_hostile_landing_is_reported_and_marks_nothing() {
    let fleet = Fleet::new();
    let m = &fleet.machines[0];
    let tip = published_run(m);
    let name = "refs/loop/fleet/m0/r";
    let mut hostile = record(&fleet);
    hostile["landed"] = serde_json::json!({
        "into": "main", "commit": tip, "tip": tip, "by": "\u{1b}[2J",
        "at": "2026-01-02T00:00:00Z"
    });
    plant(
        &fleet,
        name,
        "record.json",
        hostile.to_string().as_bytes(),
        Some(&tip),
    );
    let run = m.run(["--json", "list", "--fleet"]);
    run.ok();
    assert_eq!(
        run.json()["skipped"][0]["code"],
        "malformed",
        "{}",
        run.stdout
    );
    assert!(!run.stderr.contains('\u{1b}'), "{}", run.stderr);
    m.run(["publish"]).ok();
    assert_eq!(m.status_of("r").as_deref(), Some("escalated"));
    let lander = &fleet.machines[2];
    track(&fleet, lander);
    let landing = lander.run(["--json", "land", "--queue", "--fleet", "--push"]);
    assert!(!landing.stderr.contains('\u{1b}'), "{}", landing.stderr);
}

/// `conflicts`' order, from the records' tips: `m0/ra` conflicts with the
/// remote's `main` (which changed its file since), `m1/rb` lands cleanly,
/// so `m1/rb` lands first and `m0/ra` is skipped after it (in record order
/// `m0/ra` would come first and its skip stop the rest).
#[test]
fn the_fleets_runs_land_in_conflicts_order_from_their_tips() {
    let fleet = Fleet::new();
    let (a, b, lander) = (&fleet.machines[0], &fleet.machines[1], &fleet.machines[2]);
    escalated(a, "ra", "x.txt", "from m0\n");
    commit(b, &b.root, "x.txt", "from main\n");
    git_ok(
        b,
        &b.root,
        &["push", "-q", fleet.remote.to_str().unwrap(), "main"],
    );
    escalated(b, "rb", "y.txt", "from m1\n");
    track(&fleet, lander);
    lander.git(["merge", "-q", "--ff-only", "origin/main"]);
    let run = lander.run(["--json", "land", "--queue", "--fleet", "--push"]);
    let v = run.json();
    assert_eq!(v.ids("landed"), ["m1/rb"], "{v}");
    assert_eq!(v.ids("skipped"), ["m0/ra"], "{v}");
    assert_eq!(v.arr("skipped")[0]["code"], "conflict", "{v}");
    assert_eq!(
        on_remote_main(&fleet, "y.txt").as_deref(),
        Some("from m1\n")
    );
}
