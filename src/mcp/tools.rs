//! The MCP tools: one entry per command in the `tools!` table, with what it
//! may change ([`Access`]). A tool's input schema is derived from the
//! command's argument struct (the one clap parses, so the descriptions are
//! the `--help` text) by the generator behind the `generate` feature, and
//! served from the checked-in schema/mcp-tools.json ([`super::shape`]
//! leaves out what says nothing); a call becomes the command line `git loop
//! --json <command> …`, run as a child process of this very binary
//! ([`super::child`]), and its result is the JSON document that command
//! prints. Its output schema is the shape of that document
//! (schema/<name>.json, compiled in) or of the error document.

use std::ffi::OsString;
use std::sync::OnceLock;

use clap::{ArgAction, CommandFactory};
use serde_json::{Map, Value, json};

use super::shape;
use crate::cli::Cli;
#[cfg(feature = "generate")]
use crate::cli::{
    ActivityArgs, BranchesArgs, CleanupArgs, ConflictsArgs, CreateArgs, EnvArgs, JudgeArgs,
    LandArgs, ListArgs, LogArgs, MarkArgs, PathArgs, PickArgs, ReconcileArgs, RemoveArgs,
    RestoreArgs, SyncArgs,
};

/// One MCP tool: a git-loop command.
pub struct Tool {
    /// The tool's name, which is the subcommand's.
    pub name: &'static str,
    /// What a call may change.
    pub access: Access,
    /// The schema of the document the command prints with `--json`
    /// (schema/<name>.json), compiled in.
    output: &'static str,
}

/// What a tool's command may change, which sets its annotations
/// (`readOnlyHint`, `destructiveHint`) and whether it is a dry run unless
/// told otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Reads only: no manifest, worktree, ref or file changes.
    ReadOnly,
    /// Records or creates (a run, a status, a restored worktree); removes
    /// nothing.
    Writes,
    /// May remove worktrees or branches, or move a run's branch to a
    /// rewritten history (`sync`: its old tip kept in the trash): a dry
    /// run unless the input sets `"dry_run": false`.
    Removes,
}

impl Access {
    fn removes(self) -> bool {
        self == Access::Removes
    }
}

/// The tool table, the one list of the tools: `name => argument struct,
/// access`. It makes [`TOOLS`] (each with its command's output schema) and, with the `generate` feature, the
/// generator of the input schemas (the schema/ files are made with it; the
/// binary serves those, so it carries no generator). `git loop mcp --help`
/// names the same tools (a test compares it with `tools/list`).
macro_rules! tools {
    ($($name:literal => $args:ty, $access:ident;)*) => {
        pub const TOOLS: &[Tool] = &[$(Tool {
            name: $name,
            access: Access::$access,
            output: include_str!(concat!("../../schema/", $name, ".json")),
        }),*];

        /// Each tool's name and its input schema generated from its argument struct.
        #[cfg(feature = "generate")]
        fn generated() -> Vec<(&'static str, schemars::Schema)> {
            vec![$(($name, input_schema::<$args>())),*]
        }
    };
}

// Every command an agent may call. `run` is not one (it executes an
// arbitrary command), nor `trust` (trusting a repository's hooks is a
// person's decision) or `config`. No tool's input names a command to run:
// an argument that takes one (a clap `ValueHint::Command*`, such as
// `--gate`) is `#[schemars(skip)]`, so it is not in the schema and a call
// that passes it is refused as an unknown argument; `judge`, `land`, `pick`
// and `sync` run only the configured gate, trusted as the hooks are. A test
// (`mcp::no_tool_takes_a_command_to_run`) holds every tool to it.
tools! {
    "create" => CreateArgs, Writes;
    "mark" => MarkArgs, Writes;
    "list" => ListArgs, ReadOnly;
    "path" => PathArgs, ReadOnly;
    "log" => LogArgs, ReadOnly;
    "cleanup" => CleanupArgs, Removes;
    "remove" => RemoveArgs, Removes;
    "reconcile" => ReconcileArgs, Removes;
    "branches" => BranchesArgs, Removes;
    "conflicts" => ConflictsArgs, ReadOnly;
    "restore" => RestoreArgs, Writes;
    "land" => LandArgs, Removes;
    "pick" => PickArgs, Removes;
    // Removes nothing, but moves runs' branches (the old tips in the
    // trash): a dry run unless told otherwise, as `land`.
    "sync" => SyncArgs, Removes;
    // Changes no run, but runs the gate (with the hooks' trust rules) and
    // logs `judge` events: not read-only.
    "judge" => JudgeArgs, Writes;
    // Logs an event and may run `notify.command`, trusted as the hooks are.
    "activity" => ActivityArgs, Writes;
    "env" => EnvArgs, ReadOnly;
}

/// The tools whose command, without a run id, takes the run whose worktree
/// holds the current directory: over MCP that is the server's directory,
/// so their input requires `run_id`.
const NAMES_ITS_RUN: [&str; 2] = ["activity", "env"];

