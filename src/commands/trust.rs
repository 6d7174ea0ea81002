//! `git loop trust`: the adapter to [`crate::ops::trust`] (what is trusted,
//! and what is not covered) and the report it prints.

use serde::Serialize;

use crate::ctx::Ctx;
use crate::error::Result;
use crate::output::{Out, Report};

#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrustReport {
    /// The trusted file, relative to the repository's top level.
    pub file: String,
    /// Its git blob id (`git hash-object .git-loop.toml`).
    pub blob: String,
    /// It was already trusted: nothing was written.
    pub already_trusted: bool,
    /// The hooks it sets, by key.
    pub hooks: std::collections::BTreeMap<&'static str, String>,
    /// The files of the work tree the hooks name, trusted with it: path
    /// (relative to the top level) → git blob id.
    pub files: std::collections::BTreeMap<String, String>,
}

impl Report for TrustReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        let short = &self.blob[..self.blob.len().min(12)];
        let state = if self.already_trusted {
            "already trusted"
        } else {
            "trusted"
        };
        writeln!(out.stdout, "{state}: {} (blob {short})", self.file)?;
        if self.hooks.is_empty() {
            writeln!(out.stdout, "it sets no hooks")?;
        }
        // Escaped: the command is what the person is asked to read before
        // trusting it; no escape sequence may hide or rewrite it on screen.
        for (key, command) in &self.hooks {
            writeln!(out.stdout, "  {key} = {}", crate::style::escape(command))?;
        }
        if self.hooks.is_empty() {
            return Ok(());
        }
        if self.files.is_empty() {
            writeln!(out.stdout, "its hooks name no file of the work tree")?;
        } else {
            writeln!(out.stdout, "trusted with the files its hooks name:")?;
            for (path, blob) in &self.files {
                let short = &blob[..blob.len().min(12)];
                writeln!(
                    out.stdout,
                    "  {} (blob {short})",
                    crate::style::escape(path)
                )?;
            }
        }
        writeln!(
            out.stdout,
            "covered: this file and the files above; a change to any of them needs `git loop trust` again.\n\
             not covered: what those files run or read in turn, and what a hook reaches without naming it\n\
             (through a variable, an absolute path, a tool's own input such as make's Makefile, or PATH)."
        )?;
        Ok(())
    }
}

pub fn exec(ctx: &Ctx) -> Result<TrustReport> {
    let t = crate::ops::trust::trust(ctx)?;
    Ok(TrustReport {
        file: ".git-loop.toml".to_owned(),
        blob: t.blob,
        already_trusted: t.already_trusted,
        hooks: t.hooks,
        files: t.files,
    })
}
