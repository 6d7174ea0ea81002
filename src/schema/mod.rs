//! JSON Schemas (draft 2020-12) of every `--json` document and of the MCP
//! tools' inputs, generated from the Rust types that are serialized (and,
//! for the inputs, the argument structs clap parses). They are checked into
//! `schema/` by `cargo run --example generate`, kept current by a test, and
//! printed by `git loop schema` from the checked-in files.

mod impls;

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema};
use serde_json::{Value, json};

use crate::commands::{
    branches::BranchesReport, cleanup::CleanupReport, config::ConfigReport,
    conflicts::ConflictsReport, create::CreateReport, list::ListReport, log::LogReport,
    mark::MarkReport, mark::detect::DetectReport, path::PathReport, pool::report::PoolReport,
    reconcile::ReconcileReport, restore::RestoreReport, restore::list::SalvagedList,
    trash::TrashReport, trust::TrustReport,
};

/// `list --json` prints the runs, or with `--salvaged` the salvaged ones.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum ListOutput {
    Runs(ListReport),
    Salvaged(SalvagedList),
}

/// `mark --json` prints one of two documents: a run's new status, or with
/// `--detect-merged` the runs found merged.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum MarkOutput {
    Status(MarkReport),
    DetectMerged(DetectReport),
}

/// The document every command prints with `--json` when it fails.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct ErrorDocument {
    error: ErrorBody,
}

#[derive(JsonSchema)]
#[allow(dead_code)]
struct ErrorBody {
    /// A stable kebab-case code (`unknown-id`, `usage`, …)
    code: String,
    /// One line naming the offending value
    message: String,
}

/// One inlined schema: no `$defs`, so each file (and each part of
/// `git-loop.json`) stands alone.
fn schema_of<T: JsonSchema>(title: &str) -> Value {
    let mut settings = SchemaSettings::draft2020_12();
    settings.inline_subschemas = true;
    let mut schema: Schema = settings.into_generator().into_root_schema_for::<T>();
    schema.insert("title".into(), json!(title));
    schema.to_value()
}

/// The `--json` document of each command that prints one, by command
/// (`remove` prints cleanup's), and `error`, the failure document.
pub fn outputs() -> Vec<(&'static str, Value)> {
    let doc = |c: &str| format!("git loop {c} --json");
    vec![
        ("branches", schema_of::<BranchesReport>(&doc("branches"))),
        ("cleanup", schema_of::<CleanupReport>(&doc("cleanup"))),
        ("config", schema_of::<ConfigReport>(&doc("config"))),
        ("create", schema_of::<CreateReport>(&doc("create"))),
        ("list", schema_of::<ListOutput>(&doc("list"))),
        ("log", schema_of::<LogReport>(&doc("log"))),
        ("conflicts", schema_of::<ConflictsReport>(&doc("conflicts"))),
        ("mark", schema_of::<MarkOutput>(&doc("mark"))),
        ("path", schema_of::<PathReport>(&doc("path"))),
        ("pool", schema_of::<PoolReport>(&doc("pool"))),
        ("reconcile", schema_of::<ReconcileReport>(&doc("reconcile"))),
        ("remove", schema_of::<CleanupReport>(&doc("remove"))),
        ("restore", schema_of::<RestoreReport>(&doc("restore"))),
        ("trash", schema_of::<TrashReport>(&doc("trash"))),
        ("trust", schema_of::<TrustReport>(&doc("trust"))),
        (
            "error",
            schema_of::<ErrorDocument>("any git-loop --json command that fails"),
        ),
    ]
}

/// The checked-in files: `<command>.json` for each output, `mcp-tools.json`
/// (each tool's input schema, as `tools/list` shows it), and
/// `git-loop.json`, all of them in one document.
pub fn files() -> Vec<(String, String)> {
    let outputs = outputs();
    let tools: serde_json::Map<String, Value> = crate::mcp::input_schemas().into_iter().collect();
    let mut all = serde_json::Map::new();
    for (name, schema) in &outputs {
        all.insert((*name).to_owned(), schema.clone());
    }
    let index = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "git-loop: every --json document, and the MCP tools' inputs",
        "outputs": all,
        "mcpToolInputs": tools,
    });
    let text = |v: &Value| serde_json::to_string_pretty(v).expect("a schema is JSON") + "\n";
    let mut files: Vec<(String, String)> = outputs
        .iter()
        .map(|(name, schema)| (format!("{name}.json"), text(schema)))
        .collect();
    files.push(("mcp-tools.json".into(), text(&Value::Object(tools))));
    files.push(("git-loop.json".into(), text(&index)));
    files
}
