//! Property tests: run-id validation against git itself, the cutoff parser,
//! and the manifest parser (round trips, single-field mutations, arbitrary
//! input). cargo-fuzz needs a nightly toolchain, which this project cannot
//! fetch; the "fuzz" properties below are proptest harnesses.
//!
//! Every property runs [`DEFAULT_CASES`] cases, so the module takes seconds;
//! `GIT_LOOP_PROPTEST_CASES=<n>` runs `n` cases of each for a longer search
//! (README "Test").

use std::process::Command;

use git_loop::manifest::{Entry, Manifest, Status};
use git_loop::runid;
use proptest::prelude::*;

/// The environment variable that sets how many cases each property runs.
const CASES_VAR: &str = "GIT_LOOP_PROPTEST_CASES";
/// Cases per property when [`CASES_VAR`] is unset.
const DEFAULT_CASES: u32 = 256;

/// The config of every property here: [`CASES_VAR`] cases, or
/// [`DEFAULT_CASES`]; no regression files written into the source tree.
fn config() -> ProptestConfig {
    let cases = match std::env::var(CASES_VAR) {
        Ok(text) => text
            .trim()
            .parse()
            .ok()
            .filter(|n| *n > 0)
            .unwrap_or_else(|| {
                panic!("{CASES_VAR}={text:?} is not a number of cases (a positive integer)")
            }),
        Err(std::env::VarError::NotPresent) => DEFAULT_CASES,
        Err(e) => panic!("{CASES_VAR}: {e}"),
    };
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// git's verdict on `loop/<id>` as a branch name.
fn git_accepts(id: &str) -> bool {
    Command::new("git")
        .args(["check-ref-format", "--branch", &format!("loop/{id}")])
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap()
        .status
        .success()
}

/// Rules git-loop adds on top of git's: path-segment rules, reserved names,
/// and Unicode control characters (git refuses only the ASCII ones; the CLI
/// contract refuses all control characters).
fn stricter_than_git(id: &str) -> bool {
    id.chars().any(char::is_control)
        || id.contains('/')
        || id.contains('\\')
        || id.starts_with('-')
        || id.len() > runid::MAX_LEN
        || id == "@"
        || id == "manifest.json"
        || id == "events.jsonl"
}

fn id_strategy() -> impl Strategy<Value = String> {
    let pieces = prop_oneof![
        Just("a".to_owned()),
        Just("Z9".to_owned()),
        Just(".".to_owned()),
        Just("..".to_owned()),
        Just("-".to_owned()),
        Just("/".to_owned()),
        Just("\\".to_owned()),
        Just("@".to_owned()),
        Just("{".to_owned()),
        Just(".lock".to_owned()),
        Just(" ".to_owned()),
        Just("~".to_owned()),
        Just("^".to_owned()),
        Just(":".to_owned()),
        Just("?".to_owned()),
        Just("*".to_owned()),
        Just("[".to_owned()),
        Just("\t".to_owned()),
        Just("\u{1}".to_owned()),
        Just("\u{7f}".to_owned()),
        Just("é".to_owned()),
        Just("日本".to_owned()),
        Just("🦀".to_owned()),
        Just("\u{200b}".to_owned()),
        "[a-z0-9_]{1,3}",
        any::<char>()
            .prop_filter("NUL cannot be an argument", |c| *c != '\0')
            .prop_map(String::from),
    ];
    prop::collection::vec(pieces, 1..6).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(config())]

    /// Whatever git refuses, git-loop refuses; whatever git-loop refuses and
    /// git accepts is one of git-loop's own documented extra rules.
    #[test]
    fn run_ids_agree_with_git_check_ref_format(id in id_strategy()) {
        let ours = runid::problem(&id).is_none();
        let gits = git_accepts(&id);
        if ours {
            prop_assert!(gits, "git-loop accepts {id:?}, git refuses it");
        } else if gits {
            prop_assert!(stricter_than_git(&id), "git-loop refuses {id:?} ({:?}), git accepts it", runid::problem(&id));
        }
    }

    #[test]
    fn cutoffs_parse_exactly_n_units(n in 0u32..1_000_000, unit in prop::sample::select(vec![('s', 1i64), ('m', 60), ('h', 3600), ('d', 86_400)])) {
        let d = git_loop::time::parse_cutoff(&format!("{n}{}", unit.0)).unwrap();
        prop_assert_eq!(d.as_secs(), i64::from(n) * unit.1);
    }

    #[test]
    fn cutoff_parser_accepts_only_digits_then_one_unit(text in "\\PC{0,12}") {
        if git_loop::time::parse_cutoff(&text).is_some() {
            let (digits, unit) = text.split_at(text.len() - 1);
            prop_assert!(!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()));
            prop_assert!(matches!(unit, "s" | "m" | "h" | "d"));
        }
    }
}

