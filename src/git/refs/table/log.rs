//! Reflogs in a reftable repository, read by `git log -g` (see the
//! parent module's doc).

use std::collections::HashMap;
use std::path::Path;

use gix::ObjectId;
use gix::bstr::{BString, ByteSlice};

use super::{REFLOGS, cached, git, snapshot, stack_key};
use crate::git::refs::value::LogLine;

/// The messages git writes on a ref's first reflog line, when it creates
/// the ref (`git branch`, `git worktree add -b`, `git checkout -b`; the
/// first commit on an unborn branch).
const CREATED: [&[u8]; 2] = [b"branch: Created from ", b"commit (initial): "];

/// `full`'s reflog, newest line first (see the module doc for old ids).
/// `git log -g` leaves out a line whose new id is not a readable commit;
/// each line's index (`@{n}`) shows the gap, and no old id is inferred
/// across one. A run's branch (`refs/heads/loop/*`) is read with every
/// other run's branch in one process, kept while the stack is unchanged
/// (`list --long` asks for every run's): reflogs are in the stack too.
pub fn reflog(common: &Path, full: &str) -> Vec<LogLine> {
    let prefix = format!("refs/heads/{}/", crate::runid::BRANCH_PREFIX);
    if !full.starts_with(&prefix) {
        return reflogs(common, &[full.to_owned()])
            .remove(full)
            .unwrap_or_default();
    }
    let all = cached(&REFLOGS, common, stack_key(common), || {
        let snapshot = snapshot(common)?;
        let names: Vec<String> = snapshot
            .refs
            .range(BString::from(prefix.as_str())..)
            .take_while(|(name, _)| name.starts_with(prefix.as_bytes()))
            .filter_map(|(name, _)| name.to_str().ok().map(str::to_owned))
            .collect();
        Ok(reflogs(common, &names))
    });
    match all {
        Ok(all) => all.get(full).cloned().unwrap_or_default(),
        Err(_) => Vec::new(),
    }
}

/// The reflogs of `names` (full ref names), each newest line first: one
/// `git log -g` for many (a few thousand names a process).
fn reflogs(common: &Path, names: &[String]) -> HashMap<String, Vec<LogLine>> {
    let mut by_ref: HashMap<String, Vec<(usize, LogLine)>> = HashMap::new();
    for chunk in names.chunks(2000) {
        let mut args = vec![
            "log",
            "-g",
            "--no-show-signature",
            "--format=%gD%x00%H%x00%gs",
        ];
        args.extend(chunk.iter().map(String::as_str));
        args.push("--");
        let Ok(out) = git(common, &args) else {
            continue;
        };
        for line in out.split(|&b| b == b'\n') {
            let mut fields = line.splitn(3, |&b| b == 0);
            let (Some(selector), Some(id), Some(message)) =
                (fields.next(), fields.next(), fields.next())
            else {
                continue;
            };
            let Some((name, index)) = selector.rsplit_once_str(b"@{") else {
                continue;
            };
            let index = index
                .strip_suffix(b"}")
                .and_then(|i| i.to_str().ok()?.parse().ok());
            let (Some(index), Ok(new), Ok(name)) = (index, ObjectId::from_hex(id), name.to_str())
            else {
                continue;
            };
            let line = LogLine {
                old: None,
                new,
                message: message.into(),
            };
            by_ref
                .entry(name.to_owned())
                .or_default()
                .push((index, line));
        }
    }
    by_ref
        .into_iter()
        .map(|(name, mut lines)| {
            lines.sort_by_key(|(index, _)| *index);
            for i in 1..lines.len() {
                if lines[i].0 == lines[i - 1].0 + 1 {
                    lines[i - 1].1.old = Some(lines[i].1.new);
                }
            }
            if let Some((_, oldest)) = lines.last_mut()
                && CREATED.iter().any(|m| oldest.message.starts_with(m))
            {
                oldest.old = Some(ObjectId::null(oldest.new.kind()));
            }
            (name, lines.into_iter().map(|(_, line)| line).collect())
        })
        .collect()
}
