//! JSON Schemas of the output types whose `Serialize` is written by hand:
//! [`Entry`] (its path and branch derived from the id) and [`SkipCode`] (a
//! kebab-case string).

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};

use crate::manifest::{Entry, Status};
use crate::worktree::SkipCode;

/// The shape `Entry` serializes to (`manifest::EntryOut`).
#[derive(JsonSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct EntryShape {
    /// The run id
    id: String,
    /// `.loop-worktrees/<id>`, relative to the repository's root
    path: String,
    /// `loop/<id>`
    branch: String,
    /// The branch or commit the run started from
    base_branch: String,
    /// The label given with --pattern
    pattern: String,
    /// When the run was created: ISO-8601 UTC, ending in Z
    #[schemars(extend("format" = "date-time"))]
    created_at: String,
    status: Status,
}

impl JsonSchema for Entry {
    fn schema_name() -> Cow<'static, str> {
        "Entry".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        EntryShape::json_schema(generator)
    }
}

/// Every code, by a match that stops compiling when a variant is added.
fn skip_codes() -> Vec<&'static str> {
    use SkipCode::*;
    let all = |c: SkipCode| match c {
        Dirty | Untracked | Locked | Submodules | ForeignClone | TooYoung | HookRefused
        | GitRefused | UnreachableCommits | OperationInProgress | NestedRepo | Undeletable
        | HalfRemoved | InUse | Remarked(_) | Changed | Error => c.as_str(),
    };
    let mut codes: Vec<&str> = [
        Dirty,
        Untracked,
        Locked,
        Submodules,
        ForeignClone,
        TooYoung,
        HookRefused,
        GitRefused,
        UnreachableCommits,
        OperationInProgress,
        NestedRepo,
        Undeletable,
        HalfRemoved,
        InUse,
        Changed,
        Error,
    ]
    .into_iter()
    .chain(Status::ALL.map(Remarked))
    .map(all)
    .collect();
    codes.dedup();
    codes
}

impl JsonSchema for SkipCode {
    fn schema_name() -> Cow<'static, str> {
        "SkipCode".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "enum": skip_codes(),
            "description": "Why an entry was left alone (a status name: it was marked so after it was selected)"
        })
    }
}