fn valid_id() -> impl Strategy<Value = String> {
    "[a-z][a-z0-9_.-]{0,10}[a-z0-9]".prop_filter("valid", |id| runid::problem(id).is_none())
}

fn entry_strategy() -> impl Strategy<Value = Entry> {
    (
        valid_id(),
        "[a-z/]{1,12}",
        "\\PC{1,20}",
        0i64..4_000_000_000,
        0u32..1_000_000_000,
        prop::sample::select(Status::ALL.to_vec()),
    )
        .prop_map(|(id, base, pattern, secs, nanos, status)| {
            let ts = jiff::Timestamp::new(secs, nanos as i32).unwrap();
            let mut e = Entry::new(&id, &base, &pattern, ts);
            e.status = status;
            e
        })
}

fn manifest_strategy() -> impl Strategy<Value = Manifest> {
    prop::collection::vec(entry_strategy(), 0..6).prop_map(|mut entries| {
        let mut seen = std::collections::HashSet::new();
        entries.retain(|e| seen.insert(e.id.clone()));
        Manifest {
            version: 1,
            worktrees: entries,
        }
    })
}

/// A JSON value of a different kind than `v`, or a broken variant of it.
fn replacement_values(v: &serde_json::Value) -> Vec<serde_json::Value> {
    use serde_json::json;
    let mut out = vec![
        json!(null),
        json!(true),
        json!(7),
        json!(-1.5),
        json!([]),
        json!({}),
        json!(""),
    ];
    if let Some(s) = v.as_str() {
        out.push(json!(format!("{s}/x")));
        out.push(json!(format!("../{s}")));
        out.push(json!(format!("/{s}")));
        out.push(json!(s.to_uppercase() + "\u{0}"));
    }
    out.retain(|r| r != v);
    out
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn manifests_round_trip(m in manifest_strategy()) {
        let text = m.to_json();
        prop_assert_eq!(Manifest::parse(&text).unwrap(), m);
    }

    /// Every structural single-field mutation — a key removed, an unknown key
    /// added, a value replaced by another type or a broken string, a derived
    /// field (path, branch) or the id changed alone, the version changed, an
    /// entry duplicated — is refused or parses to the same meaning. (Free-text
    /// fields changed to another valid text legitimately mean something else,
    /// so those are not mutations here.)
    #[test]
    fn single_field_mutations_are_refused_or_harmless(m in manifest_strategy().prop_filter("non-empty", |m| !m.worktrees.is_empty())) {
        let original: serde_json::Value = serde_json::from_str(&m.to_json()).unwrap();
        let mut mutants: Vec<serde_json::Value> = Vec::new();
        for v in replacement_values(&original["version"]).into_iter().chain([serde_json::json!(2), serde_json::json!(0)]) {
            let mut x = original.clone();
            x["version"] = v;
            mutants.push(x);
        }
        for key in ["version", "worktrees"] {
            let mut x = original.clone();
            x.as_object_mut().unwrap().remove(key);
            mutants.push(x);
        }
        let mut x = original.clone();
        x["extra"] = serde_json::json!(1);
        mutants.push(x);
        let mut x = original.clone();
        let first = x["worktrees"][0].clone();
        x["worktrees"].as_array_mut().unwrap().push(first);
        mutants.push(x);
        for key in ["id", "path", "branch", "baseBranch", "pattern", "createdAt", "status"] {
            let value = original["worktrees"][0][key].clone();
            let mut x = original.clone();
            x["worktrees"][0].as_object_mut().unwrap().remove(key);
            mutants.push(x);
            let mut x = original.clone();
            x["worktrees"][0]["unknown"] = serde_json::json!("x");
            mutants.push(x);
            let free_text = matches!(key, "baseBranch" | "pattern");
            for r in replacement_values(&value) {
                if free_text && r.as_str().is_some_and(|s| !s.is_empty() && !s.contains('\0')) {
                    continue;
                }
                let mut x = original.clone();
                x["worktrees"][0][key] = r;
                mutants.push(x);
            }
        }
        let mut x = original.clone();
        x["worktrees"][0]["id"] = serde_json::json!(format!("{}x", original["worktrees"][0]["id"].as_str().unwrap()));
        mutants.push(x);
        let mut x = original.clone();
        x["worktrees"][0]["status"] = serde_json::json!("Active");
        mutants.push(x);
        let mut x = original.clone();
        x["worktrees"][0]["createdAt"] = serde_json::json!("2026-01-01T00:00:00+00:00");
        mutants.push(x);

        for mutant in mutants {
            if let Ok(parsed) = Manifest::parse(&mutant.to_string()) {
                prop_assert_eq!(&parsed, &m, "mutant accepted with another meaning: {}", mutant);
            }
        }
    }
}

