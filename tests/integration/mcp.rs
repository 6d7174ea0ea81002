//! `git loop mcp` driven as an MCP client drives it: a child process spoken
//! to in newline-delimited JSON-RPC 2.0 on its stdin and stdout. And once by
//! an independent client, the reference Python SDK (`mcp` from PyPI, as
//! scripts/install-test-deps installs it into target/test-venv).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};

use serde_json::{Value, json};

use std::fs;

use crate::common::{JsonExt, TestRepo, snapshot};

struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    next_id: i64,
    /// Each tool's `outputSchema` from `tools/list`, read at the first call.
    output_schemas: Option<HashMap<String, jsonschema::Validator>>,
}

impl Server {
    fn start(repo: &TestRepo) -> Server {
        Server::start_with_stderr(repo, Stdio::null())
    }

    /// [`Server::start`], its stderr going to `stderr`.
    fn start_with_stderr(repo: &TestRepo, stderr: Stdio) -> Server {
        let mut child = repo
            .command()
            .arg("mcp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Server {
            child,
            stdin,
            stdout,
            next_id: 0,
            output_schemas: None,
        }
    }

    /// Send one line as it is.
    fn send_raw(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// The next line the server writes, as JSON.
    fn read(&mut self) -> Value {
        let mut line = String::new();
        assert_ne!(
            self.stdout.read_line(&mut line).unwrap(),
            0,
            "server closed stdout"
        );
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line:?}"))
    }

    /// A request; returns the whole response, checked to carry its id.
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send_raw(&message.to_string());
        let reply = self.read();
        assert_eq!(reply["jsonrpc"], "2.0", "{reply}");
        assert_eq!(reply["id"], id, "{reply}");
        reply
    }

    fn result(&mut self, method: &str, params: Value) -> Value {
        let reply = self.request(method, params);
        assert!(reply.get("error").is_none(), "{reply}");
        reply["result"].clone()
    }

    fn initialize(&mut self) -> Value {
        let result = self.result(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "test", "version": "0"}}),
        );
        self.send_raw(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        result
    }

    /// `tools/call`: the result document and whether it is a tool error.
    /// The document meets the command's schema and the tool's
    /// `outputSchema`, error or not.
    fn call(&mut self, tool: &str, arguments: Value) -> (Value, bool) {
        let result = self.result("tools/call", json!({"name": tool, "arguments": arguments}));
        let doc = result["structuredContent"].clone();
        let text = result["content"][0]["text"].as_str().unwrap();
        assert_eq!(result["content"][0]["type"], "text");
        assert_eq!(serde_json::from_str::<Value>(text).unwrap(), doc);
        // The command's document: an array (`create --attempts`) is served
        // as `{"runs": [...]}`.
        let printed = match (tool, &doc["runs"]) {
            ("create", Value::Array(_)) => &doc["runs"],
            _ => &doc,
        };
        crate::schema::check_document(tool, printed);
        if self.output_schemas.is_none() {
            let tools = self.result("tools/list", json!({}));
            let validators = tools
                .arr("tools")
                .iter()
                .map(|t| {
                    let validator = jsonschema::validator_for(&t["outputSchema"])
                        .unwrap_or_else(|e| panic!("{}'s outputSchema: {e}", t.text("name")));
                    (t.text("name").to_owned(), validator)
                })
                .collect();
            self.output_schemas = Some(validators);
        }
        let validator = &self.output_schemas.as_ref().unwrap()[tool];
        let errors: Vec<String> = validator
            .iter_errors(&doc)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "{tool}'s structuredContent fails its outputSchema: {errors:?}\n{doc}"
        );
        (doc, result["isError"].as_bool().unwrap())
    }

    /// Close stdin; the server must exit 0 with nothing more written.
    fn finish(mut self) {
        drop(self.stdin.take());
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut self.stdout, &mut rest).unwrap();
        assert_eq!(rest, "", "output after EOF");
        let status = self.child.wait().unwrap();
        assert_eq!(status.code(), Some(0));
    }
}

#[test]
fn a_client_creates_lists_and_dry_runs_cleanup() {
    let repo = TestRepo::new();
    let mut server = Server::start(&repo);
    let init = server.initialize();
    assert_eq!(init["protocolVersion"], "2025-06-18");
    assert_eq!(init["serverInfo"]["name"], "git-loop");
    assert!(init["capabilities"]["tools"].is_object());

    let tools = server.result("tools/list", json!({}));
    let names: Vec<&str> = tools.arr("tools").iter().map(|t| t.text("name")).collect();
    for name in [
        "create",
        "mark",
        "list",
        "path",
        "log",
        "cleanup",
        "reconcile",
        "remove",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    assert!(!names.contains(&"run"), "run is exposed: {names:?}");
    let create = tools
        .arr("tools")
        .iter()
        .find(|t| t["name"] == "create")
        .unwrap();
    let schema = &create["inputSchema"];
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["required"], json!(["run_id"]));
    assert_eq!(schema["properties"]["reuse"]["type"], "boolean");
    for removing in ["cleanup", "remove", "reconcile"] {
        let tool = tools
            .arr("tools")
            .iter()
            .find(|t| t["name"] == removing)
            .unwrap();
        assert_eq!(
            tool["inputSchema"]["properties"]["dry_run"]["default"], true,
            "{tool}"
        );
    }

    let (created, failed) = server.call("create", json!({"run_id": "t1", "pattern": "agent"}));
    assert!(!failed, "{created}");
    assert_eq!(created.text("id"), "t1");
    assert_eq!(created.text("branch"), "loop/t1");
    assert!(repo.wt("t1").join("README").is_file());
    assert_eq!(repo.status_of("t1").as_deref(), Some("active"));
    assert!(repo.branch_exists("loop/t1"));

    // The same document the command line prints.
    let (listed, failed) = server.call("list", json!({}));
    assert!(!failed);
    assert_eq!(listed, repo.run(["list", "--json"]).ok().json());
    assert_eq!(listed.ids("worktrees"), ["t1"]);

    let (marked, failed) = server.call("mark", json!({"run_id": "t1", "status": "rejected"}));
    assert!(!failed, "{marked}");
    assert_eq!(repo.status_of("t1").as_deref(), Some("rejected"));

    // A removing tool is a dry run unless told otherwise.
    let (dry, failed) = server.call("cleanup", json!({}));
    assert!(!failed, "{dry}");
    assert_eq!(dry["dryRun"], true);
    assert_eq!(dry.ids("removed"), ["t1"]);
    assert!(repo.wt("t1").exists(), "a dry run removed the worktree");
    assert_eq!(repo.ids(), ["t1"]);

    let (done, failed) = server.call("cleanup", json!({"dry_run": false}));
    assert!(!failed, "{done}");
    assert_eq!(done["dryRun"], false);
    assert!(!repo.wt("t1").exists());
    assert!(repo.ids().is_empty());
    assert!(repo.branch_exists("loop/t1"), "cleanup deleted the branch");

    let (log, _) = server.call("log", json!({"run_id": "t1"}));
    assert_eq!(log, repo.run(["log", "t1", "--json"]).ok().json());
    server.finish();
}

