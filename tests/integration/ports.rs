//! Ports that never collide (`create.ports`, `create --ports`): leased on
//! real sockets, distinct among live runs, never one a foreign listener
//! holds, released by removal, reclaimed after a `kill -9`; given to `env`,
//! `run` and `create.post-command` as `GIT_LOOP_PORT` and `GIT_LOOP_PORT_1`….

use std::collections::HashSet;
use std::fs;
use std::net::{Ipv4Addr, TcpListener};
use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

use crate::common::{TestRepo, age_file, kill_9_at};

fn lease_file(repo: &TestRepo) -> PathBuf {
    repo.root.join(".git/git-loop/ports.json")
}

/// The leases as written: run id -> its ports.
fn leases(repo: &TestRepo) -> Vec<(String, Vec<u16>)> {
    let text = fs::read_to_string(lease_file(repo)).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    v["leases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let ports = l["ports"].as_array().unwrap();
            let ports = ports.iter().map(|p| p.as_u64().unwrap() as u16).collect();
            (l["id"].as_str().unwrap().to_owned(), ports)
        })
        .collect()
}

fn ports_of(run: &Value) -> Vec<u16> {
    run["ports"]
        .as_array()
        .unwrap_or_else(|| panic!("no ports in {run}"))
        .iter()
        .map(|p| p.as_u64().unwrap() as u16)
        .collect()
}

fn repo_with_ports(n: usize) -> TestRepo {
    let repo = TestRepo::new();
    repo.git(["config", "loop.createPorts", &n.to_string()]);
    repo
}

fn bind(port: u16) -> TcpListener {
    TcpListener::bind((Ipv4Addr::LOCALHOST, port))
        .unwrap_or_else(|e| panic!("port {port} is not bindable: {e}"))
}

#[test]
fn twenty_concurrent_creates_lease_sixty_distinct_ports_each_bindable() {
    let repo = repo_with_ports(3);
    // Each thread binds its run's ports as soon as its create returns, and
    // keeps them: a port leased twice, or held by anyone, fails the bind.
    let held: Vec<(String, Vec<u16>, Vec<TcpListener>)> = std::thread::scope(|s| {
        let threads: Vec<_> = (0..20)
            .map(|i| {
                let repo = &repo;
                s.spawn(move || {
                    let id = format!("r{i}");
                    // Not `repo.run`: with creates in flight, the mutex
                    // is another's to hold.
                    let run = TestRepo::output(repo.command().args([
                        "create",
                        &id,
                        "--pattern",
                        "p",
                        "--json",
                    ]));
                    run.ok();
                    let ports = ports_of(&run.json());
                    let listeners = ports.iter().map(|p| bind(*p)).collect();
                    (id, ports, listeners)
                })
            })
            .collect();
        threads.into_iter().map(|t| t.join().unwrap()).collect()
    });
    let all: HashSet<u16> = held.iter().flat_map(|(_, p, _)| p.clone()).collect();
    assert_eq!(all.len(), 60, "{held:?}");
    assert!(held.iter().all(|(_, p, _)| p.len() == 3));
    let mut written = leases(&repo);
    written.sort();
    let mut reported: Vec<(String, Vec<u16>)> = held
        .iter()
        .map(|(id, p, _)| (id.clone(), p.clone()))
        .collect();
    reported.sort();
    assert_eq!(
        written, reported,
        "the lease file lists what create reported"
    );
}

#[test]
fn a_port_a_foreign_listener_holds_is_never_leased() {
    let repo = repo_with_ports(4);
    // A block of foreign listeners on ports the kernel chose: the ports the
    // allocator is offered interleave with them.
    let foreign: Vec<TcpListener> = (0..256)
        .map(|_| TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap())
        .collect();
    let held: HashSet<u16> = foreign
        .iter()
        .map(|l| l.local_addr().unwrap().port())
        .collect();
    let mut leased = Vec::new();
    for i in 0..5 {
        let run = repo.run(["create", &format!("f{i}"), "--pattern", "p", "--json"]);
        run.ok();
        leased.extend(ports_of(&run.json()));
    }
    assert!(
        leased.iter().all(|p| !held.contains(p)),
        "a held port was leased: {leased:?}"
    );
    // And each leased one is free while the foreign ones are still held.
    let _bound: Vec<TcpListener> = leased.iter().map(|p| bind(*p)).collect();
    drop(foreign);
}