proptest! {
    #![proptest_config(config())]

    /// Fuzz: arbitrary text never panics the manifest parser or the run-id check.
    #[test]
    fn fuzz_parsers_never_panic(text in "\\PC*|[{}\\[\\]\",:0-9a-z\\\\ ]{0,64}") {
        let _ = Manifest::parse(&text);
        let _ = runid::problem(&text);
        let _ = git_loop::time::parse_cutoff(&text);
    }

}

proptest! {
    #![proptest_config(config())]

    /// Fuzz: JSON-shaped input built from the manifest's own keys.
    #[test]
    fn fuzz_manifest_shaped_json(parts in prop::collection::vec(prop_oneof![
        Just("{".to_owned()), Just("}".to_owned()), Just("[".to_owned()), Just("]".to_owned()),
        Just(",".to_owned()), Just(":".to_owned()), Just("\"version\"".to_owned()), Just("1".to_owned()),
        Just("\"worktrees\"".to_owned()), Just("\"id\"".to_owned()), Just("\"a\"".to_owned()),
        Just("\"path\"".to_owned()), Just("\".loop-worktrees/a\"".to_owned()), Just("\"status\"".to_owned()),
        Just("\"active\"".to_owned()), Just("\"createdAt\"".to_owned()), Just("\"2026-01-01T00:00:00Z\"".to_owned()),
        Just("null".to_owned()), Just("\"\\u0000\"".to_owned()),
    ], 0..40)) {
        let text = parts.concat();
        if let Ok(m) = Manifest::parse(&text) {
            // Anything accepted must survive a round trip unchanged in meaning.
            prop_assert_eq!(Manifest::parse(&m.to_json()).unwrap(), m);
        }
    }
}

proptest! {
    #![proptest_config(config())]

    /// The fast timestamp path agrees with jiff on every input it accepts.
    #[test]
    fn fast_timestamp_parser_agrees_with_jiff(secs in -62_135_596_800i64..253_402_300_799, nanos in 0u32..1_000_000_000, digits in 0usize..10, garbage in "[0-9TZ:.+-]{0,30}") {
        let ts = jiff::Timestamp::new(secs, nanos as i32).unwrap();
        let full = ts.to_string();
        let text = match full.split_once('.') {
            Some((head, _)) if digits == 0 => format!("{head}Z"),
            Some((head, frac)) => format!("{head}.{}Z", &format!("{:0<9}", frac.trim_end_matches('Z'))[..digits.min(9)]),
            None if digits == 0 => full.clone(),
            None => format!("{}.{}Z", full.trim_end_matches('Z'), "0".repeat(digits)),
        };
        for candidate in [text.as_str(), garbage.as_str()] {
            if let Some(fast) = git_loop::manifest::parse_utc_fast(candidate) {
                prop_assert_eq!(Some(fast), candidate.parse::<jiff::Timestamp>().ok(), "{}", candidate);
            }
        }
    }
}
