//! `git loop mcp`: a Model Context Protocol server on stdin/stdout.
//!
//! JSON-RPC 2.0, one message a line, one request at a time. It answers
//! `initialize`, `ping`, `tools/list` and `tools/call`, ignores
//! notifications and responses, and returns at end of input. A line that is
//! not a JSON-RPC request gets a JSON-RPC error and the server reads on. The
//! tools are in [`tools`]; a call runs the command as a child process, so a
//! result is exactly what the command prints with `--json` (its
//! `structuredContent`, which meets the tool's `outputSchema`), and a
//! command's error is a tool error (`isError`) carrying the same `code`.
//!
//! Hand-written on serde_json rather than with an SDK: the protocol subset is
//! small, and an SDK's async runtime would grow the binary every command
//! starts with.

mod child;
mod shape;
mod tools;

use std::io::{self, BufRead, Read, Write};

use serde_json::{Map, Value, json};

use tools::{TOOLS, Tool};

/// Protocol revisions this server speaks, newest first.
const PROTOCOLS: [&str; 3] = ["2025-06-18", "2025-03-26", "2024-11-05"];

/// The longest message read; a longer line is refused and skipped.
const MAX_LINE: u64 = 16 * 1024 * 1024;

const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;

/// Each tool's name and input schema, generated (for schema/mcp-tools.json).
#[cfg(feature = "generate")]
pub fn input_schemas() -> Vec<(String, Value)> {
    TOOLS
        .iter()
        .map(|t| (t.name.to_owned(), t.generate_schema()))
        .collect()
}

/// Serve requests from `input` until it ends.
pub fn serve(input: &mut dyn BufRead, stdout: &mut dyn Write) -> io::Result<()> {
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = input.take(MAX_LINE).read_until(b'\n', &mut line)?;
        if read == 0 {
            return Ok(());
        }
        let reply = if !line.ends_with(b"\n") && read as u64 == MAX_LINE {
            skip_line(input)?;
            Some(error_reply(
                Value::Null,
                INVALID_REQUEST,
                &format!("message longer than {MAX_LINE} bytes"),
            ))
        } else if line.iter().all(u8::is_ascii_whitespace) {
            None
        } else {
            handle(&line)
        };
        if let Some(reply) = reply {
            let mut text = serde_json::to_vec(&reply).map_err(io::Error::from)?;
            text.push(b'\n');
            stdout.write_all(&text)?;
            stdout.flush()?;
        }
    }
}

fn skip_line(input: &mut dyn BufRead) -> io::Result<()> {
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        if let Some(at) = buf.iter().position(|b| *b == b'\n') {
            input.consume(at + 1);
            return Ok(());
        }
        let n = buf.len();
        input.consume(n);
    }
}

/// The reply to one message, if it needs one.
fn handle(line: &[u8]) -> Option<Value> {
    let message: Value = match serde_json::from_slice(line) {
        Ok(message) => message,
        Err(e) => {
            return Some(error_reply(
                Value::Null,
                PARSE_ERROR,
                &format!("parse error: {e}"),
            ));
        }
    };
    let Value::Object(message) = message else {
        let text = "a message is one JSON object (batches are not supported)";
        return Some(error_reply(Value::Null, INVALID_REQUEST, text));
    };
    let id = message.get("id").cloned();
    let id_ok = id.as_ref().is_none_or(|i| i.is_string() || i.is_number());
    if message.get("jsonrpc").and_then(Value::as_str) != Some("2.0") || !id_ok {
        let text = "not a JSON-RPC 2.0 message (\"jsonrpc\": \"2.0\", a string or number id)";
        let id = id.filter(|_| id_ok).unwrap_or(Value::Null);
        return Some(error_reply(id, INVALID_REQUEST, text));
    }
    let Some(method) = message.get("method").and_then(Value::as_str) else {
        if message.contains_key("result") || message.contains_key("error") {
            return None; // a response: this server sends no requests
        }
        return Some(error_reply(
            id.unwrap_or(Value::Null),
            INVALID_REQUEST,
            "no method",
        ));
    };
    // A notification (no id) is never answered; none needs handling.
    let id = id?;
    let empty = Value::Object(Map::new());
    let params = message.get("params").unwrap_or(&empty);
    let result = match method {
        "initialize" => Ok(initialize(params)),
        "ping" => Ok(json!({})),
        "tools/list" => Ok(json!({"tools": TOOLS.iter().map(Tool::describe).collect::<Vec<_>>()})),
        "tools/call" => call(params),
        _ => Err((METHOD_NOT_FOUND, format!("unknown method {method:?}"))),
    };
    Some(match result {
        Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
        Err((code, text)) => error_reply(id, code, &text),
    })
}

fn initialize(params: &Value) -> Value {
    let asked = params["protocolVersion"].as_str().unwrap_or_default();
    let version = PROTOCOLS
        .iter()
        .find(|v| **v == asked)
        .unwrap_or(&PROTOCOLS[0]);
    json!({
        "protocolVersion": version,
        "capabilities": {"tools": {"listChanged": false}},
        "serverInfo": {"name": "git-loop", "version": env!("CARGO_PKG_VERSION")},
        "instructions": "git-loop gives each parallel run of work its own git worktree and branch \
            loop/<id>. Create a run, work in the path it returns, mark what it became, and clean \
            up finished runs. Tools that remove anything or move runs' branches are dry runs \
            unless dry_run is false. \
            Every tool takes `repo`, the repository (default: the server's working directory). \
            A tool returns the JSON document of `git loop <tool> --json` (an array as {\"runs\": \
            [...]}); `git loop schema <tool>` prints its full schema.",
    })
}

/// `tools/call`: an unknown tool or malformed params is a protocol error;
/// anything the command itself refuses is a tool error.
fn call(params: &Value) -> Result<Value, (i64, String)> {
    let name = params["name"]
        .as_str()
        .ok_or((INVALID_PARAMS, "tools/call needs a tool name".to_owned()))?;
    let tool = Tool::find(name).ok_or((INVALID_PARAMS, format!("unknown tool {name:?}")))?;
    let empty = Map::new();
    let input = match &params["arguments"] {
        Value::Null => &empty,
        Value::Object(input) => input,
        other => {
            return Err((
                INVALID_PARAMS,
                format!("arguments must be an object, not {other}"),
            ));
        }
    };
    let (doc, failed) = match tool.argv(input) {
        Ok(argv) => child::execute(&argv),
        Err(text) => (child::error_doc("usage", &text), true),
    };
    let doc = shape::wrap(doc);
    Ok(json!({
        "content": [{"type": "text", "text": doc.to_string()}],
        "structuredContent": doc,
        "isError": failed,
    }))
}

fn error_reply(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}
