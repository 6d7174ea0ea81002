//! What a git-loop run returned ([`Run`]) and short readers of its JSON.

use serde_json::Value;

use super::TestRepo;

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn ok(&self) -> &Self {
        assert_eq!(
            self.code, 0,
            "expected success\nstdout: {}\nstderr: {}",
            self.stdout, self.stderr
        );
        self
    }
    pub fn code(&self, code: i32) -> &Self {
        assert_eq!(
            self.code, code,
            "expected exit {code}\nstdout: {}\nstderr: {}",
            self.stdout, self.stderr
        );
        self
    }
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not one JSON document ({e}): {:?}", self.stdout))
    }
}

/// Short accessors for the JSON the tests read, in place of
/// `["key"].as_array().unwrap()` chains. Each panics with the key and the
/// whole value when the shape is not the expected one.
pub trait JsonExt {
    /// The array at `key`.
    fn arr(&self, key: &str) -> &[Value];
    /// The string at `key`.
    fn text(&self, key: &str) -> &str;
    /// The `id` of each object in the array at `key`, in order.
    fn ids(&self, key: &str) -> Vec<&str>;
    /// The object in the array at `key` whose `id` is `id`.
    fn find_id(&self, key: &str, id: &str) -> &Value;
}

impl JsonExt for Value {
    fn arr(&self, key: &str) -> &[Value] {
        self[key]
            .as_array()
            .unwrap_or_else(|| panic!("{key:?} is not an array in {self}"))
    }
    fn text(&self, key: &str) -> &str {
        self[key]
            .as_str()
            .unwrap_or_else(|| panic!("{key:?} is not a string in {self}"))
    }
    fn ids(&self, key: &str) -> Vec<&str> {
        self.arr(key).iter().map(|e| e.text("id")).collect()
    }
    fn find_id(&self, key: &str, id: &str) -> &Value {
        self.arr(key)
            .iter()
            .find(|e| e["id"] == id)
            .unwrap_or_else(|| panic!("no {id:?} in {key:?} of {self}"))
    }
}

/// The `error.message` of a `--json` failure.
pub fn json_message(run: &Run) -> String {
    run.json()["error"]["message"].as_str().unwrap().to_owned()
}

/// The `skipped` item of `id` in a cleanup/remove/reconcile document.
pub fn skipped<'a>(v: &'a Value, id: &str) -> &'a Value {
    v.find_id("skipped", id)
}

/// Run `id`'s entry in `list --long --json`.
pub fn long_of(repo: &TestRepo, id: &str) -> Value {
    repo.run(["--json", "list", "--long"])
        .json()
        .find_id("worktrees", id)
        .clone()
}