/// `git loop mcp --help` names the tools `tools/list` serves, in its order
/// (one table makes both), and each tool's hints follow what it may change.
#[test]
fn the_help_names_every_tool_served_with_its_hints() {
    let repo = TestRepo::new();
    let help = repo.run(["mcp", "--help"]);
    help.ok();
    let (_, after) = help
        .stdout
        .split_once("Tools: ")
        .expect("the help lists the tools");
    let (list, _) = after.split_once(';').unwrap();
    let named: Vec<&str> = list.split(',').map(str::trim).collect();
    let mut server = Server::start(&repo);
    server.initialize();
    let tools = server.result("tools/list", json!({}));
    let served: Vec<&str> = tools.arr("tools").iter().map(|t| t.text("name")).collect();
    assert_eq!(named, served, "mcp --help and tools/list disagree");
    for tool in tools.arr("tools") {
        let name = tool.text("name");
        let hints = &tool["annotations"];
        let read_only = ["list", "path", "log", "conflicts", "env"].contains(&name);
        let removes = [
            "cleanup",
            "remove",
            "reconcile",
            "branches",
            "land",
            "pick",
            "sync",
        ]
        .contains(&name);
        assert_eq!(hints["readOnlyHint"], read_only, "{tool}");
        assert_eq!(hints["destructiveHint"], removes, "{tool}");
    }
    server.finish();
}

#[test]
fn command_errors_are_tool_errors_with_the_cli_code() {
    let repo = TestRepo::new();
    let mut server = Server::start(&repo);
    server.initialize();

    let (doc, failed) = server.call("path", json!({"run_id": "nope"}));
    assert!(failed);
    assert_eq!(doc, repo.run(["path", "nope", "--json"]).code(1).json());
    assert_eq!(doc["error"]["code"], "unknown-id");

    let (doc, failed) = server.call("create", json!({"run_id": "a/b", "pattern": "p"}));
    assert!(failed);
    assert_eq!(doc["error"]["code"], "invalid-run-id");

    // A value that looks like a flag stays a value.
    let (doc, failed) = server.call("create", json!({"run_id": "--reuse", "pattern": "p"}));
    assert!(failed);
    assert_eq!(doc["error"]["code"], "invalid-run-id", "{doc}");
    assert!(!repo.loop_dir().join("--reuse").exists());

    let (doc, failed) = server.call("list", json!({"colour": true}));
    assert!(failed);
    assert_eq!(doc["error"]["code"], "usage");
    assert!(doc["error"]["message"].as_str().unwrap().contains("colour"));

    let (doc, failed) = server.call("mark", json!({"run_id": 7, "status": "merged"}));
    assert!(failed);
    assert_eq!(doc["error"]["code"], "usage");

    // `repo` points a call at another repository.
    let other = TestRepo::new();
    let path = other.root.to_str().unwrap();
    let (doc, failed) = server.call(
        "create",
        json!({"run_id": "x", "pattern": "p", "repo": path}),
    );
    assert!(!failed, "{doc}");
    assert!(other.wt("x").is_dir());
    assert!(!repo.wt("x").exists());
    server.finish();
}

