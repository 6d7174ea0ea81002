//! The command line's side of the JSON Schemas: [`SchemaName`], the one
//! list of the schemas `git loop schema` prints (the checked-in files under
//! schema/, each made by the generator), and the schemas of the value types
//! the command line parses itself, for the MCP tools' input schemas (derived
//! with the argument structs): each is the text typed after its flag, checked
//! by the same parser.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};

use super::{Cutoff, MinAge, RunId, StatusList};
use crate::manifest::Status;

/// `git loop schema [<NAME>]`.
#[derive(Debug, clap::Args)]
pub struct SchemaArgs {
    /// Which schema (default: all)
    #[arg(value_enum)]
    pub name: Option<SchemaName>,
}

/// A schema `git loop schema` prints: a command's `--json` document (named
/// after the command), `error` (the document of any failure), `mcp-tools`
/// (each MCP tool's input) or `all` (every one in one document). Each is a
/// checked-in file, [`SchemaName::file`]; the generator makes one per name,
/// and `git loop schema` matches every name to its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SchemaName {
    All,
    Activity,
    Branches,
    Cleanup,
    Config,
    Conflicts,
    Create,
    Land,
    Sync,
    Judge,
    Env,
    List,
    Log,
    Mark,
    Path,
    Pick,
    Pool,
    Reconcile,
    Remove,
    Restore,
    Trash,
    Trust,
    Publish,
    Claim,
    Handoff,
    Error,
    McpTools,
}

impl SchemaName {
    /// Every name, in the order `--help` lists them.
    pub const ALL: [SchemaName; 27] = {
        use SchemaName::*;
        [
            All, Activity, Branches, Cleanup, Config, Conflicts, Create, Env, Judge, Land, List,
            Log, Mark, Path, Pick, Pool, Reconcile, Remove, Restore, Sync, Trash, Trust, Publish,
            Claim, Handoff, Error, McpTools,
        ]
    };

    pub fn all() -> &'static [SchemaName] {
        &SchemaName::ALL
    }

    /// The name as typed: a command's name, `error`, `mcp-tools`, `all`.
    pub fn as_str(self) -> &'static str {
        use SchemaName::*;
        match self {
            All => "all",
            Activity => "activity",
            Branches => "branches",
            Cleanup => "cleanup",
            Config => "config",
            Conflicts => "conflicts",
            Create => "create",
            Land => "land",
            Sync => "sync",
            Judge => "judge",
            Env => "env",
            List => "list",
            Log => "log",
            Mark => "mark",
            Path => "path",
            Pick => "pick",
            Pool => "pool",
            Reconcile => "reconcile",
            Remove => "remove",
            Restore => "restore",
            Trash => "trash",
            Trust => "trust",
            Publish => "publish",
            Claim => "claim",
            Handoff => "handoff",
            Error => "error",
            McpTools => "mcp-tools",
        }
    }

    /// The checked-in file under schema/: `<name>.json`, and `git-loop.json`
    /// for `all`.
    pub fn file(self) -> String {
        match self {
            SchemaName::All => "git-loop.json".to_owned(),
            name => format!("{}.json", name.as_str()),
        }
    }
}

impl clap::ValueEnum for SchemaName {
    fn value_variants<'a>() -> &'a [Self] {
        &SchemaName::ALL
    }
    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.as_str()))
    }
}

impl JsonSchema for RunId {
    fn schema_name() -> Cow<'static, str> {
        "RunId".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "minLength": 1,
            "description": "A run id: one path segment that git accepts in a branch name `loop/<id>` (letters, digits, `-`, `_`, `.` are safe)"
        })
    }
}

impl JsonSchema for StatusList {
    fn schema_name() -> Cow<'static, str> {
        "StatusList".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "description": format!(
                "Statuses, comma-separated, e.g. `rejected,stale`: {}",
                Status::ALL.map(Status::as_str).join(", ")
            )
        })
    }
}

impl JsonSchema for Cutoff {
    fn schema_name() -> Cow<'static, str> {
        "Cutoff".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "pattern": "^[0-9]+[smhd]$",
            "description": "An age: <n> with s, m, h or d, e.g. `24h`"
        })
    }
}

impl JsonSchema for MinAge {
    fn schema_name() -> Cow<'static, str> {
        "MinAge".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "pattern": "^(0|[0-9]+[smhd])$",
            "description": "An age: <n> with s, m, h or d, e.g. `2h`; `0` disables the guard"
        })
    }
}