/// A tool's input: the command's arguments, and the repository.
#[cfg(feature = "generate")]
#[derive(schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct Input<A> {
    // The repository to operate on (default: the server's working
    // directory): said once, in the server's instructions, not per tool.
    #[allow(dead_code)]
    repo: Option<std::path::PathBuf>,
    #[serde(flatten)]
    #[allow(dead_code)]
    args: A,
}

#[cfg(feature = "generate")]
fn input_schema<A: schemars::JsonSchema>() -> schemars::Schema {
    let mut settings = schemars::generate::SchemaSettings::draft2020_12();
    settings.inline_subschemas = true;
    let mut schema = settings.into_generator().into_root_schema_for::<Input<A>>();
    schema.remove("title");
    schema.remove("description");
    schema
}

impl Tool {
    pub fn find(name: &str) -> Option<&'static Tool> {
        TOOLS.iter().find(|t| t.name == name)
    }

    /// The input schema as `tools/list` shows it: schema/mcp-tools.json,
    /// compiled in (a test keeps it equal to what the generator makes, so
    /// the binary carries no schema generator).
    pub fn input_schema(&self) -> Value {
        static CHECKED_IN: OnceLock<Value> = OnceLock::new();
        let all = CHECKED_IN.get_or_init(|| {
            serde_json::from_str(include_str!("../../schema/mcp-tools.json"))
                .expect("schema/mcp-tools.json is JSON")
        });
        all[self.name].clone()
    }

    /// The input schema generated from the argument struct: a removing
    /// tool's `dry_run` defaults to true.
    #[cfg(feature = "generate")]
    pub fn generate_schema(&self) -> Value {
        let (_, schema) = generated()
            .into_iter()
            .find(|(name, _)| *name == self.name)
            .expect("every tool has a schema");
        let mut schema = shape::input(schema.to_value());
        if NAMES_ITS_RUN.contains(&self.name) {
            schema["properties"]["run_id"]["description"] = json!("Id of the run");
            match schema["required"].as_array_mut() {
                Some(required) => required.insert(0, json!("run_id")),
                None => schema["required"] = json!(["run_id"]),
            }
        }
        if self.access.removes()
            && let Some(dry_run) = schema.pointer_mut("/properties/dry_run")
        {
            dry_run["default"] = json!(true);
            let text = dry_run["description"].as_str().unwrap_or_default();
            dry_run["description"] = json!(format!("{text} (default here: true)"));
        }
        schema
    }

    /// The output schema as `tools/list` shows it: the shape of every
    /// document the call may return in `structuredContent` ([`shape`]), the
    /// command's `--json` document (schema/<name>.json, each of its forms)
    /// or, with `isError`, the error document.
    pub fn output_schema(&self) -> Value {
        shape::output(self.output)
    }

    /// The tool as `tools/list` shows it.
    pub fn describe(&self) -> Value {
        let cli = Cli::command();
        let sub = cli
            .find_subcommand(self.name)
            .expect("every tool is a subcommand");
        let mut text = sub.get_about().map(|a| a.to_string()).unwrap_or_default();
        if self.access.removes() {
            text.push_str(". A dry run unless dry_run is false");
        }
        text.push('.');
        json!({
            "name": self.name,
            "description": text,
            "inputSchema": self.input_schema(),
            "outputSchema": self.output_schema(),
            "annotations": {
                "readOnlyHint": self.access == Access::ReadOnly,
                "destructiveHint": self.access.removes(),
                "openWorldHint": false,
            },
        })
    }

    /// The command line for `input`, after `git loop`: flags, then `--`,
    /// then the positional values (so none is read as a flag). A refusal
    /// names the argument.
    pub fn argv(&self, input: &Map<String, Value>) -> Result<Vec<OsString>, String> {
        let schema = self.input_schema();
        let known = schema["properties"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        let cli = Cli::command();
        let sub = cli
            .find_subcommand(self.name)
            .expect("every tool is a subcommand");
        let mut argv: Vec<OsString> = vec!["--json".into()];
        let mut flags: Vec<String> = Vec::new();
        // Each positional value with its place on the command line (`activity
        // <RUN_ID> <ACTIVITY>`), whatever the order of the input's keys.
        let mut positionals: Vec<(Option<usize>, String)> = Vec::new();
        // The CLI's `mark <STATUS>` infers the run from the current
        // directory; over MCP that would be the server's directory, so a
        // tool call always names its runs.
        if self.name == "mark" && !names_runs(input) && has(input, "status") {
            return Err("tool mark needs run_ids (or run_id): the runs to mark".to_owned());
        }
        if NAMES_ITS_RUN.contains(&self.name) && !has(input, "run_id") {
            return Err(format!("tool {} needs run_id: the run", self.name));
        }
        let dry_run_default =
            self.access.removes() && input.get("dry_run").is_none_or(Value::is_null);
        if dry_run_default {
            flags.push("--dry-run".into());
        }
        for (key, value) in input {
            if !known.contains_key(key) {
                let names: Vec<&str> = known.keys().map(String::as_str).collect();
                return Err(format!(
                    "unknown argument {key:?} for tool {}; expected: {}",
                    self.name,
                    names.join(", ")
                ));
            }
            if value.is_null() {
                continue;
            }
            if key == "repo" {
                let dir = value
                    .as_str()
                    .ok_or_else(|| format!("argument \"repo\" must be a string, not {value}"))?;
                argv.push("-C".into());
                argv.push(dir.into());
                continue;
            }
            let arg = argument(sub, key)?;
            let long = arg.get_long().map(|l| format!("--{l}"));
            let texts = match words(arg, key, value, &known[key])? {
                Words::Switch(on) => {
                    if on && let Some(long) = long {
                        flags.push(long);
                    }
                    continue;
                }
                Words::Values(texts) => texts,
            };
            match long {
                Some(long) => flags.extend(texts.iter().map(|t| format!("{long}={t}"))),
                None => {
                    let at = sub
                        .get_positionals()
                        .position(|p| p.get_id() == arg.get_id());
                    positionals.extend(texts.into_iter().map(|t| (at, t)));
                }
            }
        }
        argv.push(self.name.into());
        argv.extend(flags.into_iter().map(OsString::from));
        in_order(argv, positionals)
    }
}

