//! The generator of the JSON Schemas (draft 2020-12) of every `--json`
//! document and of the MCP tools' inputs, from the Rust types that are
//! serialized (and, for the inputs, the argument structs clap parses). They
//! are checked into `schema/` by `cargo run --features generate --example
//! generate`, kept current by a test, and printed by `git loop schema` from
//! the checked-in files (one per [`SchemaName`]).
//!
//! Behind the `generate` feature: the binary only prints the files, so it
//! carries no generator (and this module, which imports every command's
//! report, is no part of it).

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema};
use serde_json::{Value, json};

use crate::cli::SchemaName;

use crate::commands::handoff::HandoffReport;
use crate::commands::shared::fleet_list::FleetList;
use crate::commands::{
    activity::ActivityReport, branches::BranchesReport, cleanup::CleanupReport,
    config::ConfigReport, conflicts::ConflictsReport, create::AttemptsReport, create::CreateReport,
    env::EnvReport, judge::JudgeReport, land::LandReport, list::ListReport, log::LogReport,
    mark::MarkReport, mark::detect::DetectReport, path::PathReport, pick::PickReport,
    pool::report::PoolReport, reconcile::ReconcileReport, restore::RestoreDocument,
    restore::list::SalvagedList, sync::SyncReport, trash::TrashReport, trust::TrustReport,
};
use crate::commands::{claim::ClaimReport, publish::PublishReport};

/// `list --json` prints the runs, or with `--salvaged` the salvaged ones,
/// or with `--fleet` every machine's published runs.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum ListOutput {
    Runs(ListReport),
    Salvaged(SalvagedList),
    Fleet(FleetList),
}

/// `create --json` prints the run, or with `--attempts` an array of them.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum CreateOutput {
    Run(Box<CreateReport>),
    Attempts(AttemptsReport),
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

/// The schema of `name`'s document: a command's `--json` output (`remove`
/// prints cleanup's), or `error`, the failure document. `None` for `all`
/// and `mcp-tools`, which are not documents a command prints.
fn output(name: SchemaName) -> Option<Value> {
    use SchemaName as N;
    let title = format!("git loop {} --json", name.as_str());
    Some(match name {
        N::All | N::McpTools => return None,
        N::Activity => schema_of::<ActivityReport>(&title),
        N::Env => schema_of::<EnvReport>(&title),
        N::Branches => schema_of::<BranchesReport>(&title),
        N::Cleanup | N::Remove => schema_of::<CleanupReport>(&title),
        N::Config => schema_of::<ConfigReport>(&title),
        N::Conflicts => schema_of::<ConflictsReport>(&title),
        N::Create => schema_of::<CreateOutput>(&title),
        N::Land => schema_of::<LandReport>(&title),
        N::Sync => schema_of::<SyncReport>(&title),
        N::Judge => schema_of::<JudgeReport>(&title),
        N::List => schema_of::<ListOutput>(&title),
        N::Log => schema_of::<LogReport>(&title),
        N::Mark => schema_of::<MarkOutput>(&title),
        N::Path => schema_of::<PathReport>(&title),
        N::Pick => schema_of::<PickReport>(&title),
        N::Pool => schema_of::<PoolReport>(&title),
        N::Reconcile => schema_of::<ReconcileReport>(&title),
        N::Restore => schema_of::<RestoreDocument>(&title),
        N::Trash => schema_of::<TrashReport>(&title),
        N::Trust => schema_of::<TrustReport>(&title),
        N::Publish => schema_of::<PublishReport>(&title),
        N::Claim => schema_of::<ClaimReport>(&title),
        N::Handoff => schema_of::<HandoffReport>(&title),
        N::Error => schema_of::<ErrorDocument>("any git-loop --json command that fails"),
    })
}

/// The document schema of each name that has one, by name.
pub fn outputs() -> Vec<(&'static str, Value)> {
    SchemaName::all()
        .iter()
        .filter_map(|&name| Some((name.as_str(), output(name)?)))
        .collect()
}

/// The checked-in files, one per [`SchemaName`] ([`SchemaName::file`]):
/// each output's, `mcp-tools.json` (each tool's input schema, as
/// `tools/list` shows it), and `git-loop.json` (`all`), all of them in one
/// document.
pub fn files() -> Vec<(String, String)> {
    let outputs: serde_json::Map<String, Value> = outputs()
        .into_iter()
        .map(|(name, schema)| (name.to_owned(), schema))
        .collect();
    let tools: serde_json::Map<String, Value> = crate::mcp::input_schemas().into_iter().collect();
    let text = |v: &Value| serde_json::to_string_pretty(v).expect("a schema is JSON") + "\n";
    SchemaName::all()
        .iter()
        .map(|&name| {
            let schema = match name {
                SchemaName::All => json!({
                    "$schema": "https://json-schema.org/draft/2020-12/schema",
                    "title": "git-loop: every --json document, and the MCP tools' inputs",
                    "outputs": outputs,
                    "mcpToolInputs": tools,
                }),
                SchemaName::McpTools => Value::Object(tools.clone()),
                name => outputs[name.as_str()].clone(),
            };
            (name.file(), text(&schema))
        })
        .collect()
}