#[test]
fn removal_releases_the_lease() {
    let repo = repo_with_ports(2);
    repo.create("gone");
    repo.create("stays");
    let ids = |repo: &TestRepo| -> Vec<String> { leases(repo).into_iter().map(|l| l.0).collect() };
    assert_eq!(ids(&repo), ["gone", "stays"]);
    repo.run(["mark", "gone", "rejected"]).ok();
    repo.run(["remove", "gone"]).ok();
    assert_eq!(ids(&repo), ["stays"], "remove released the lease");
    repo.run(["mark", "stays", "rejected"]).ok();
    repo.run(["cleanup"]).ok();
    assert!(ids(&repo).is_empty(), "cleanup released the lease");
}

#[test]
fn a_kill_9_mid_create_leaks_no_lease_for_good() {
    let repo = repo_with_ports(3);
    repo.create("first");
    // Killed after its lease is written, before the manifest records it.
    kill_9_at(
        &repo,
        "before-manifest-write",
        &["create", "x", "--pattern", "p"],
    );
    let ids: Vec<String> = leases(&repo).into_iter().map(|l| l.0).collect();
    assert_eq!(ids, ["first", "x"], "the killed create's lease is on file");
    assert!(repo.status_of("x").is_none(), "x was never recorded");
    // The next create reclaims it (its run is not in the manifest).
    age_file(&repo.mutex_path(), 31);
    repo.create("next");
    let ids: Vec<String> = leases(&repo).into_iter().map(|l| l.0).collect();
    assert_eq!(ids, ["first", "next"], "x's lease is reclaimed");
}

#[test]
fn a_run_that_is_no_longer_active_gives_its_ports_back_to_the_next_create() {
    let repo = repo_with_ports(1);
    repo.create("done");
    repo.run(["mark", "done", "merged"]).ok();
    repo.create("new");
    let ids: Vec<String> = leases(&repo).into_iter().map(|l| l.0).collect();
    assert_eq!(ids, ["new"]);
}

