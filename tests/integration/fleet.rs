//! The fleet (docs/fleet.md): three clones of one bare remote, served as a
//! local path and by `git daemon` on 127.0.0.1, publish their runs and
//! see each other's (`publish`, `list --fleet`); claims race for real
//! (`claim`); an unreachable remote and a hostile one.

use std::collections::BTreeSet;
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{JsonExt, TestRepo, commit, git_ok};

/// Three machines (`m0`, `m1`, `m2`), each its own repository with the
/// same first commit, and the bare remote they share (in `machines[0]`'s
/// temporary directory, with `main` on it).
pub(crate) struct Fleet {
    pub(crate) machines: Vec<TestRepo>,
    pub(crate) remote: PathBuf,
}

impl Fleet {
    pub(crate) fn new() -> Fleet {
        let machines: Vec<TestRepo> = (0..3).map(|_| TestRepo::new()).collect();
        let remote = machines[0].base().join("served").join("remote.git");
        let first = &machines[0];
        git_ok(
            first,
            first.base(),
            &[
                "init",
                "-q",
                "--bare",
                "-b",
                "main",
                remote.to_str().unwrap(),
            ],
        );
        git_ok(
            first,
            &first.root,
            &["push", "-q", remote.to_str().unwrap(), "main"],
        );
        let fleet = Fleet { machines, remote };
        fleet.point_at(fleet.remote.to_str().unwrap());
        for (i, m) in fleet.machines.iter().enumerate() {
            m.git(["config", "loop.fleetName", &format!("m{i}")]);
        }
        fleet
    }

    /// Every machine's `fleet.remote` set to `url`.
    fn point_at(&self, url: &str) {
        for m in &self.machines {
            m.git(["config", "loop.fleetRemote", url]);
        }
    }

    /// `git <args>` in the bare remote.
    pub(crate) fn remote_git(&self, args: &[&str]) -> String {
        git_ok(&self.machines[0], &self.remote, args)
    }

    /// The remote's refs under `prefix`, with their ids.
    pub(crate) fn remote_refs(&self, prefix: &str) -> Vec<(String, String)> {
        self.remote_git(&["for-each-ref", "--format=%(refname) %(objectname)", prefix])
            .lines()
            .filter_map(|l| l.split_once(' '))
            .map(|(r, id)| (r.to_owned(), id.to_owned()))
            .collect()
    }
}

/// `git daemon` serving the directory above the remote on 127.0.0.1 (a
/// free port), pushes enabled; killed when dropped.
struct Daemon {
    child: Child,
    port: u16,
}

impl Daemon {
    fn start(fleet: &Fleet) -> Daemon {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        Daemon::on(fleet, port)
    }

    fn on(fleet: &Fleet, port: u16) -> Daemon {
        let served = fleet.remote.parent().unwrap();
        // git-daemon itself (`git daemon` would be its parent: killing
        // that leaves the daemon listening).
        let exec_path = git_ok(&fleet.machines[0], served, &["--exec-path"]);
        let mut cmd = Command::new(PathBuf::from(exec_path.trim()).join("git-daemon"));
        crate::common::hermetic(&mut cmd, &fleet.machines[0].home);
        let child = cmd
            .args(["--export-all", "--enable=receive-pack", "--reuseaddr"])
            .arg(format!("--base-path={}", served.display()))
            .args(["--listen=127.0.0.1", &format!("--port={port}")])
            .arg(served)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("git daemon runs (git's own daemon)");
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "git daemon never listened on {port}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Daemon { child, port }
    }

