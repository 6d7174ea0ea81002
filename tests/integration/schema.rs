//! The JSON Schemas in schema/: met by every `--json` document the
//! integration tests produce ([`check_json_output`], called by the fixture
//! for each run of the binary), printed by `git loop schema`, and current
//! (equal to what the types generate now: the one test that needs the
//! generator, `--features generate`, which the project's test command
//! enables). The checked-in files are the contract: the documents are
//! validated against them, not against what the generator would make.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::process::ExitStatus;
use std::sync::OnceLock;

use git_loop::cli::SchemaName;
use serde_json::Value;

use crate::common::TestRepo;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The checked-in schema of each document: every [`SchemaName`] but `all`
/// and `mcp-tools`, by name.
fn checked_in() -> Vec<(&'static str, Value)> {
    SchemaName::all()
        .iter()
        .filter(|n| !matches!(n, SchemaName::All | SchemaName::McpTools))
        .map(|n| {
            let path = format!("{ROOT}/schema/{}", n.file());
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let schema =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path} is not JSON: {e}"));
            (n.as_str(), schema)
        })
        .collect()
}

fn validators() -> &'static HashMap<String, jsonschema::Validator> {
    static CACHE: OnceLock<HashMap<String, jsonschema::Validator>> = OnceLock::new();
    CACHE.get_or_init(|| {
        checked_in()
            .into_iter()
            .map(|(name, schema)| {
                let validator = jsonschema::validator_for(&schema)
                    .unwrap_or_else(|e| panic!("schema/{name}.json is not a valid schema: {e}"));
                (name.to_owned(), validator)
            })
            .collect()
    })
}

/// Panic unless `doc` is a valid output of `command`, or the error document.
pub fn check_document(command: &str, doc: &Value) {
    let all = validators();
    let Some(validator) = all.get(command) else {
        return;
    };
    if validator.is_valid(doc) {
        return;
    }
    let only_error = doc.as_object().is_some_and(|o| o.len() == 1);
    if only_error && all["error"].is_valid(doc) {
        return;
    }
    let errors: Vec<String> = validator
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    panic!(
        "`{command} --json` printed a document its schema (schema/{command}.json) refuses:\n{}\n{doc}",
        errors.join("\n")
    );
}

/// For the fixture: if `args` ask for `--json` of a command with a schema,
/// stdout must be one JSON document, and meet that schema. Only a process
/// killed by a signal (the crash tests abort it part way) may print none.
pub fn check_json_output<'a>(
    args: impl Iterator<Item = &'a OsStr>,
    status: ExitStatus,
    stdout: &str,
) {
    let args: Vec<&str> = args
        .map(|a| a.to_str().unwrap_or(""))
        .take_while(|a| *a != "--")
        .collect();
    if !args.contains(&"--json") || args.contains(&"--ids") {
        return;
    }
    let mut words = args.iter();
    let command = loop {
        match words.next() {
            None => return,
            Some(&"-C" | &"--repo") => {
                words.next();
            }
            Some(word) if word.starts_with('-') => {}
            Some(word) => break *word,
        }
    };
    if !validators().contains_key(command) || status.code().is_none() {
        return;
    }
    match serde_json::from_str::<Value>(stdout) {
        Ok(doc) => check_document(command, &doc),
        Err(e) => panic!(
            "`{}` ({status}) printed no JSON document on stdout ({e}): {stdout:?}",
            args.join(" ")
        ),
    }
}

