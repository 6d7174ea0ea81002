//! The JSON Schemas in schema/: current (equal to what the types generate
//! now), printed by `git loop schema`, and met by every `--json` document
//! the integration tests produce ([`check_json_output`], called by the
//! fixture for each run of the binary).

use std::collections::HashMap;
use std::ffi::OsStr;
use std::sync::OnceLock;

use serde_json::Value;

use crate::common::TestRepo;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn validators() -> &'static HashMap<String, jsonschema::Validator> {
    static CACHE: OnceLock<HashMap<String, jsonschema::Validator>> = OnceLock::new();
    CACHE.get_or_init(|| {
        git_loop::schema::outputs()
            .into_iter()
            .map(|(name, _)| {
                // The checked-in file: what users get (its staleness is
                // checked below).
                let text = std::fs::read_to_string(format!("{ROOT}/schema/{name}.json")).unwrap();
                let schema: Value = serde_json::from_str(&text).unwrap();
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

/// For the fixture: if `args` ask for `--json` of a command with a schema and
/// stdout is one JSON document, it must meet that schema.
pub fn check_json_output<'a>(args: impl Iterator<Item = &'a OsStr>, stdout: &str) {
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
    if let Ok(doc) = serde_json::from_str::<Value>(stdout) {
        check_document(command, &doc);
    }
}

#[test]
fn checked_in_schemas_are_current() {
    let generated = git_loop::schema::files();
    for (name, text) in &generated {
        let path = format!("{ROOT}/schema/{name}");
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            on_disk == *text,
            "schema/{name} is stale: run `cargo run --example generate`"
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

#[test]
fn every_schema_is_draft_2020_12_and_compiles() {
    for (name, schema) in git_loop::schema::outputs() {
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
    // Every checked-in file, by its name (`git-loop.json` is `all`): the
    // generator's list, the compiled-in files and the argument's values agree.
    let mut files: Vec<String> = std::fs::read_dir(format!("{ROOT}/schema"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    assert!(files.len() > 10, "{files:?}");
    for file in &files {
        let stem = file.strip_suffix(".json").unwrap();
        let name = if stem == "git-loop" { "all" } else { stem };
        let run = repo.run(["schema", name]);
        run.ok();
        let on_disk = std::fs::read_to_string(format!("{ROOT}/schema/{file}")).unwrap();
        assert_eq!(run.stdout, on_disk, "{name}");
    }
    let all = repo.run(["schema"]);
    all.ok();
    let index = all.json();
    assert!(index["outputs"]["create"]["properties"]["id"].is_object());
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