    fn url(&self) -> String {
        format!("git://127.0.0.1:{}/remote.git", self.port)
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `(machine, id, tip)` of every run `list --fleet --json` shows on `m`,
/// checking its `mine` flags against `m`'s name.
fn seen(m: &TestRepo, me: &str) -> BTreeSet<(String, String, String)> {
    let run = m.run(["--json", "list", "--fleet"]);
    run.ok();
    let doc = run.json();
    assert_eq!(doc["machine"], me, "{doc}");
    assert_eq!(doc.arr("skipped").len(), 0, "{doc}");
    doc.arr("runs")
        .iter()
        .map(|r| {
            assert_eq!(r["mine"], r["machine"] == me, "{r}");
            (
                r.text("machine").to_owned(),
                r.text("id").to_owned(),
                r.text("tip").to_owned(),
            )
        })
        .collect()
}

/// Each machine creates two runs (one with a commit) and publishes; every
/// machine then sees the same six runs, and the remote has each branch at
/// its tip.
fn publish_and_see(fleet: &Fleet) {
    let mut expected = BTreeSet::new();
    for (i, m) in fleet.machines.iter().enumerate() {
        for id in [format!("m{i}-a"), format!("m{i}-b")] {
            m.create(&id).ok();
        }
        commit(
            m,
            &m.wt(&format!("m{i}-a")),
            "work",
            &format!("machine {i}\n"),
        );
        let run = m.run(["--json", "publish"]);
        run.ok();
        assert_eq!(run.json().arr("published").len(), 2, "{}", run.stdout);
        for id in [format!("m{i}-a"), format!("m{i}-b")] {
            let tip = m
                .git(["rev-parse", &format!("loop/{id}")])
                .trim()
                .to_owned();
            expected.insert((format!("m{i}"), id, tip));
        }
    }
    for (i, m) in fleet.machines.iter().enumerate() {
        assert_eq!(seen(m, &format!("m{i}")), expected, "machine m{i}");
    }
    let branches: BTreeSet<(String, String)> =
        fleet.remote_refs("refs/heads/loop/").into_iter().collect();
    for (_, id, tip) in &expected {
        assert!(branches.contains(&(format!("refs/heads/loop/{id}"), tip.clone())));
    }
}

#[test]
fn three_machines_publish_and_each_sees_every_run_over_a_path() {
    let fleet = Fleet::new();
    publish_and_see(&fleet);
}

#[test]
fn three_machines_publish_and_each_sees_every_run_over_git_daemon() {
    let fleet = Fleet::new();
    let daemon = Daemon::start(&fleet);
    fleet.point_at(&daemon.url());
    publish_and_see(&fleet);
    // The human table marks this machine's runs.
    let run = fleet.machines[1].run(["list", "--fleet"]);
    run.ok();
    let mine: Vec<&str> = run.stdout.lines().filter(|l| l.starts_with('*')).collect();
    assert_eq!(mine.len(), 2, "{}", run.stdout);
    assert!(mine.iter().all(|l| l.contains("m1-")), "{}", run.stdout);
}

/// A run removed from the manifest is unpublished at the next publish: its
/// record goes, by compare-and-swap; its branch stays on the remote.
#[test]
fn a_removed_run_is_unpublished_and_its_branch_kept() {
    let fleet = Fleet::new();
    let m = &fleet.machines[0];
    m.create("gone").ok();
    m.create("stays").ok();
    commit(m, &m.wt("gone"), "work", "only here\n");
    m.run(["publish"]).ok();
    m.run(["mark", "gone", "rejected"]).ok();
    m.run(["remove", "gone"]).ok();
    let run = m.run(["--json", "publish"]);
    run.ok();
    assert_eq!(run.json()["unpublished"], serde_json::json!(["gone"]));
    let records: Vec<String> = fleet
        .remote_refs("refs/loop/fleet/")
        .into_iter()
        .map(|(r, _)| r)
        .collect();
    assert_eq!(records, ["refs/loop/fleet/m0/stays"]);
    let branches = fleet.remote_refs("refs/heads/loop/gone");
    assert_eq!(branches.len(), 1, "the branch stays on the remote");
}

/// Another machine's branch of the same name is never overwritten: the
/// second machine's record is published, its branch kept
/// (`branch-diverged`), and the first machine's tip is still there.
#[test]
fn a_branch_another_machine_published_is_not_overwritten() {
    let fleet = Fleet::new();
    let (a, b) = (&fleet.machines[0], &fleet.machines[1]);
    for m in [a, b] {
        m.create("same").ok();
    }
    commit(a, &a.wt("same"), "a", "a's work\n");
    commit(b, &b.wt("same"), "b", "b's work\n");
    a.run(["publish"]).ok();
    let a_tip = a.git(["rev-parse", "loop/same"]).trim().to_owned();
    let run = b.run(["--json", "publish"]);
    run.ok();
    let kept = run.json().arr("kept").to_vec();
    assert_eq!(kept.len(), 1, "{}", run.stdout);
    assert_eq!(kept[0]["code"], "branch-diverged");
    assert_eq!(
        fleet.remote_refs("refs/heads/loop/same"),
        [("refs/heads/loop/same".to_owned(), a_tip)]
    );
    // A's own later commit still fast-forwards it.
    commit(a, &a.wt("same"), "a2", "more\n");
    a.run(["publish"]).ok();
    let a_tip = a.git(["rev-parse", "loop/same"]).trim().to_owned();
    assert_eq!(fleet.remote_refs("refs/heads/loop/same")[0].1, a_tip);
}

/// 3 machines × 10 processes claim one task at once, 20 times: exactly
/// one wins each time; every other is refused, `claimed`, naming a holder.
#[test]
fn exactly_one_of_thirty_simultaneous_claims_wins() {
    let fleet = Fleet::new();
    for round in 0..20 {
        let task = format!("task-{round}");
        let children: Vec<Child> = fleet
            .machines
            .iter()
            .flat_map(|m| (0..10).map(move |_| m))
            .map(|m| {
                m.command()
                    .args(["--json", "claim", &task])
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        let mut winners = 0;
        for child in children {
            let out = child.wait_with_output().unwrap();
            let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
            match out.status.code() {
                Some(0) => winners += 1,
                Some(1) => {
                    assert_eq!(doc["error"]["code"], "claimed", "{doc}");
                    assert!(
                        doc["error"]["message"].as_str().unwrap().contains("by m"),
                        "{doc}"
                    );
                }
                other => panic!("claim exited {other:?}: {doc}"),
            }
        }
        assert_eq!(winners, 1, "round {round}");
        assert_eq!(
            fleet.remote_refs(&format!("refs/loop/claims/{task}")).len(),
            1
        );
    }
}

fn claim_at(m: &TestRepo, now: &str, args: &[&str]) -> crate::common::Run {
    let mut cmd = m.command();
    cmd.env("GIT_LOOP_TEST_NOW", now)
        .arg("--json")
        .arg("claim")
        .args(args);
    TestRepo::output(&mut cmd)
}

/// A live lease cannot be taken, by another machine or its own; one not
/// renewed for `fleet.lease` can; publish renews its holder's; release
/// deletes only its holder's.
#[test]
fn an_expired_lease_can_be_taken_and_a_live_one_cannot() {
    let fleet = Fleet::new();
    let (a, b) = (&fleet.machines[0], &fleet.machines[1]);
    claim_at(a, "2026-06-01T10:00:00Z", &["t"]).ok();
    for (m, who) in [(b, "m1"), (a, "m0")] {
        let run = claim_at(m, "2026-06-01T11:00:00Z", &["t"]);
        run.code(1);
        let msg = run.json()["error"]["message"].as_str().unwrap().to_owned();
        assert!(
            msg.contains("claimed by m0") && msg.contains("1h ago"),
            "{who}: {msg}"
        );
    }
    // Renewed by a's publish at 11:30: still live at 13:00.
    let mut publish = a.command();
    publish
        .env("GIT_LOOP_TEST_NOW", "2026-06-01T11:30:00Z")
        .args(["--json", "publish"]);
    let run = TestRepo::output(&mut publish);
    run.ok();
    assert_eq!(run.json()["renewed"], serde_json::json!(["t"]));
    claim_at(b, "2026-06-01T13:00:00Z", &["t"]).code(1);
    // Not renewed for over 2h: taken over.
    let run = claim_at(b, "2026-06-01T13:31:00Z", &["t"]);
    run.ok();
    assert_eq!(run.json()["action"], "taken-over");
    assert_eq!(run.json()["previous"], "m0");
    // A shorter fleet.lease: expired sooner.
    let c = &fleet.machines[2];
    c.git(["config", "loop.fleetLease", "10m"]);
    let run = claim_at(c, "2026-06-01T13:45:00Z", &["t"]);
    run.ok();
    assert_eq!(run.json()["previous"], "m1");
    // Release: only by the holder.
    claim_at(b, "2026-06-01T13:46:00Z", &["t", "--release"]).code(1);
    let run = claim_at(c, "2026-06-01T13:46:00Z", &["t", "--release"]);
    run.ok();
    assert_eq!(run.json()["action"], "released");
    assert!(fleet.remote_refs("refs/loop/claims/").is_empty());
    let run = claim_at(c, "2026-06-01T13:47:00Z", &["t", "--release"]);
    run.ok();
    assert_eq!(run.json()["action"], "not-claimed");
}

/// The daemon stopped: create and mark work as ever; publish fails,
/// `remote-failed`, naming the remote; once it is back, a publish catches
/// up with everything.
#[test]
fn an_unreachable_remote_fails_publish_and_a_later_publish_catches_up() {
    let fleet = Fleet::new();
    let daemon = Daemon::start(&fleet);
    let (url, port) = (daemon.url(), daemon.port);
    fleet.point_at(&url);
    let m = &fleet.machines[0];
    m.create("before").ok();
    m.run(["publish"]).ok();
    drop(daemon);
    m.create("offline").ok();
    m.run(["mark", "before", "escalated"]).ok();
    let run = m.run(["--json", "publish"]);
    run.code(1);
    let err = &run.json()["error"];
    assert_eq!(err["code"], "remote-failed", "{err}");
    assert!(err["message"].as_str().unwrap().contains(&url), "{err}");
    assert!(run.stderr.contains(&url), "{}", run.stderr);
    m.run(["--json", "list", "--fleet"]).code(1);
    let _daemon = Daemon::on(&fleet, port);
    m.run(["publish"]).ok();
    let doc = fleet.machines[1].run(["--json", "list", "--fleet"]);
    doc.ok();
    let runs = doc.json().arr("runs").to_vec();
    let got: BTreeSet<(String, String)> = runs
        .iter()
        .map(|r| (r.text("id").to_owned(), r.text("status").to_owned()))
        .collect();
    let want: BTreeSet<(String, String)> = [("before", "escalated"), ("offline", "active")]
        .map(|(i, s)| (i.to_owned(), s.to_owned()))
        .into_iter()
        .collect();
    assert_eq!(got, want);
}

/// A record commit made in the bare remote by hand: `file` holding
/// `content`, on `parent`, at `name`.
pub(crate) fn plant(
    fleet: &Fleet,
    name: &str,
    file: &str,
    content: &[u8],
    parent: Option<&str>,
) -> String {
    let tmp = fleet.remote.parent().unwrap().join("planted");
    std::fs::write(&tmp, content).unwrap();
    let blob = fleet.remote_git(&["hash-object", "-w", tmp.to_str().unwrap()]);
    let blob = blob.trim();
    let tree_line = format!("100644 blob {blob}\t{file}\n");
    let m = &fleet.machines[0];
    let mut cmd = Command::new("git");
    crate::common::hermetic(&mut cmd, &m.home);
    let mut child = cmd
        .arg("-C")
        .arg(&fleet.remote)
        .arg("mktree")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(tree_line.as_bytes())
        .unwrap();
    let tree = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
    let mut args = vec!["commit-tree", tree.trim(), "-m", "planted"];
    if let Some(p) = parent {
        args.extend(["-p", p]);
    }
    let commit = fleet.remote_git(&args).trim().to_owned();
    fleet.remote_git(&["update-ref", name, &commit]);
    commit
}

fn record_json(machine: &str, id: &str, tip: &str, note: &str) -> String {
    serde_json::json!({
        "version": 1, "machine": machine, "id": id, "branch": format!("loop/{id}"),
        "baseBranch": "main", "pattern": "agent", "status": "active",
        "createdAt": "2026-01-01T00:00:00Z", "publishedAt": "2026-01-01T00:00:00Z",
        "tip": tip, "ahead": 0, "behind": 0,
        "activity": {"activity": "waiting", "at": "2026-01-01T00:00:00Z", "note": note},
        "judge": null, "handoff": null,
        "postCommand": "touch pwned"
    })
    .to_string()
}

/// Records with a `../` id, escape sequences, 10 MB, a name that is no run
/// id, not JSON, and a ref at an object the remote does not have: each
/// reported with its code and skipped; the good ones listed, escaped;
/// nothing written but objects, nothing run.
#[test]
fn a_hostile_remote_is_reported_and_skipped() {
    let fleet = Fleet::new();
    let main = fleet.remote_git(&["rev-parse", "main"]).trim().to_owned();
    let esc = "\u{1b}]0;pwned\u{7}\u{1b}[2J";
    plant(
        &fleet,
        "refs/loop/fleet/evil/ok",
        "record.json",
        record_json("evil", "ok", &main, esc).as_bytes(),
        Some(&main),
    );
    plant(
        &fleet,
        "refs/loop/fleet/evil/dots",
        "record.json",
        record_json("evil", "../../x", &main, "").as_bytes(),
        Some(&main),
    );
    let big = vec![b' '; 10 << 20];
    plant(
        &fleet,
        "refs/loop/fleet/evil/big",
        "record.json",
        &big,
        Some(&main),
    );
    plant(
        &fleet,
        "refs/loop/fleet/evil/notjson",
        "record.json",
        b"\x1b[31m{",
        Some(&main),
    );
    plant(
        &fleet,
        "refs/loop/fleet/evil/deep/er",
        "record.json",
        record_json("evil", "er", &main, "").as_bytes(),
        Some(&main),
    );
    plant(
        &fleet,
        "refs/loop/fleet/evil/nofile",
        "other.json",
        b"{}",
        Some(&main),
    );
    let missing = "0123456789abcdef0123456789abcdef01234567";
    let packed = fleet.remote.join("packed-refs");
    let mut text = std::fs::read_to_string(&packed).unwrap_or_default();
    text.push_str(&format!("{missing} refs/loop/fleet/evil/missing\n"));
    std::fs::write(&packed, text).unwrap();

    let m = &fleet.machines[1];
    let refs_before = m.git(["for-each-ref"]);
    let run = m.run(["--json", "list", "--fleet"]);
    run.ok();
    let doc = run.json();
    let runs: Vec<&str> = doc.arr("runs").iter().map(|r| r.text("id")).collect();
    assert_eq!(runs, ["ok"], "{doc}");
    let skipped: BTreeSet<(String, String)> = doc
        .arr("skipped")
        .iter()
        .map(|s| (s.text("ref").to_owned(), s.text("code").to_owned()))
        .collect();
    let want: BTreeSet<(String, String)> = [
        ("dots", "mismatch"),
        ("big", "too-large"),
        ("notjson", "malformed"),
        ("deep/er", "bad-name"),
        ("nofile", "malformed"),
        ("missing", "missing-object"),
    ]
    .map(|(r, c)| (format!("refs/loop/fleet/evil/{r}"), c.to_owned()))
    .into_iter()
    .collect();
    assert_eq!(skipped, want, "{doc}");
    // The human table: nothing from the remote reaches the terminal raw.
    let human = m.run(["list", "--fleet"]);
    human.ok();
    assert!(!human.stdout.contains('\u{1b}') && !human.stderr.contains('\u{1b}'));
    assert_eq!(
        human.stderr.matches("warning: skipped").count(),
        6,
        "{}",
        human.stderr
    );
    // Nothing written but objects, and nothing run.
    assert_eq!(m.git(["for-each-ref"]), refs_before);
    assert!(!m.root.join("pwned").exists() && !fleet.remote.join("pwned").exists());
    assert_eq!(m.git(["status", "--porcelain"]), "");
}

/// The identity's defaults: the host name, validated as a run id; the
/// base's upstream remote, else `origin`.
#[test]
fn the_fleet_identity_defaults_and_refuses_an_invalid_name() {
    let repo = TestRepo::new();
    let run = repo.run(["--json", "config"]);
    run.ok();
    assert!(
        run.json()["fleet.lease"].to_string().contains("2h"),
        "{}",
        run.stdout
    );
    repo.git(["config", "loop.fleetName", "../x"]);
    let run = repo.run(["--json", "publish"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "invalid-config");
    repo.git(["config", "--unset", "loop.fleetName"]);
    // No remote at all: `origin`, named in the failure.
    let run = repo.run(["--json", "publish"]);
    run.code(1);
    let err = &run.json()["error"];
    assert_eq!(err["code"], "remote-failed");
    assert!(err["message"].as_str().unwrap().contains("origin"), "{err}");
}

/// `fleet.publish`: create and mark publish by themselves; with the remote
/// down, or accepting and never answering, they work as ever, promptly,
/// with one note on stderr; a later publish catches up.
#[test]
fn fleet_publish_publishes_after_create_and_mark_and_never_fails_them() {
    let fleet = Fleet::new();
    let daemon = Daemon::start(&fleet);
    let port = daemon.port;
    fleet.point_at(&daemon.url());
    let (a, b) = (&fleet.machines[0], &fleet.machines[1]);
    a.git(["config", "loop.fleetPublish", "true"]);
    let run = a.create("auto");
    assert!(!run.stderr.contains("note:"), "{}", run.stderr);
    assert_eq!(fleet.remote_refs("refs/loop/fleet/m0/").len(), 1);
    a.run(["mark", "auto", "escalated"]).ok();
    let seen = b.run(["--json", "list", "--fleet"]);
    seen.ok();
    assert_eq!(seen.json().arr("runs")[0]["status"], "escalated");

    drop(daemon);
    let run = a.create("offline");
    assert!(
        run.stderr.contains("note: not published to the fleet"),
        "{}",
        run.stderr
    );
    // A remote that accepts and never answers: cut off.
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let silent_port = silent.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for conn in silent.incoming().take(4) {
            held.push(conn);
        }
        std::thread::sleep(Duration::from_secs(60));
    });
    fleet.point_at(&format!("git://127.0.0.1:{silent_port}/remote.git"));
    let start = Instant::now();
    let run = a.run(["--json", "mark", "offline", "rejected"]);
    run.ok();
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    assert!(
        run.stderr.contains("no answer within 5 s"),
        "{}",
        run.stderr
    );
    assert_eq!(run.json()["status"], "rejected", "{}", run.stdout);

    let daemon = Daemon::on(&fleet, port);
    fleet.point_at(&daemon.url());
    a.run(["publish"]).ok();
    let seen = b.run(["--json", "list", "--fleet"]);
    seen.ok();
    let statuses: BTreeSet<(String, String)> = seen
        .json()
        .arr("runs")
        .iter()
        .map(|r| (r.text("id").to_owned(), r.text("status").to_owned()))
        .collect();
    assert!(statuses.contains(&("offline".to_owned(), "rejected".to_owned())));
}

/// `create <TASK> --claim` takes the task's lease before anything is
/// made: another machine's is refused as `claim` is (`claimed`, exit 1,
/// no worktree, no branch), and a create that fails after the claim
/// releases it.
#[test]
fn create_claim_takes_the_lease_first_and_is_refused_as_claim_is() {
    let fleet = Fleet::new();
    let (a, b) = (&fleet.machines[0], &fleet.machines[1]);
    let run = a.run(["create", "t", "--claim"]);
    run.ok();
    assert!(run.stderr.contains("claimed t as m0"), "{}", run.stderr);
    assert!(a.root.join(".loop-worktrees/t").is_dir());
    assert_eq!(fleet.remote_refs("refs/loop/claims/t").len(), 1);

    let run = b.run(["--json", "create", "t", "--claim"]);
    run.code(1);
    assert_eq!(run.json()["error"]["code"], "claimed", "{}", run.stdout);
    let msg = run.json()["error"]["message"].as_str().unwrap().to_owned();
    assert!(msg.contains("claimed by m0"), "{msg}");
    assert!(!b.root.join(".loop-worktrees/t").exists());
    assert!(b.git(["branch", "--list", "loop/t"]).trim().is_empty());

    // A claimed create that fails (its branch exists) releases the lease.
    b.git(["branch", "loop/u"]);
    let run = b.run(["--json", "create", "u", "--claim"]);
    run.code(1);
    assert_eq!(
        run.json()["error"]["code"],
        "branch-exists",
        "{}",
        run.stdout
    );
    assert!(fleet.remote_refs("refs/loop/claims/u").is_empty());
    // With --attempts, the task is claimed once.
    let run = b.run(["create", "v", "--claim", "--attempts", "2"]);
    run.ok();
    assert_eq!(fleet.remote_refs("refs/loop/claims/v").len(), 1);
    a.run(["create", "v", "--claim", "--attempts", "2"]).code(1);
}

/// `watch --fleet --once`: the fleet listing, every machine's runs (this
/// machine's marked), as `list --fleet` shows it; `--json` its document.
#[test]
fn watch_fleet_once_shows_every_machines_runs() {
    let fleet = Fleet::new();
    let (a, b) = (&fleet.machines[0], &fleet.machines[1]);
    a.create("from-a");
    b.create("from-b");
    for m in [a, b] {
        m.run(["publish"]).ok();
    }
    let run = a.run(["watch", "--fleet", "--once"]);
    run.ok();
    assert!(run.stdout.contains("MACHINE"), "{}", run.stdout);
    let line = |id: &str| {
        run.stdout
            .lines()
            .find(|l| l.contains(id))
            .unwrap_or_default()
            .to_owned()
    };
    assert!(line("from-a").starts_with("* m0"), "{}", run.stdout);
    assert!(line("from-b").starts_with("  m1"), "{}", run.stdout);
    let watched = a.run(["--json", "watch", "--fleet", "--once"]);
    watched.ok();
    let listed = a.run(["--json", "list", "--fleet"]);
    assert_eq!(
        watched.json().arr("runs").len(),
        listed.json().arr("runs").len()
    );
    assert_eq!(watched.json()["machine"], "m0");
}