#[test]
fn malformed_messages_get_json_rpc_errors_and_the_server_keeps_serving() {
    let repo = TestRepo::new();
    let mut server = Server::start(&repo);
    let errors = [
        ("{not json", -32700),
        ("[1, 2]", -32600),
        (r#""just a string""#, -32600),
        (r#"{"id": 1, "method": "ping"}"#, -32600),
        (r#"{"jsonrpc": "2.0", "id": 2}"#, -32600),
        (
            r#"{"jsonrpc": "2.0", "id": 3, "method": "no/such"}"#,
            -32601,
        ),
        (
            r#"{"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "run"}}"#,
            -32602,
        ),
        (
            r#"{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {}}"#,
            -32602,
        ),
    ];
    for (line, code) in errors {
        server.send_raw(line);
        let reply = server.read();
        assert_eq!(reply["error"]["code"], code, "{line} -> {reply}");
        assert_eq!(reply["jsonrpc"], "2.0");
    }
    // Notifications, responses and blank lines get no reply: the next line
    // read is the ping's.
    server.send_raw(r#"{"jsonrpc": "2.0", "method": "notifications/cancelled"}"#);
    server.send_raw(r#"{"jsonrpc": "2.0", "id": 99, "result": {}}"#);
    server.send_raw("");
    assert_eq!(server.result("ping", json!({})), json!({}));
    server.initialize();
    assert!(server.result("tools/list", json!({}))["tools"].is_array());
    server.finish();
}

#[test]
fn eof_at_once_exits_zero() {
    let repo = TestRepo::new();
    Server::start(&repo).finish();
}

/// The Python interpreter that has the reference client: `GIT_LOOP_TEST_PYTHON`
/// (scripts/test sets it), else the virtual environment
/// scripts/install-test-deps makes, target/test-venv. Never the system's
/// Python: the packages are installed only there.
fn python() -> std::path::PathBuf {
    let python = std::env::var_os("GIT_LOOP_TEST_PYTHON").map_or_else(
        || concat!(env!("CARGO_MANIFEST_DIR"), "/target/test-venv/bin/python3").into(),
        std::path::PathBuf::from,
    );
    let has_mcp = std::process::Command::new(&python)
        .args(["-c", "import mcp, jsonschema"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        has_mcp,
        "no Python with the package mcp at {}: run scripts/install-test-deps, which makes the \
         virtual environment target/test-venv (python3 -m venv; Debian's python3-venv) and \
         installs mcp there, or set GIT_LOOP_TEST_PYTHON to a python3 that has mcp",
        python.display()
    );
    python
}

/// The reference client runs in a virtual environment of the project's own
/// (scripts/install-test-deps makes target/test-venv), never in the
/// system's Python, where installing it would take root.
#[test]
fn the_python_client_runs_in_a_virtual_environment() {
    let out = std::process::Command::new(python())
        .args([
            "-c",
            "import sys; print(sys.prefix != sys.base_prefix, sys.prefix)",
        ])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.starts_with("True "),
        "not a virtual environment: {said}"
    );
}

/// Run `script` with [`python`], with the binary and the repository's root
/// as its arguments; returns the JSON it prints.
fn python_sdk(repo: &TestRepo, script: &str) -> Value {
    let mut cmd = std::process::Command::new(python());
    crate::common::hermetic(&mut cmd, &repo.home);
    let out = cmd
        .args([
            "-c",
            script,
            crate::common::BIN,
            repo.root.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(stdout.trim()).unwrap()
}

/// An independent client: the Python SDK connects over stdio, negotiates,
/// lists the tools and calls create and list.
#[test]
fn the_python_sdk_client_talks_to_the_server() {
    let repo = TestRepo::new();
    let script = r#"
import asyncio, json, os, sys
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

async def main():
    params = StdioServerParameters(command=sys.argv[1], args=["mcp"], cwd=sys.argv[2],
                                  env=dict(os.environ))
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            tools = await session.list_tools()
            created = await session.call_tool("create", {"run_id": "py1", "pattern": "py"})
            listed = await session.call_tool("list", {})
            missing = await session.call_tool("path", {"run_id": "nope"})
            print(json.dumps({
                "server": init.serverInfo.name,
                "tools": sorted(t.name for t in tools.tools),
                "created": [created.isError, created.structuredContent],
                "listed": [listed.isError, json.loads(listed.content[0].text)],
                "missing": [missing.isError, missing.structuredContent],
            }))

asyncio.run(main())
"#;
    let report = python_sdk(&repo, script);
    assert_eq!(report["server"], "git-loop");
    assert!(
        report["tools"]
            .as_array()
            .unwrap()
            .contains(&json!("cleanup"))
    );
    assert_eq!(report["created"][0], false);
    assert_eq!(report["created"][1]["id"], "py1");
    assert!(repo.wt("py1").is_dir());
    assert_eq!(report["listed"][0], false);
    assert_eq!(
        report["listed"][1],
        repo.run(["list", "--json"]).ok().json()
    );
    assert_eq!(report["missing"][0], true);
    assert_eq!(report["missing"][1]["error"]["code"], "unknown-id");
}

/// The MCP server against hostile lines: JSON nested far deeper than any
/// parser's stack (arrays, and objects inside a call's arguments), a long
/// line of whitespace-free junk, and a call whose `repo` is not a
/// repository or is an option-like name. Each gets an error reply, the
/// server lives on (a `ping` after them is answered) and nothing is
/// written in the repository.
#[test]
fn mcp_survives_deep_nesting_and_foreign_repos() {
    use std::io::{BufRead, Write};
    let repo = TestRepo::new();
    let not_repo = repo.base().join("plain");
    fs::create_dir(&not_repo).unwrap();
    let before = snapshot(&repo.root);
    let deep = 500_000;
    let nested_args = format!(
        r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"list","arguments":{{"status":{}1{}}}}}}}"#,
        "{\"a\":".repeat(deep),
        "}".repeat(deep)
    );
    let lines = vec![
        "[".repeat(deep * 2),
        format!(r#"{{"jsonrpc":"2.0","id":2,"method":{}"#, "[".repeat(deep)),
        nested_args,
        format!(
            r#"{{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{{"name":"list","arguments":{{"repo":{}}}}}}}"#,
            serde_json::to_string(not_repo.to_str().unwrap()).unwrap()
        ),
        r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"create","arguments":{"repo":"--help","run_id":"a","pattern":"p"}}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":6,"method":"ping"}"#.to_owned(),
    ];
    let mut child = repo
        .command()
        .arg("mcp")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        for line in lines {
            let _ = writeln!(stdin, "{line}");
        }
    });
    let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let replies: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
        .collect();
    writer.join().unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?} {replies:?}");
    assert_eq!(replies.len(), 6, "{replies:?}");
    assert_eq!(replies[5]["id"], 6, "{replies:?}");
    assert!(replies[5]["result"].is_object(), "{replies:?}");
    for r in &replies[..2] {
        assert_eq!(r["error"]["code"], -32700, "{r}");
    }
    assert!(replies[2].get("error").is_some() || replies[2]["result"]["isError"] == true);
    for r in &replies[3..5] {
        assert_eq!(r["result"]["isError"], true, "{r}");
    }
    assert_eq!(snapshot(&repo.root), before);
}

