//! `create.copy`: bring untracked or ignored files a run needs (`.env`,
//! `.env.local`, a local settings file) from the main worktree into a new
//! worktree.
//!
//! Which files: gix walks the main worktree the way `git status --ignored`
//! does — tracked files are never candidates (the checkout has them), an
//! ignored directory is one entry (`node_modules/` is not descended into) —
//! and each untracked or ignored entry whose path matches the patterns
//! (gitignore syntax: `.env` matches at any depth, `/.env` only at the top,
//! `config/*.local`, `!` excludes) is copied. Never copied: `.loop-worktrees/`
//! itself, nested repositories, anything under `.git`.
//!
//! Never overwrites: a destination that exists (a tracked file of the same
//! name, say) is left as it is and reported. A symlink is copied as a symlink
//! (its target is not read). Files keep their permission bits.

use std::fs;
use std::path::Path;

use gix::bstr::{BStr, ByteSlice};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::manifest::LOOP_DIR;

#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct CopyReport {
    /// Paths copied, relative to the worktree (a directory's files one by one).
    pub copied: Vec<String>,
    /// Paths not copied, with the reason (`exists`, or an I/O error).
    pub skipped: Vec<CopySkip>,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct CopySkip {
    pub path: String,
    pub reason: String,
}

/// Copy what `patterns` select from `repo`'s main worktree into `dest`.
pub fn copy_into(repo: &gix::Repository, patterns: &[String], dest: &Path) -> Result<CopyReport> {
    let mut report = CopyReport::default();
    if patterns.is_empty() {
        return Ok(report);
    }
    let root = repo
        .workdir()
        .ok_or_else(|| Error::Repository("no work tree to copy from".into()))?
        .to_path_buf();
    let search = gix::ignore::Search::from_overrides(
        patterns.iter().map(std::ffi::OsString::from),
        gix::ignore::search::Ignore::default(),
    );
    let selected = |rela: &BStr, is_dir: bool| {
        search
            .pattern_matching_relative_path(rela, Some(is_dir), gix::glob::pattern::Case::Sensitive)
            .is_some_and(|m| !m.pattern.is_negative())
    };

    use gix::dir::entry::{Kind, Status};
    use gix::dir::walk::EmissionMode;
    let index = repo
        .index_or_empty()
        .map_err(|e| Error::Repository(format!("could not read the index: {e}")))?;
    let options = repo
        .dirwalk_options()
        .map_err(|e| Error::Repository(e.to_string()))?
        .emit_untracked(EmissionMode::Matching)
        .emit_ignored(Some(EmissionMode::CollapseDirectory))
        .emit_tracked(false)
        .recurse_repositories(false)
        .emit_pruned(false);
    let mut collect = gix::dir::walk::delegate::Collect::default();
    let none: [&BStr; 0] = [];
    repo.dirwalk(
        &index,
        none,
        &std::sync::atomic::AtomicBool::new(false),
        options,
        &mut collect,
    )
    .map_err(|e| Error::Repository(format!("could not walk {}: {e}", root.display())))?;

    for (entry, _) in collect.unorded_entries {
        let rela = entry.rela_path.as_bstr();
        let first = rela.split_str("/").next().unwrap_or_default();
        if first == LOOP_DIR.as_bytes() || first == b".git" {
            continue;
        }
        if !matches!(entry.status, Status::Untracked | Status::Ignored(_)) {
            continue;
        }
        let is_dir = match entry.disk_kind {
            Some(Kind::Directory) => true,
            Some(Kind::File | Kind::Symlink) => false,
            _ => continue, // nested repositories, or gone meanwhile
        };
        if !selected(rela, is_dir) {
            continue;
        }
        let Ok(rel) = rela.to_str() else {
            report.skipped.push(CopySkip {
                path: rela.to_str_lossy().into_owned(),
                reason: "path is not UTF-8".into(),
            });
            continue;
        };
        copy_path(&root, dest, Path::new(rel), &mut report);
    }
    report.copied.sort();
    report.skipped.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(report)
}

/// Copy `rel` (a file, symlink or directory) from `src_root` to `dest_root`,
/// never overwriting.
fn copy_path(src_root: &Path, dest_root: &Path, rel: &Path, report: &mut CopyReport) {
    let src = src_root.join(rel);
    let dest = dest_root.join(rel);
    let shown = rel.to_string_lossy().into_owned();
    let skip = |report: &mut CopyReport, reason: String| {
        report.skipped.push(CopySkip {
            path: shown.clone(),
            reason,
        })
    };
    let meta = match fs::symlink_metadata(&src) {
        Ok(m) => m,
        Err(e) => return skip(report, format!("could not read: {e}")),
    };
    // Never write through a symlink the new worktree's checkout put on the
    // way (a tracked `config -> /etc` must not send `config/x` outside).
    if let Some(link) = symlink_on_the_way(dest_root, rel) {
        return skip(
            report,
            format!(
                "{} is a symlink in the new worktree; not written through",
                link.display()
            ),
        );
    }
    if meta.is_dir() {
        if let Err(e) = fs::create_dir_all(&dest) {
            return skip(report, format!("could not create: {e}"));
        }
        let Ok(children) = fs::read_dir(&src) else {
            return skip(report, "could not read the directory".into());
        };
        let mut names: Vec<_> = children
            .filter_map(|c| c.ok())
            .map(|c| c.file_name())
            .collect();
        names.sort();
        for name in names {
            if name == ".git" {
                continue;
            }
            copy_path(src_root, dest_root, &rel.join(name), report);
        }
        return;
    }
    if fs::symlink_metadata(&dest).is_ok() {
        return skip(report, "exists".into());
    }
    if let Some(parent) = dest.parent()
        && let Err(e) = fs::create_dir_all(parent)
    {
        return skip(report, format!("could not create its directory: {e}"));
    }
    let done = if meta.file_type().is_symlink() {
        fs::read_link(&src).and_then(|target| std::os::unix::fs::symlink(target, &dest))
    } else {
        copy_file_new(&src, &dest, &meta)
    };
    match done {
        Ok(()) => report.copied.push(shown),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => skip(report, "exists".into()),
        Err(e) => skip(report, format!("could not copy: {e}")),
    }
}

/// Copy a regular file to a destination that must not exist yet
/// (`create_new`: a file appearing meanwhile is not overwritten either).
fn copy_file_new(src: &Path, dest: &Path, meta: &fs::Metadata) -> std::io::Result<()> {
    let mut from = fs::File::open(src)?;
    let mut to = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(dest)?;
    std::io::copy(&mut from, &mut to)?;
    to.set_permissions(meta.permissions())?;
    Ok(())
}

/// The first directory of `rel` (below `root`, `rel` itself excluded) that
/// is a symlink, if any.
fn symlink_on_the_way(root: &Path, rel: &Path) -> Option<std::path::PathBuf> {
    let mut at = root.to_path_buf();
    let mut shown = std::path::PathBuf::new();
    let parent = rel.parent()?;
    for part in parent.components() {
        at.push(part);
        shown.push(part);
        match fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => return Some(shown),
            Ok(_) => {}
            Err(_) => return None, // not there yet: created as a real directory
        }
    }
    None
}
