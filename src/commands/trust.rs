//! `git loop trust` — allow the hooks in the repository's own
//! `.git-loop.toml` to run, for its current content.
//!
//! Records the file's git blob id in `<git common dir>/git-loop/trusted` (see
//! [`crate::configured_command`]), with the blob id of every file of the work tree its
//! hooks name (`./setup.sh`, `scripts/x.py`). Any later change to the TOML,
//! or to one of those files, needs trusting again. Not covered, and said so
//! in the output: what those files run or read in turn, and what a hook
//! reaches without naming it (a variable, an absolute path, `make`'s
//! `Makefile`, programs on `PATH`). The file must be valid configuration: an
//! invalid file is refused, not trusted.

use serde::Serialize;

use crate::config::{TOML_CLEANUP_PRE_COMMAND, TOML_CREATE_POST_COMMAND, repo_toml_path};
use crate::ctx::Ctx;
use crate::error::{Error, Result};
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

pub fn run(ctx: &Ctx) -> Result<TrustReport> {
    let root = ctx.repo.root();
    // Validates every layer, this file included (read once, safely: see
    // `crate::config`); the hooks shown and the id trusted are of those bytes.
    let settings = ctx.settings()?;
    let (Some(file), Some(blob)) = (&settings.repo_file, &settings.repo_file_id) else {
        return Err(Error::NothingToTrust {
            file: repo_toml_path(root),
        });
    };
    let raw = file.raw()?;
    let blob = blob.clone();
    let mut hooks = std::collections::BTreeMap::new();
    if let Some(c) = raw.create.post_command.filter(|c| !c.trim().is_empty()) {
        hooks.insert(TOML_CREATE_POST_COMMAND, c);
    }
    if let Some(c) = raw.cleanup.pre_command.filter(|c| !c.trim().is_empty()) {
        hooks.insert(TOML_CLEANUP_PRE_COMMAND, c);
    }
    let commands: Vec<&str> = hooks.values().map(String::as_str).collect();
    let files = crate::configured_command::trust::named_files(&commands, root)?;
    let already_trusted =
        crate::configured_command::trust::is_trusted_with(ctx.repo.common_dir(), &blob, &files)?;
    if !already_trusted {
        crate::configured_command::trust::trust(ctx.repo.common_dir(), &blob, &files)?;
    }
    Ok(TrustReport {
        file: ".git-loop.toml".to_owned(),
        blob,
        already_trusted,
        hooks,
        files,
    })
}
