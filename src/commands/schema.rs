//! `git loop schema [<NAME>]`: print a checked-in JSON Schema (see
//! `crate::schema`, the generator behind the `generate` feature, and the test
//! that keeps the files current). Printed from the files compiled in, so the
//! command costs no schema generation.

use std::io::Write;

use crate::cli::SchemaName;
use crate::output::Fail;

/// The checked-in file of `name` (schema/, [`SchemaName::file`]), compiled
/// in: one arm per name, so a new name does not compile without its file.
pub fn text(name: SchemaName) -> &'static str {
    use SchemaName::*;
    match name {
        All => include_str!("../../schema/git-loop.json"),
        Activity => include_str!("../../schema/activity.json"),
        Branches => include_str!("../../schema/branches.json"),
        Cleanup => include_str!("../../schema/cleanup.json"),
        Config => include_str!("../../schema/config.json"),
        Conflicts => include_str!("../../schema/conflicts.json"),
        Create => include_str!("../../schema/create.json"),
        Land => include_str!("../../schema/land.json"),
        Sync => include_str!("../../schema/sync.json"),
        Judge => include_str!("../../schema/judge.json"),
        Env => include_str!("../../schema/env.json"),
        List => include_str!("../../schema/list.json"),
        Log => include_str!("../../schema/log.json"),
        Mark => include_str!("../../schema/mark.json"),
        Path => include_str!("../../schema/path.json"),
        Pick => include_str!("../../schema/pick.json"),
        Pool => include_str!("../../schema/pool.json"),
        Reconcile => include_str!("../../schema/reconcile.json"),
        Remove => include_str!("../../schema/remove.json"),
        Restore => include_str!("../../schema/restore.json"),
        Trash => include_str!("../../schema/trash.json"),
        Trust => include_str!("../../schema/trust.json"),
        Publish => include_str!("../../schema/publish.json"),
        Claim => include_str!("../../schema/claim.json"),
        Handoff => include_str!("../../schema/handoff.json"),
        Error => include_str!("../../schema/error.json"),
        McpTools => include_str!("../../schema/mcp-tools.json"),
    }
}

pub fn exec(name: Option<SchemaName>, stdout: &mut dyn Write) -> Result<(), Fail> {
    stdout.write_all(text(name.unwrap_or(SchemaName::All)).as_bytes())?;
    stdout.flush()?;
    Ok(())
}
