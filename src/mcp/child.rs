//! A tool call's command, run as a child process of this very binary
//! (`git loop --json <command> …`): its result is the document it prints.

use std::ffi::OsString;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

/// Run `git loop <argv>` as a child of this binary. Returns the document it
/// printed on stdout and whether it failed (a non-zero exit). Its stderr is
/// kept from ours: a client shows the server's stderr as the server's own
/// trouble, and a command's error is already in its document; only when
/// there is no document does its stderr say why, in the error's message.
pub fn execute(argv: &[OsString]) -> (Value, bool) {
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => {
            return (
                error_doc("io", &format!("could not find git-loop itself: {e}")),
                true,
            );
        }
    };
    let output = match Command::new(&exe)
        .args(argv)
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .output()
    {
        Ok(output) => output,
        Err(e) => {
            let message = format!("could not run {}: {e}", exe.display());
            return (error_doc("io", &message), true);
        }
    };
    let failed = !output.status.success();
    match serde_json::from_slice::<Value>(&output.stdout) {
        Ok(doc) if doc.is_object() || doc.is_array() => (doc, failed),
        _ => {
            let said = String::from_utf8_lossy(&output.stderr);
            let said = said.trim();
            // Its last 600 bytes (at a character's start).
            let mut from = said.len().saturating_sub(600);
            while !said.is_char_boundary(from) {
                from += 1;
            }
            let tail = &said[from..];
            let message = format!(
                "git-loop printed no JSON document ({}): {}",
                output.status,
                crate::style::escape(tail)
            );
            (error_doc("internal", &message), true)
        }
    }
}

/// The CLI's error document, `{"error":{"code":…,"message":…}}`.
pub fn error_doc(code: &str, message: &str) -> Value {
    json!({"error": {"code": code, "message": message}})
}