/// The argument of `sub` the input's `key` sets: by its id, or a
/// positional one by its value name.
fn argument<'a>(sub: &'a clap::Command, key: &str) -> Result<&'a clap::Arg, String> {
    sub.get_arguments()
        .find(|a| {
            a.get_id() == key
                || (a.is_positional()
                    && a.get_value_names()
                        .is_some_and(|v| v.iter().any(|n| n.to_lowercase() == *key)))
        })
        .ok_or_else(|| format!("argument {key:?} has no flag"))
}

/// The positional values (each with its place) after `argv`, around `--`.
fn in_order(
    mut argv: Vec<OsString>,
    mut positionals: Vec<(Option<usize>, String)>,
) -> Result<Vec<OsString>, String> {
    positionals.sort_by_key(|(at, _)| *at);
    // After `--`, clap gives a command with an optional positional
    // before a required one (`activity [<RUN_ID>] <ACTIVITY>`) every
    // value as the last: the earlier arguments' values go before it,
    // and one that would read as a flag is refused (no run id starts
    // with `-`).
    let last = positionals.last().and_then(|(at, _)| *at);
    let (before, after): (Vec<_>, Vec<_>) =
        positionals.into_iter().partition(|(at, _)| *at != last);
    if let Some((_, flag)) = before.iter().find(|(_, t)| t.starts_with('-')) {
        return Err(format!("a run id does not start with '-': {flag:?}"));
    }
    argv.extend(before.into_iter().map(|(_, t)| OsString::from(t)));
    argv.push("--".into());
    argv.extend(after.into_iter().map(|(_, t)| OsString::from(t)));
    Ok(argv)
}

/// What one input value says on the command line.
enum Words {
    /// A switch (`--dry-run`), on or off.
    Switch(bool),
    /// Values of a flag or a positional argument.
    Values(Vec<String>),
}

/// The words of `value` for the argument `arg` (the input's `key`, its
/// `schema`), or why it is not one that argument takes.
fn words(arg: &clap::Arg, key: &str, value: &Value, schema: &Value) -> Result<Words, String> {
    let wrong = |want: &str| format!("argument {key:?} must be {want}, not {value}");
    Ok(Words::Values(match (arg.get_action(), value) {
        (ArgAction::SetTrue, Value::Bool(on)) => return Ok(Words::Switch(*on)),
        (ArgAction::SetTrue, _) => return Err(wrong("true or false")),
        (ArgAction::Append, Value::Array(items)) => items
            .iter()
            .map(|i| i.as_str().map(str::to_owned))
            .collect::<Option<_>>()
            .ok_or_else(|| wrong("an array of strings"))?,
        // One value of a repeatable argument (`mark`'s `run_id`).
        (ArgAction::Append, Value::String(text)) => vec![text.clone()],
        (ArgAction::Append, _) => return Err(wrong("a string or an array of strings")),
        (_, Value::String(text)) => vec![text.clone()],
        // A count (`log`'s `max_count`), where the schema asks for
        // one: clap parses the digits. A number is no string.
        (_, Value::Number(n)) if n.is_u64() && takes_integer(schema) => {
            vec![n.to_string()]
        }
        _ => return Err(wrong("a string")),
    }))
}

/// Whether `input` names at least one run (`run_ids` or `run_id`).
fn names_runs(input: &Map<String, Value>) -> bool {
    let ids = input.get("run_ids").and_then(Value::as_array);
    ids.is_some_and(|ids| !ids.is_empty()) || has(input, "run_id")
}

/// Whether `input` has `key` with a value that is not null.
fn has(input: &Map<String, Value>, key: &str) -> bool {
    input.get(key).is_some_and(|v| !v.is_null())
}

/// The property's schema takes an integer (`"type": ["integer", "null"]`).
fn takes_integer(property: &Value) -> bool {
    match &property["type"] {
        Value::String(t) => t == "integer",
        Value::Array(types) => types.iter().any(|t| t == "integer"),
        _ => false,
    }
}