/// `mark` takes several runs as `run_ids`, and still one as `run_id` (its
/// input before `run_ids`): both are run ids.
#[test]
fn mark_takes_run_ids_and_still_run_id() {
    let repo = TestRepo::new();
    for id in ["a", "b", "c"] {
        repo.create(id);
    }
    let mut server = Server::start(&repo);
    server.initialize();
    let (doc, failed) = server.call("mark", json!({"run_ids": ["a", "b"], "status": "rejected"}));
    assert!(!failed, "{doc}");
    assert_eq!(doc.ids("worktrees"), ["a", "b"]);
    let (doc, failed) = server.call("mark", json!({"run_id": "c", "status": "merged"}));
    assert!(!failed, "{doc}");
    assert_eq!(doc["id"], "c");
    assert_eq!(repo.status_of("a").as_deref(), Some("rejected"));
    assert_eq!(repo.status_of("c").as_deref(), Some("merged"));
    server.finish();
}

/// Over MCP, `mark` names its runs: the CLI's `mark <STATUS>` infers the run
/// from the current directory, which for a tool call would be the server's
/// (or `repo`'s) — a guess, so it is refused and nothing is marked.
#[test]
fn mark_without_run_ids_is_refused_even_inside_a_run() {
    let repo = TestRepo::new();
    repo.create("a");
    let mut server = Server::start(&repo);
    server.initialize();
    let inside = repo.wt("a");
    let (doc, failed) = server.call(
        "mark",
        json!({"repo": inside.to_str().unwrap(), "status": "rejected"}),
    );
    assert!(failed, "{doc}");
    assert!(doc.to_string().contains("run_ids"), "{doc}");
    assert_eq!(repo.status_of("a").as_deref(), Some("active"));
    server.finish();
}

/// `tools/list` gives every tool an `outputSchema` (an object schema, as
/// MCP 2025-06-18 asks), and what each read-only tool returns in
/// `structuredContent` meets it: each form of the document (`list` and
/// `list` with `salvaged`), and the error document of a failed call
/// (`Server::call` validates every result against it).
#[test]
fn every_tool_has_an_output_schema_its_results_meet() {
    let repo = TestRepo::new();
    repo.create("a").ok();
    repo.create("d").ok();
    crate::common::make_dirty(&repo, "d");
    repo.run(["mark", "d", "rejected"]).ok();
    repo.run(["remove", "--salvage", "d"]).ok();
    let mut server = Server::start(&repo);
    server.initialize();
    let tools = server.result("tools/list", json!({}));
    for tool in tools.arr("tools") {
        let schema = &tool["outputSchema"];
        assert_eq!(schema["type"], "object", "{tool}");
        let validator = jsonschema::validator_for(schema).unwrap();
        let bogus = json!({"bogus": true});
        assert!(
            !validator.is_valid(&bogus),
            "{} accepts {bogus}",
            tool.text("name")
        );
    }
    let calls = [
        ("list", json!({}), false),
        ("list", json!({"long": true}), false),
        ("list", json!({"salvaged": true}), false),
        ("path", json!({"run_id": "a"}), false),
        ("path", json!({"run_id": "nope"}), true),
        ("log", json!({}), false),
        ("log", json!({"run_id": "a"}), false),
        ("conflicts", json!({}), false),
    ];
    for (tool, arguments, error) in calls {
        let (doc, failed) = server.call(tool, arguments.clone());
        assert_eq!(failed, error, "{tool} {arguments} -> {doc}");
    }
    let (salvaged, _) = server.call("list", json!({"salvaged": true}));
    assert_eq!(salvaged["salvaged"][0]["id"], "d", "{salvaged}");
    server.finish();
}

/// What `tools/list` may weigh, in bytes: every agent that connects reads
/// it into its context. Issue 41 brought it from 75 KB (~19k tokens) to
/// under 20 KiB for 16 tools; `sync`'s tool (issue 43) adds 1.45 KB, which
/// no lossless trim of the others makes room for, so 22 KiB: about one
/// tool of headroom, a new tool is a decision about this number.
const TOOLS_LIST_BUDGET: usize = 22 * 1024;