/// Regenerate in memory and compare with schema/: needs the generator.
#[test]
#[cfg_attr(
    not(feature = "generate"),
    ignore = "needs the generator: cargo test --features generate (scripts/test does)"
)]
fn checked_in_schemas_are_current() {
    #[cfg(not(feature = "generate"))]
    panic!("built without the generate feature: run with --features generate");
    #[cfg(feature = "generate")]
    {
        let generated = git_loop::schema::files();
        for (name, text) in &generated {
            let path = format!("{ROOT}/schema/{name}");
            let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(
                on_disk == *text,
                "schema/{name} is stale: run `cargo run --features generate --example generate`"
            );
        }
        let mut names: Vec<String> = std::fs::read_dir(format!("{ROOT}/schema"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let mut expected: Vec<String> = generated.into_iter().map(|(n, _)| n).collect();
        expected.sort();
        assert_eq!(names, expected, "schema/ holds a file nothing generates");
    }
}

#[test]
fn every_schema_is_draft_2020_12_and_compiles() {
    for (name, schema) in checked_in() {
        assert_eq!(
            schema["$schema"], "https://json-schema.org/draft/2020-12/schema",
            "{name}"
        );
        assert!(jsonschema::draft202012::meta::is_valid(&schema), "{name}");
    }
    let tools: Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{ROOT}/schema/mcp-tools.json")).unwrap(),
    )
    .unwrap();
    for (tool, schema) in tools.as_object().unwrap() {
        assert!(jsonschema::draft202012::meta::is_valid(schema), "{tool}");
        assert_eq!(schema["type"], "object", "{tool}");
    }
}

#[test]
fn git_loop_schema_prints_the_checked_in_files() {
    let repo = TestRepo::new();
    // Every checked-in file is a name's (`git-loop.json` is `all`'s), and
    // each name prints its file.
    let mut files: Vec<String> = std::fs::read_dir(format!("{ROOT}/schema"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    let mut named: Vec<String> = SchemaName::all().iter().map(|n| n.file()).collect();
    named.sort();
    assert_eq!(files, named, "schema/ and the names disagree");
    for name in SchemaName::all() {
        let run = repo.run(["schema", name.as_str()]);
        run.ok();
        let on_disk = std::fs::read_to_string(format!("{ROOT}/schema/{}", name.file())).unwrap();
        assert_eq!(run.stdout, on_disk, "{name:?}");
    }
    let all = repo.run(["schema"]);
    all.ok();
    let index = all.json();
    assert!(index["outputs"]["create"]["anyOf"][0]["properties"]["id"].is_object());
    assert!(index["mcpToolInputs"]["cleanup"]["properties"]["dry_run"].is_object());
    let bad = repo.run(["schema", "nope"]);
    bad.code(2);
    assert_eq!(bad.stdout, "");
}

/// The validation is real: a document that breaks a schema is refused.
#[test]
#[should_panic(expected = "refuses")]
fn a_document_off_its_schema_is_refused() {
    check_document("path", &serde_json::json!({"id": 7, "path": "/x"}));
}

/// A `--json` run of a command with a schema that prints anything but one
/// JSON document fails the test that ran it (it used to pass unchecked).
#[test]
#[should_panic(expected = "printed no JSON document")]
fn a_json_run_that_prints_no_document_is_refused() {
    use std::os::unix::process::ExitStatusExt;
    let args = ["--json", "list"].map(OsStr::new);
    check_json_output(args.into_iter(), ExitStatus::from_raw(0), "run-1\n");
}

/// The schemas are read by people writing scripts and by agents, not by
/// Rust programmers: no description names a Rust module or type path
/// (`crate::…`, `manifest::EntryOut`), as the doc comments they come from
/// once did.
#[test]
fn no_schema_description_names_rust_internals() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/schema");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        for (i, _) in text.match_indices("::") {
            let before = &text[..i];
            let word: String = before
                .chars()
                .rev()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            assert!(
                word.is_empty(),
                "{} names a Rust path near {:?}",
                path.display(),
                &text[i.saturating_sub(40)..(i + 30).min(text.len())]
            );
        }
    }
}

/// The schemas speak to their readers, not in Rust: no description holds a
/// rustdoc link (`[`EventKind`]`) or a Rust path (`crate::…`).
#[test]
fn no_schema_description_holds_rustdoc() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schema");
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        for bad in ["[`", "crate::", "`]("] {
            if text.contains(bad) {
                found.push(format!("{}: {bad}", path.display()));
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}
