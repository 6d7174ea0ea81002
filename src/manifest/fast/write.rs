//! The common shape written: what `serde_json::to_string_pretty` writes.

use std::fmt::Write as _;

use super::WINDOW;
use crate::manifest::{LOOP_DIR, Manifest};
use crate::runid;

/// `manifest` as `serde_json::to_string_pretty` writes it (2-space
/// indent), and a final newline.
pub(in crate::manifest) fn write(manifest: &Manifest) -> String {
    let mut out = Vec::new();
    write_to(manifest, &mut out).expect("a Vec takes every write");
    String::from_utf8(out).expect("the text written is UTF-8")
}

/// [`write`] to `w`, a [`WINDOW`] at a time (10,000 entries: 2.5 MB never
/// held).
pub(in crate::manifest) fn write_to(
    manifest: &Manifest,
    w: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    if manifest.worktrees.is_empty() {
        return write!(
            w,
            "{{\n  \"version\": {},\n  \"worktrees\": []\n}}\n",
            manifest.version
        );
    }
    let mut out = String::with_capacity(WINDOW + 1024);
    let _ = write!(
        out,
        "{{\n  \"version\": {},\n  \"worktrees\": [\n",
        manifest.version
    );
    for (i, e) in manifest.worktrees.iter().enumerate() {
        if i > 0 {
            out.push_str(",\n");
        }
        for (key, prefix, value) in [
            ("    {\n      \"id\": \"", "", e.id.as_str()),
            ("\",\n      \"path\": \"", LOOP_DIR, &e.id),
            ("\",\n      \"branch\": \"", runid::BRANCH_PREFIX, &e.id),
            ("\",\n      \"baseBranch\": \"", "", &e.base_branch),
            ("\",\n      \"pattern\": \"", "", &e.pattern),
        ] {
            out.push_str(key);
            if !prefix.is_empty() {
                out.push_str(prefix);
                out.push('/');
            }
            contents(&mut out, value);
        }
        let _ = write!(
            out,
            "\",\n      \"createdAt\": \"{}\",\n      \"status\": \"{}\"\n    }}",
            e.created_at.0,
            e.status.as_str()
        );
        if out.len() >= WINDOW {
            w.write_all(out.as_bytes())?;
            out.clear();
        }
    }
    out.push_str("\n  ]\n}\n");
    w.write_all(out.as_bytes())
}

/// `text` inside a JSON string: as is when JSON escapes none of its
/// characters, else as serde_json escapes it.
fn contents(out: &mut String, text: &str) {
    if text.bytes().any(|c| c == b'"' || c == b'\\' || c < 0x20) {
        let quoted = serde_json::to_string(text).expect("a string serializes");
        out.push_str(&quoted[1..quoted.len() - 1]);
    } else {
        out.push_str(text);
    }
}