/// The Python SDK checks each result's `structuredContent` against the
/// tool's `outputSchema` itself (a mismatch raises): every tool lists one,
/// every result passes (`create --attempts`' runs, `activity`'s event and
/// `env`'s variables too), and each result, an error too, also passes
/// python-jsonschema's draft 2020-12 validator. The SDK asks for its newest
/// protocol revision; the server answers with its own, 2025-06-18 (the
/// first with `outputSchema`). The tool list, as the client holds it, is
/// under [`TOOLS_LIST_BUDGET`]; its size is printed.
#[test]
fn the_python_sdk_validates_results_against_the_output_schemas() {
    let repo = TestRepo::new();
    repo.create("a").ok();
    let script = r#"
import asyncio, json, os, sys
import jsonschema
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

CALLS = [
    ("list", {}), ("list", {"long": True}), ("list", {"salvaged": True}),
    ("path", {"run_id": "a"}), ("path", {"run_id": "nope"}),
    ("log", {}), ("log", {"run_id": "a"}), ("conflicts", {}),
    ("create", {"run_id": "fix", "attempts": 2}),
    ("activity", {"activity": "waiting", "run_id": "a", "note": "a question"}),
    ("env", {"run_id": "a"}), ("env", {}),
]

async def main():
    params = StdioServerParameters(command=sys.argv[1], args=["mcp"], cwd=sys.argv[2],
                                  env=dict(os.environ))
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            listed = await session.list_tools()
            size = len(json.dumps(listed.model_dump(mode="json", by_alias=True,
                                                    exclude_none=True),
                                  separators=(",", ":"), ensure_ascii=False).encode())
            tools = {t.name: t for t in listed.tools}
            without = sorted(n for n, t in tools.items() if t.outputSchema is None)
            for tool in tools.values():
                if tool.outputSchema is not None:
                    jsonschema.Draft202012Validator.check_schema(tool.outputSchema)
            results = []
            for name, arguments in CALLS:
                # Raises unless structuredContent meets the outputSchema.
                result = await session.call_tool(name, arguments)
                jsonschema.Draft202012Validator(tools[name].outputSchema).validate(
                    result.structuredContent)
                results.append([name, result.isError, sorted(result.structuredContent)])
            print(json.dumps({
                "protocol": init.protocolVersion,
                "size": size,
                "tools": sorted(tools),
                "without": without,
                "results": results,
            }))

asyncio.run(main())
"#;
    let report = python_sdk(&repo, script);
    let size = report["size"].as_u64().unwrap();
    eprintln!("tools/list as the Python client holds it: {size} bytes");
    assert!(
        size < TOOLS_LIST_BUDGET as u64,
        "tools/list is {size} bytes: {report}"
    );
    assert_eq!(report["protocol"], "2025-06-18", "{report}");
    assert_eq!(report["tools"].as_array().unwrap().len(), 17, "{report}");
    assert_eq!(report["without"], json!([]), "{report}");
    let results = report["results"].as_array().unwrap();
    assert_eq!(results.len(), 12, "{report}");
    for result in results {
        let failed = result[2] == json!(["error"]);
        assert_eq!(result[1], failed, "{result}");
    }
    assert_eq!(results[2], json!(["list", false, ["salvaged"]]), "{report}");
    assert_eq!(results[4], json!(["path", true, ["error"]]), "{report}");
    assert_eq!(results[8], json!(["create", false, ["runs"]]), "{report}");
    assert_eq!(results[9][1], false, "{report}");
    assert_eq!(results[10][1], false, "{report}");
    assert_eq!(results[11], json!(["env", true, ["error"]]), "{report}");
    assert_eq!(repo.status_of("fix.2").as_deref(), Some("active"));
}