/// `eval "$(git loop env x)"` in bash, then print what `script` prints.
fn bash_after_env(repo: &TestRepo, id: &str, script: &str) -> String {
    let script = format!("eval \"$(\"$0\" env {id})\"; {script}");
    let out = Command::new("bash")
        .current_dir(&repo.root)
        .env("HOME", &repo.home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", repo.home.join("gitconfig"))
        .args(["-c", &script, crate::common::BIN])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

const PRINT_PORTS: &str = r#"printf '%s\n' "$GIT_LOOP_PORT" "$GIT_LOOP_PORT_1" "$GIT_LOOP_PORT_2" "$GIT_LOOP_PORT_3" "${GIT_LOOP_PORT_4-unset}""#;

fn expected_ports(ports: &[u16]) -> String {
    format!(
        "{}\n{}\n{}\n{}\nunset\n",
        ports[0], ports[0], ports[1], ports[2]
    )
}

#[test]
fn env_evaluated_by_bash_gives_the_port_variables() {
    let repo = repo_with_ports(3);
    let run = repo.run(["create", "x", "--pattern", "p", "--json"]);
    run.ok();
    let ports = ports_of(&run.json());
    assert_eq!(
        bash_after_env(&repo, "x", PRINT_PORTS),
        expected_ports(&ports)
    );
    let json = repo.run(["--json", "env", "x"]);
    json.ok();
    let v = json.json();
    assert_eq!(v["GIT_LOOP_PORT"], ports[0].to_string());
    assert_eq!(v["GIT_LOOP_PORT_3"], ports[2].to_string());
    assert_eq!(v.as_object().unwrap().len(), 8);
}

#[test]
fn run_sees_the_ports() {
    let repo = repo_with_ports(3);
    let run = repo.run(["create", "x", "--pattern", "p", "--json"]);
    run.ok();
    let ports = ports_of(&run.json());
    let inside = repo.run(["run", "x", "--", "sh", "-c", PRINT_PORTS]);
    inside.ok();
    assert_eq!(inside.stdout, expected_ports(&ports));
}

#[test]
fn post_command_sees_the_ports() {
    let repo = repo_with_ports(3);
    let cmd = format!("{PRINT_PORTS} > ports.txt");
    repo.git(["config", "loop.createPostCommand", &cmd]);
    let run = repo.run(["create", "x", "--pattern", "p", "--json"]);
    run.ok();
    let ports = ports_of(&run.json());
    let seen = fs::read_to_string(repo.wt("x").join("ports.txt")).unwrap();
    assert_eq!(seen, expected_ports(&ports));
}

#[test]
fn the_flag_overrides_the_setting_and_none_is_the_default() {
    let repo = TestRepo::new();
    let plain = repo.run(["create", "plain", "--pattern", "p", "--json"]);
    plain.ok();
    assert!(plain.json().get("ports").is_none(), "{}", plain.stdout);
    assert!(!lease_file(&repo).exists(), "no ports, no lease file");
    let env = repo.run(["env", "plain"]);
    assert!(!env.stdout.contains("GIT_LOOP_PORT"), "{}", env.stdout);
    let two = repo.run(["create", "two", "--pattern", "p", "--ports", "2", "--json"]);
    two.ok();
    assert_eq!(ports_of(&two.json()).len(), 2);
    assert!(two.stderr.is_empty() || !two.stderr.contains("error"));
    repo.git(["config", "loop.createPorts", "3"]);
    let none = repo.run(["create", "none", "--pattern", "p", "--ports", "0", "--json"]);
    none.ok();
    assert!(none.json().get("ports").is_none());
    let human = repo.run(["create", "three", "--pattern", "p"]);
    human.ok();
    assert!(human.stderr.contains("leased ports "), "{}", human.stderr);
}

#[test]
fn a_port_count_out_of_range_is_refused_naming_it() {
    let repo = TestRepo::new();
    let flag = repo.run(["create", "x", "--pattern", "p", "--ports", "33"]);
    flag.code(2);
    assert!(
        flag.stderr.contains("\"33\" is not a port count"),
        "{}",
        flag.stderr
    );
    repo.git(["config", "loop.createPorts", "1000"]);
    let setting = repo.run(["create", "x", "--pattern", "p"]);
    setting.code(1);
    assert!(
        setting.stderr.contains("loop.createPorts") && setting.stderr.contains("\"1000\""),
        "{}",
        setting.stderr
    );
    assert!(!repo.manifest_path().exists(), "nothing recorded");
}

/// `create <TASK> --attempts N` leases each attempt its own ports (with
/// `--ports`, or `create.ports`), distinct from each other and from every
/// live run's, recorded in the lease file and given to `env`; the
/// attempts' removal releases them.
#[test]
fn attempts_are_leased_their_own_ports() {
    let repo = repo_with_ports(2);
    let single = repo.run(["create", "one", "--pattern", "p", "--json"]);
    single.ok();
    let mut seen: HashSet<u16> = ports_of(&single.json()).into_iter().collect();
    let made = repo.run([
        "create",
        "fix",
        "--attempts",
        "3",
        "--pattern",
        "p",
        "--ports",
        "3",
        "--json",
    ]);
    made.ok();
    let doc = made.json();
    let attempts = doc
        .as_array()
        .unwrap_or_else(|| panic!("not a list: {doc}"));
    assert_eq!(attempts.len(), 3);
    for a in attempts {
        let ports = ports_of(a);
        assert_eq!(ports.len(), 3, "{a}");
        for p in ports {
            assert!(seen.insert(p), "port {p} leased twice: {doc}");
        }
    }
    let held = leases(&repo);
    for id in ["one", "fix.1", "fix.2", "fix.3"] {
        assert!(held.iter().any(|(l, _)| l == id), "{id}: {held:?}");
    }
    let env = repo.run(["env", "fix.2", "--json"]);
    env.ok();
    let fix2 = attempts.iter().find(|a| a["id"] == "fix.2").unwrap();
    assert_eq!(
        env.json()["GIT_LOOP_PORT"].as_str().unwrap(),
        ports_of(fix2)[0].to_string()
    );
    repo.run(["mark", "fix.1", "fix.2", "fix.3", "rejected"])
        .ok();
    repo.run(["remove", "fix.1", "fix.2", "fix.3"]).ok();
    let held = leases(&repo);
    assert_eq!(held.len(), 1, "{held:?}");
    assert_eq!(held[0].0, "one");
}

/// A record of the attempts that fails (its manifest write) drops the
/// leases made in the same hold of the mutex and undoes every attempt.
#[test]
fn attempts_whose_record_fails_leave_no_lease_and_no_attempt() {
    let repo = TestRepo::new();
    let out = repo
        .command()
        .env("GIT_LOOP_TEST_FAIL", "manifest-write")
        .args([
            "create",
            "wide",
            "--attempts",
            "3",
            "--pattern",
            "p",
            "--ports",
            "2",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    for k in 1..=3 {
        assert!(
            !repo.root.join(format!(".loop-worktrees/wide.{k}")).exists(),
            "{stderr}"
        );
    }
    if lease_file(&repo).exists() {
        assert!(leases(&repo).is_empty(), "{:?}", leases(&repo));
    }
}
