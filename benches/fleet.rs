//! The fleet at scale: `cargo bench --bench fleet` (or `scripts/bench`).
//!
//! One bare remote holding 100 machines × 20 runs = 2,000 records
//! (`refs/loop/fleet/m<i>/r<j>`, each a commit of `record.json` on `main`,
//! written untimed by one `git fast-import`), a clone of it made with
//! `--no-local` (so it has none of the records), and, over the remote as a
//! local path:
//! - `list --fleet` once, cold (every record fetched), against `git
//!   ls-remote <remote> 'refs/loop/fleet/*'` (report; the bytes the fetch
//!   added to the object database are printed beside it);
//! - `list --fleet`, warm (the records here: one `ls-remote`, no fetch),
//!   against the same `ls-remote` (target ≤ 2);
//! - `claim` of a new task against one `git push` of a new commit to a new
//!   ref (target ≤ 1.5).
//!
//! Rows interleaved (ABBA), medians. `BENCH_QUICK=1` runs one pair;
//! `BENCH_ITERS=<n>` sets the count.

mod common;

use common::*;
use std::io::Write;
use std::path::Path;
use std::process::Stdio;

const MACHINES: usize = 100;
const RUNS: usize = 20;

fn out(env: &Env, dir: &Path, args: &[&str]) -> String {
    let mut c = env.git(dir, args);
    c.stdout(Stdio::piped());
    let o = c.output().unwrap();
    assert!(o.status.success(), "git {args:?}");
    String::from_utf8(o.stdout).unwrap().trim().to_owned()
}

/// The 2,000 records, written by one `git fast-import` into `remote`.
fn plant_records(env: &Env, remote: &Path, tip: &str) {
    let mut stream = String::new();
    for m in 0..MACHINES {
        for r in 0..RUNS {
            let record = format!(
                r#"{{"version":1,"machine":"m{m}","id":"r{r}","branch":"loop/r{r}","baseBranch":"main","pattern":"agent","status":"active","createdAt":"2026-01-01T00:00:00Z","publishedAt":"2026-01-01T00:00:00Z","tip":"{tip}","ahead":0,"behind":0,"activity":{{"activity":"working","at":"2026-01-01T00:00:00Z","note":null}},"judge":null,"handoff":null}}"#
            );
            stream.push_str(&format!(
                "commit refs/loop/fleet/m{m}/r{r}\ncommitter git-loop <git-loop@localhost> 1767225600 +0000\ndata 7\nrecord\nfrom {tip}\ndeleteall\nM 100644 inline record.json\ndata {}\n{record}\n",
                record.len()
            ));
        }
    }
    let mut c = env.git(remote, &["fast-import", "--quiet"]);
    let mut child = c.stdin(Stdio::piped()).spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stream.as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success(), "git fast-import");
}

/// The client's object database, in bytes (`git count-objects -v`).
fn objects_bytes(env: &Env, dir: &Path) -> u64 {
    out(env, dir, &["count-objects", "-v"])
        .lines()
        .filter_map(|l| l.split_once(": "))
        .filter(|(k, _)| *k == "size" || *k == "size-pack")
        .map(|(_, v)| v.parse::<u64>().unwrap_or(0) * 1024)
        .sum()
}

fn main() {
    let (_tmp, base, env) = setup();
    eprintln!("building the fixture ({MACHINES} machines × {RUNS} runs) in a temporary directory…");
    let seed = base.join("seed");
    init_repo(&env, &seed, 1);
    let remote = base.join("remote.git");
    let remote_s = remote.to_str().unwrap();
    run(env.git(&base, &["init", "-q", "--bare", "-b", "main", remote_s]));
    run(env.git(&seed, &["push", "-q", remote_s, "main"]));
    let tip = out(&env, &seed, &["rev-parse", "main"]);
    plant_records(&env, &remote, &tip);
    let client = base.join("client");
    run(env.git(&base, &["clone", "-q", "--no-local", remote_s, "client"]));
    run(env.git(&client, &["config", "loop.fleetName", "bench"]));
    run(env.git(&client, &["config", "loop.fleetRemote", remote_s]));
    let ls = || env.git(&client, &["ls-remote", remote_s, "refs/loop/fleet/*"]);

    let before = objects_bytes(&env, &client);
    let cold = timed(env.gl(&client, &["list", "--fleet"]));
    let fetched = objects_bytes(&env, &client) - before;
    let mut ls_once = ls();
    ls_once.stdout(Stdio::piped());
    let advertised = ls_once.output().unwrap().stdout.len();
    let ls_cold = timed(ls());

    let it = iters(11, 1);
    let (warm, ls_warm) = compare(
        it,
        |_| timed(env.gl(&client, &["list", "--fleet"])),
        |_| timed(ls()),
        |_| {},
    );
    let empty_tree = out(&env, &client, &["hash-object", "-t", "tree", "/dev/null"]);
    let (claim, push) = compare(
        it,
        |i| timed(env.gl(&client, &["claim", &format!("task-{i}")])),
        |i| {
            let message = format!("push {i}");
            let commit = out(&env, &client, &["commit-tree", &empty_tree, "-m", &message]);
            timed(env.git(
                &client,
                &["push", "-q", remote_s, &format!("{commit}:refs/bench/p{i}")],
            ))
        },
        |_| {},
    );
    let records = MACHINES * RUNS;
    print_rows(&[
        Row {
            scenario: format!("list --fleet, cold, {records} records"),
            ours: cold,
            base: ls_cold,
            target: None,
            note: format!(
                "git ls-remote of the namespace; once; the fetch added {} KiB of objects, the advertisement is {} KiB",
                fetched / 1024,
                advertised / 1024
            ),
        },
        Row {
            scenario: format!("list --fleet, warm, {records} records"),
            ours: warm,
            base: ls_warm,
            target: Some(2.0),
            note: format!("git ls-remote of the namespace; median of {it}"),
        },
        Row {
            scenario: format!("claim, {records} records on the remote"),
            ours: claim,
            base: push,
            target: Some(1.5),
            note: format!("git push of a new commit to a new ref; median of {it}"),
        },
    ]);
}
