//! `git loop schema [<NAME>]`: print a checked-in JSON Schema (see
//! `crate::schema`, which generates them, and the test that keeps them
//! current). Printed from the files compiled in, so the command costs no
//! schema generation.

use std::io::Write;

use crate::output::Fail;

/// Each printable schema: its name and its text.
pub const SCHEMAS: [(&str, &str); 18] = [
    ("branches", include_str!("../../schema/branches.json")),
    ("cleanup", include_str!("../../schema/cleanup.json")),
    ("config", include_str!("../../schema/config.json")),
    ("conflicts", include_str!("../../schema/conflicts.json")),
    ("create", include_str!("../../schema/create.json")),
    ("list", include_str!("../../schema/list.json")),
    ("log", include_str!("../../schema/log.json")),
    ("mark", include_str!("../../schema/mark.json")),
    ("path", include_str!("../../schema/path.json")),
    ("pool", include_str!("../../schema/pool.json")),
    ("reconcile", include_str!("../../schema/reconcile.json")),
    ("remove", include_str!("../../schema/remove.json")),
    ("restore", include_str!("../../schema/restore.json")),
    ("trash", include_str!("../../schema/trash.json")),
    ("trust", include_str!("../../schema/trust.json")),
    ("error", include_str!("../../schema/error.json")),
    ("mcp-tools", include_str!("../../schema/mcp-tools.json")),
    ("all", include_str!("../../schema/git-loop.json")),
];

pub fn run(name: Option<&str>, stdout: &mut dyn Write) -> Result<(), Fail> {
    let name = name.unwrap_or("all");
    let (_, text) = SCHEMAS
        .iter()
        .find(|(n, _)| *n == name)
        .expect("clap accepts only the names in SCHEMAS");
    stdout.write_all(text.as_bytes())?;
    stdout.flush()?;
    Ok(())
}
