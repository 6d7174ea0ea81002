//! JSON Schemas of the value types the command line parses itself, for the
//! MCP tools' input schemas (derived with the argument structs): each is the
//! text typed after its flag, checked by the same parser.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};

use super::{Cutoff, MinAge, RunId, StatusList};

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
            "description": "Statuses, comma-separated, e.g. `rejected,stale`: active, rejected, escalated, merged, stale"
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