/// `tools/list` as the server sends it (the line every client reads into
/// its agent's context) is under [`TOOLS_LIST_BUDGET`], every tool keeps an `outputSchema`
/// that names its document's top-level fields, and the full schema is one
/// command away (`git loop schema <tool>`, said in the instructions).
#[test]
fn tools_list_is_under_20_kib_and_keeps_every_output_schema() {
    let repo = TestRepo::new();
    let mut server = Server::start(&repo);
    let init = server.initialize();
    assert!(
        init.text("instructions").contains("git loop schema <tool>"),
        "{init}"
    );
    server.send_raw(r#"{"jsonrpc":"2.0","id":"size","method":"tools/list"}"#);
    let mut line = String::new();
    server.stdout.read_line(&mut line).unwrap();
    eprintln!("tools/list: {} bytes", line.len());
    assert!(
        line.len() < TOOLS_LIST_BUDGET,
        "tools/list is {} bytes",
        line.len()
    );
    let reply: Value = serde_json::from_str(&line).unwrap();
    let tools = reply["result"]["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 17);
    for tool in tools {
        let name = tool.text("name");
        let schema = &tool["outputSchema"];
        assert_eq!(schema["type"], "object", "{name}");
        jsonschema::validator_for(schema).unwrap();
        // The first form names the document's fields, as schema/<tool>.json.
        let full = repo.run(["schema", name]).ok().json();
        let first = full["anyOf"]
            .get(0)
            .map(|f| f.get("anyOf").map_or(f, |f| &f[0]))
            .unwrap_or(&full);
        let fields: Vec<&String> = first["properties"].as_object().unwrap().keys().collect();
        let served: Vec<&String> = schema["anyOf"][0]["properties"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        assert_eq!(served, fields, "{name}");
    }
    // Said once, in the instructions, not in every tool.
    assert!(!line.contains("Repository to operate on"));
    server.finish();
}

/// `pick` changes state, so over MCP it is a dry run unless `"dry_run":
/// false`: the dry run reports the pick and changes nothing.
#[test]
fn pick_is_a_dry_run_unless_told_otherwise() {
    let repo = TestRepo::new();
    for id in ["fix.1", "fix.2"] {
        repo.run(["create", id, "--pattern", "x"]).ok();
    }
    let manifest = fs::read(repo.manifest_path()).unwrap();
    let mut server = Server::start(&repo);
    server.initialize();
    let (doc, failed) = server.call("pick", json!({"run_id": "fix.1"}));
    assert!(!failed, "{doc}");
    assert_eq!(doc["dryRun"], true);
    assert_eq!(doc["winner"]["to"], "escalated");
    assert_eq!(doc.ids("siblings"), ["fix.2"]);
    assert_eq!(fs::read(repo.manifest_path()).unwrap(), manifest);
    let (doc, failed) = server.call("pick", json!({"run_id": "fix.1", "dry_run": false}));
    assert!(!failed, "{doc}");
    assert_eq!(doc["dryRun"], false);
    assert_eq!(repo.status_of("fix.1").as_deref(), Some("escalated"));
    assert_eq!(repo.status_of("fix.2").as_deref(), Some("rejected"));
    server.finish();
}

/// `judge` as a tool: the configured gate runs in each attempt, the result
/// is the command's document; a gate from the repository's file is refused
/// until trusted, as on the command line.
#[test]
fn the_judge_tool_runs_the_gate_and_ranks_the_attempts() {
    let repo = TestRepo::new();
    repo.run(["create", "t.1", "--pattern", "x"]).ok();
    repo.run(["create", "t.2", "--pattern", "x"]).ok();
    // The configured gate (git config is the user's own: no trust needed);
    // no caller names one.
    let gate = r#"[ "$GIT_LOOP_ID" = t.2 ]"#;
    repo.git(["config", "loop.judgeGate", gate]);
    let mut server = Server::start(&repo);
    server.initialize();
    let (doc, failed) = server.call("judge", json!({"task": "t", "jobs": 2}));
    assert!(!failed, "{doc}");
    assert_eq!(doc.ids("attempts"), ["t.2", "t.1"], "{doc}");
    assert_eq!(doc["attempts"][0]["passed"], true, "{doc}");
    assert_eq!(doc["attempts"][1]["exitCode"], 1, "{doc}");
    repo.git(["config", "--unset", "loop.judgeGate"]);
    std::fs::write(
        repo.root.join(".git-loop.toml"),
        "[judge]\ngate = \"true\"\n",
    )
    .unwrap();
    let (doc, failed) = server.call("judge", json!({"task": "t"}));
    assert!(failed, "{doc}");
    assert_eq!(doc["error"]["code"], "untrusted-hook", "{doc}");
    server.finish();
}

/// `activity` and `env` as tools. Each names its run: over MCP the current
/// directory is the server's, so `run_id` is required and a call without
/// it is refused. The input's keys may come in any order (`activity`
/// before `run_id`): the command line puts the positionals in the
/// command's order, a run id before the `--` (clap reads every value after
/// it as the last positional), so a run id that would read as a flag is
/// refused. The result is the command's document; the repository's
/// `notify.command` does not run until trusted, as on the command line.
#[test]
fn the_activity_and_env_tools_name_their_run() {
    let repo = TestRepo::new();
    repo.create("t1").ok();
    let marker = repo.home.join("notified");
    fs::write(
        repo.root.join(".git-loop.toml"),
        format!("[notify]\ncommand = \"touch '{}'\"\n", marker.display()),
    )
    .unwrap();
    let mut server = Server::start(&repo);
    server.initialize();
    let (doc, failed) = server.call(
        "activity",
        json!({"activity": "waiting", "note": "a question", "run_id": "t1"}),
    );
    assert!(!failed, "{doc}");
    assert_eq!(
        (doc.text("event"), doc.text("id"), doc.text("to")),
        ("activity", "t1", "waiting"),
        "{doc}"
    );
    assert_eq!(doc["detail"], "a question", "{doc}");
    assert!(!marker.exists(), "an untrusted notify.command ran over MCP");
    let list = repo.run(["list", "--json"]).ok().json();
    assert_eq!(list["worktrees"][0]["activity"], "waiting", "{list}");

    let (env, failed) = server.call("env", json!({"run_id": "t1"}));
    assert!(!failed, "{env}");
    assert_eq!(env, repo.run(["env", "--json", "t1"]).ok().json());
    assert_eq!(env.text("GIT_LOOP_BRANCH"), "loop/t1");

    // A run id before the command line's `--` that would read as a flag is
    // refused, and nothing is recorded.
    let events = fs::read_to_string(repo.loop_dir().join("events.jsonl")).unwrap();
    for (tool, arguments) in [
        (
            "activity",
            json!({"run_id": "--note=x", "activity": "done"}),
        ),
        (
            "mark",
            json!({"run_ids": ["t1", "--detect-merged"], "status": "rejected"}),
        ),
    ] {
        let (doc, failed) = server.call(tool, arguments);
        assert!(failed, "{doc}");
        assert_eq!(doc["error"]["code"], "usage", "{doc}");
    }
    let after = fs::read_to_string(repo.loop_dir().join("events.jsonl")).unwrap();
    assert_eq!(after, events);
    assert_eq!(repo.status_of("t1").as_deref(), Some("active"));

    for (tool, arguments) in [
        ("env", json!({})),
        ("activity", json!({"activity": "done"})),
    ] {
        let (doc, failed) = server.call(tool, arguments);
        assert!(failed, "{doc}");
        assert_eq!(doc["error"]["code"], "usage", "{doc}");
        assert!(
            doc["error"]["message"].as_str().unwrap().contains("run_id"),
            "{doc}"
        );
    }
    server.finish();
}

/// `create` with `attempts`: the N runs of a task at once, all or none, as
/// on the command line; the command's array is served as `{"runs": [...]}`
/// (`structuredContent` is an object), each run with its absolute path. A
/// task with active attempts is refused, naming them.
#[test]
fn create_with_attempts_over_mcp_returns_the_runs() {
    let repo = TestRepo::new();
    let mut server = Server::start(&repo);
    server.initialize();
    let (doc, failed) = server.call(
        "create",
        json!({"run_id": "fix", "attempts": 3, "pattern": "agent"}),
    );
    assert!(!failed, "{doc}");
    assert_eq!(doc.ids("runs"), ["fix.1", "fix.2", "fix.3"], "{doc}");
    for run in doc.arr("runs") {
        let id = run.text("id");
        assert_eq!(repo.status_of(id).as_deref(), Some("active"));
        let path = std::path::Path::new(run.text("absolutePath"));
        assert!(path.is_absolute(), "{run}");
        assert!(path.join("README").is_file(), "{run}");
    }
    let (doc, failed) = server.call("create", json!({"run_id": "fix", "attempts": 2}));
    assert!(failed, "{doc}");
    assert_eq!(doc["error"]["code"], "attempts-active", "{doc}");
    server.finish();
}

/// Whether a clap argument takes a command to run.
fn takes_a_command(arg: &clap::Arg) -> bool {
    use clap::ValueHint::{CommandName, CommandString, CommandWithArguments};
    matches!(
        arg.get_value_hint(),
        CommandName | CommandString | CommandWithArguments
    )
}

/// No MCP tool runs a command its caller names: every property of every
/// tool's input schema is an argument of its command that takes no command
/// (`repo` aside), and every argument of the whole CLI that takes one
/// (value name `CMD` or `COMMAND`, or "sh -c" in its help) says so with
/// clap's value hint, so a new one cannot slip into a tool unclassified.
/// Then a call that passes `gate` to `judge`, `land`, `pick` or `sync` is refused
/// and runs nothing.
#[test]
fn no_tool_takes_a_command_to_run() {
    use clap::CommandFactory;
    let cli = git_loop::cli::Cli::command();
    fn every_arg(cmd: &clap::Command, out: &mut Vec<(String, clap::Arg)>) {
        for arg in cmd.get_arguments() {
            out.push((cmd.get_name().to_owned(), arg.clone()));
        }
        for sub in cmd.get_subcommands() {
            every_arg(sub, out);
        }
    }
    let mut all = Vec::new();
    every_arg(&cli, &mut all);
    let mut commands = 0;
    for (cmd, arg) in &all {
        let names: Vec<String> = arg
            .get_value_names()
            .map(|v| v.iter().map(|n| n.to_string()).collect())
            .unwrap_or_default();
        let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
        if names.iter().any(|n| n == "CMD" || n == "COMMAND") || help.contains("sh -c") {
            assert!(
                takes_a_command(arg),
                "{cmd} {}: takes a command; give it clap's ValueHint::CommandString",
                arg.get_id()
            );
            commands += 1;
        }
    }
    assert!(commands >= 3, "judge --gate, land --gate, run's COMMAND");

    let repo = TestRepo::new();
    let mut server = Server::start(&repo);
    server.initialize();
    let tools = server.result("tools/list", json!({}));
    for tool in tools.arr("tools") {
        let name = tool.text("name");
        let sub = cli.find_subcommand(name).unwrap();
        let properties = tool["inputSchema"]["properties"].as_object().unwrap();
        for key in properties.keys().filter(|k| *k != "repo") {
            let arg = sub
                .get_arguments()
                .find(|a| {
                    a.get_id() == key.as_str()
                        || (a.is_positional()
                            && a.get_value_names()
                                .is_some_and(|v| v.iter().any(|n| n.to_lowercase() == *key)))
                })
                .unwrap_or_else(|| panic!("tool {name}'s {key} is no argument of `{name}`"));
            assert!(
                !takes_a_command(arg),
                "tool {name} takes a command to run in {key:?}"
            );
        }
    }

    // Passed anyway: refused, nothing run.
    repo.run(["create", "t.1", "--pattern", "x"]).ok();
    let marker = repo.base().join("ran");
    let gate = format!("touch '{}'", marker.display());
    for (tool, input) in [
        ("judge", json!({"task": "t", "gate": gate})),
        (
            "land",
            json!({"run_ids": ["t.1"], "gate": gate, "dry_run": false}),
        ),
        (
            "pick",
            json!({"run_id": "t.1", "land": true, "gate": gate, "dry_run": false}),
        ),
        (
            "sync",
            json!({"run_ids": ["t.1"], "gate": gate, "dry_run": false}),
        ),
    ] {
        let (doc, failed) = server.call(tool, input);
        assert!(failed, "{tool}: {doc}");
        assert_eq!(doc["error"]["code"], "usage", "{tool}: {doc}");
        assert!(
            doc["error"]["message"].as_str().unwrap().contains("gate"),
            "{doc}"
        );
    }
    assert!(!marker.exists(), "a caller's gate ran");
    assert_eq!(repo.status_of("t.1").as_deref(), Some("active"));
    server.finish();
}

/// A command's error reaches the client in its tool result, not the
/// server's stderr (which a client shows as the server's own trouble).
#[test]
fn the_server_does_not_copy_a_commands_errors_to_its_stderr() {
    let repo = TestRepo::new();
    let log = repo.base().join("server-stderr");
    let file = std::fs::File::create(&log).unwrap();
    let mut server = Server::start_with_stderr(&repo, Stdio::from(file));
    server.initialize();
    let (doc, failed) = server.call("path", json!({"run_id": "nope"}));
    assert!(failed);
    assert_eq!(doc["error"]["code"], "unknown-id");
    server.finish();
    let said = std::fs::read_to_string(&log).unwrap();
    assert!(!said.contains("nope"), "{said}");
    assert!(!said.contains("error"), "{said}");
}

/// Runs `a` and `b`, each with a commit of its own, and `main` moved by a
/// commit after them: both behind their base, neither conflicting.
fn two_runs_behind_main() -> TestRepo {
    let repo = TestRepo::new();
    for id in ["a", "b"] {
        repo.create(id).ok();
        crate::common::commit(&repo, &repo.wt(id), &format!("{id}.txt"), "own\n");
    }
    crate::common::commit(&repo, &repo.root, "main.txt", "main moved\n");
    repo
}

/// `sync` as a tool, through the reference Python client (which checks
/// every result against the tool's `outputSchema`): listed as changing
/// refs (`destructiveHint`), `dry_run` defaulting to true and no `gate`
/// in its input; a call without `dry_run` predicts and writes no ref or
/// object; `"dry_run": false` syncs the runs named, their old tips in the
/// trash; a `gate` passed anyway is refused and runs nothing; a `sync.gate`
/// from the repository's file does not run until trusted (`untrusted-hook`,
/// nothing moved), one in git config (the user's own) runs, and a failing
/// one keeps the run where it was (`gate-failed`).
#[test]
fn the_sync_tool_is_a_dry_run_unless_told_and_runs_only_a_trusted_gate() {
    let repo = two_runs_behind_main();
    let main = repo.git(["rev-parse", "main"]).trim().to_owned();
    let tip = |id: &str| {
        repo.git(["rev-parse", &format!("loop/{id}")])
            .trim()
            .to_owned()
    };
    let (a, b) = (tip("a"), tip("b"));
    let marker = repo.base().join("gate-ran");
    let script = format!(
        r#"
import asyncio, json, os, subprocess, sys
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

def state():
    refs = subprocess.run(["git", "for-each-ref"], cwd=sys.argv[2], capture_output=True,
                          check=True).stdout
    objects = subprocess.run(["git", "count-objects", "-v"], cwd=sys.argv[2],
                             capture_output=True, check=True).stdout
    return (refs + objects).decode()

async def main():
    params = StdioServerParameters(command=sys.argv[1], args=["mcp"], cwd=sys.argv[2],
                                  env=dict(os.environ))
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = {{t.name: t for t in (await session.list_tools()).tools}}
            sync = tools["sync"]
            before = state()
            dry = await session.call_tool("sync", {{}})
            unchanged = state() == before
            toml = os.path.join(sys.argv[2], ".git-loop.toml")
            with open(toml, "w") as f:
                f.write('[sync]\ngate = "touch {marker}"\n')
            untrusted = await session.call_tool("sync", {{"run_ids": ["a"], "dry_run": False}})
            os.remove(toml)
            given = await session.call_tool("sync", {{"run_ids": ["a"], "dry_run": False,
                                                     "gate": "touch {marker}"}})
            unmoved = state() == before
            subprocess.run(["git", "config", "loop.syncGate", "exit 3"], cwd=sys.argv[2],
                           check=True)
            failed = await session.call_tool("sync", {{"run_ids": ["b"], "dry_run": False}})
            subprocess.run(["git", "config", "loop.syncGate", "true"], cwd=sys.argv[2],
                           check=True)
            synced = await session.call_tool("sync", {{"run_ids": ["a"], "dry_run": False,
                                                      "strategy": "merge"}})
            print(json.dumps({{
                "annotations": sync.annotations.model_dump(exclude_none=True),
                "input": sync.inputSchema,
                "dry": [dry.isError, dry.structuredContent],
                "unchanged": unchanged,
                "untrusted": [untrusted.isError, untrusted.structuredContent],
                "given": [given.isError, given.structuredContent],
                "unmoved": unmoved,
                "failed": [failed.isError, failed.structuredContent],
                "synced": [synced.isError, synced.structuredContent],
            }}))

asyncio.run(main())
"#,
        marker = marker.display()
    );
    let report = python_sdk(&repo, &script);
    assert_eq!(report["annotations"]["destructiveHint"], true, "{report}");
    assert_eq!(report["annotations"]["readOnlyHint"], false, "{report}");
    let input = &report["input"]["properties"];
    assert_eq!(input["dry_run"]["default"], true, "{report}");
    assert!(input.get("gate").is_none(), "{report}");
    for key in ["run_ids", "status", "strategy", "fetch", "keep_going"] {
        assert!(input.get(key).is_some(), "no {key}: {report}");
    }

    // Without dry_run: the prediction, nothing written.
    let (failed, dry) = (&report["dry"][0], &report["dry"][1]);
    assert_eq!(failed, false, "{report}");
    assert_eq!(dry["dryRun"], true, "{report}");
    assert_eq!(dry.ids("synced"), ["a", "b"], "{report}");
    assert_eq!(dry["synced"][0]["trashRef"], Value::Null, "{report}");
    assert_eq!(report["unchanged"], true, "a dry run wrote: {report}");

    // A gate the caller names, or the repository's file names untrusted:
    // refused, nothing ran, nothing moved.
    let untrusted = &report["untrusted"];
    assert_eq!(untrusted[0], true, "{report}");
    assert_eq!(untrusted[1]["error"]["code"], "untrusted-hook", "{report}");
    let given = &report["given"];
    assert_eq!(given[0], true, "{report}");
    assert_eq!(given[1]["error"]["code"], "usage", "{report}");
    assert!(
        given[1]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("gate")
    );
    assert!(!marker.exists(), "a gate ran that must not");
    assert_eq!(report["unmoved"], true, "{report}");

    // The user's own gate runs: failing, the run stays where it was.
    let failed = &report["failed"];
    assert_eq!(failed[0], true, "{report}");
    assert_eq!(failed[1]["skipped"][0]["code"], "gate-failed", "{report}");
    assert_eq!(tip("b"), b);

    // Passing: synced, the old tip in the trash.
    let (failed, synced) = (&report["synced"][0], &report["synced"][1]);
    assert_eq!(failed, false, "{report}");
    assert_eq!(synced["dryRun"], false, "{report}");
    let run = &synced["synced"][0];
    assert_eq!(
        (
            run.text("id"),
            run.text("from"),
            run.text("to"),
            run.text("strategy")
        ),
        ("a", a.as_str(), tip("a").as_str(), "merge"),
        "{report}"
    );
    assert_eq!(repo.git(["rev-parse", "loop/a^2"]).trim(), main);
    assert_eq!(repo.git(["rev-parse", run.text("trashRef")]).trim(), a);
    assert!(repo.wt("a").join("main.txt").is_file());
}
