//! `git loop trust`'s operation — allow the hooks in the repository's own
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

use std::collections::BTreeMap;

use crate::config::repo_toml_path;
use crate::ctx::Ctx;
use crate::error::{Error, Result};

/// The repository's own file, trusted.
#[derive(Debug)]
pub struct Trusted {
    /// Its git blob id.
    pub blob: String,
    /// It was already trusted: nothing was written.
    pub already_trusted: bool,
    /// The hooks it sets, by key.
    pub hooks: BTreeMap<&'static str, String>,
    /// The files of the work tree the hooks name: path → git blob id.
    pub files: BTreeMap<String, String>,
}

pub fn trust(ctx: &Ctx) -> Result<Trusted> {
    let root = ctx.repo.root();
    // Validates every layer, this file included (read once, safely: see
    // `crate::config`); the hooks shown and the id trusted are of those bytes.
    let settings = ctx.settings()?;
    let (Some(file), Some(blob)) = (&settings.repo_file, &settings.repo_file_id) else {
        return Err(Error::NothingToTrust {
            file: repo_toml_path(root),
        });
    };
    let hooks: BTreeMap<&'static str, String> = file.raw()?.commands().into_iter().collect();
    let blob = blob.clone();
    let commands: Vec<&str> = hooks.values().map(String::as_str).collect();
    let files =
        crate::configured_command::trust::named_files(&commands, root, settings.object_hash)?;
    let already_trusted =
        crate::configured_command::trust::is_trusted_with(ctx.repo.common_dir(), &blob, &files)?;
    if !already_trusted {
        crate::configured_command::trust::trust(ctx.repo.common_dir(), &blob, &files)?;
    }
    Ok(Trusted {
        blob,
        already_trusted,
        hooks,
        files,
    })
}
