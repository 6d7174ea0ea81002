//! `git loop env [<RUN_ID>]`: a run's variables (see [`crate::ops::env`]) as
//! `export NAME='value'` lines, one a variable, quoted so that
//! `eval "$(git loop env x)"` sets exactly the value whatever bytes a path
//! holds (spaces, quotes, `$`, newlines): each value in single quotes, a
//! `'` in it written `'\''`. With no id, the run whose worktree holds the
//! directory it runs from. `--json`: one object, `{"GIT_LOOP_ID": …, …}`;
//! a path that is not UTF-8 is refused there (`unrepresentable-path`), as
//! `path` refuses it. A run leased ports (`create.ports`) has
//! `GIT_LOOP_PORT` (the first) and `GIT_LOOP_PORT_1`… too; one without has
//! none of them.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::cli::{EnvArgs, RunId};
use crate::ctx::Ctx;
use crate::error::{Error, Result};
use crate::ops::env::RunEnv;
use crate::output::{Out, Report};

/// A run's variables, as `env` prints them.
#[derive(Debug)]
pub struct EnvReport(pub RunEnv);

/// `'value'` for sh: every byte as it is, a `'` closed, escaped and
/// reopened.
pub fn shell_quote(value: &OsStr) -> Vec<u8> {
    let mut quoted = Vec::with_capacity(value.len() + 2);
    quoted.push(b'\'');
    for &b in value.as_bytes() {
        if b == b'\'' {
            quoted.extend_from_slice(b"'\\''");
        } else {
            quoted.push(b);
        }
    }
    quoted.push(b'\'');
    quoted
}

impl Report for EnvReport {
    fn human(&self, out: &mut Out<'_>) -> std::io::Result<()> {
        for (name, value) in self.0.variables() {
            out.stdout.write_all(format!("export {name}=").as_bytes())?;
            out.stdout.write_all(&shell_quote(&value))?;
            out.stdout.write_all(b"\n")?;
        }
        out.stdout.flush()
    }

    fn check_json(&self) -> Result<()> {
        for path in [&self.0.root, &self.0.path] {
            if path.to_str().is_none() {
                return Err(Error::UnrepresentablePath { path: path.clone() });
            }
        }
        Ok(())
    }
}

impl Serialize for EnvReport {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let variables = self.0.variables();
        let mut map = s.serialize_map(Some(variables.len()))?;
        for (name, value) in variables {
            // UTF-8, checked by `check_json` before anything is written.
            map.serialize_entry(&name, &value.to_string_lossy())?;
        }
        map.end()
    }
}

impl JsonSchema for EnvReport {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "EnvReport".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let string =
            |description: &str| json_schema!({"type": "string", "description": description});
        let port = |description: &str| json_schema!({"type": "string", "pattern": "^[1-9][0-9]{0,4}$", "description": description});
        json_schema!({
            "type": "object",
            "description": "A run's variables: the environment of `run` and of every configured command",
            "properties": {
                "GIT_LOOP_ID": string("The run's id"),
                "GIT_LOOP_ROOT": string("The repository root (absolute): the main work tree, or the directory of the bare-repository layout"),
                "GIT_LOOP_PATH": string("The run's worktree (absolute)"),
                "GIT_LOOP_BRANCH": string("The run's branch, loop/<id>"),
                "GIT_LOOP_PORT": port("The first port leased to the run (create.ports); absent when it has none"),
            },
            "patternProperties": {
                "^GIT_LOOP_PORT_[1-9][0-9]*$": port("The Nth port leased to the run, from 1"),
            },
            "required": ["GIT_LOOP_ID", "GIT_LOOP_ROOT", "GIT_LOOP_PATH", "GIT_LOOP_BRANCH"],
            "additionalProperties": false,
        })
    }
}

/// The variables of the run named, or with none of the run the directory
/// it runs from (`-C <DIR>`, else the current one) is in.
pub fn exec(repo: Option<&Path>, args: &EnvArgs) -> Result<EnvReport> {
    let ctx = Ctx::open(repo)?;
    let inferred: RunId;
    let id = match &args.run_id {
        Some(id) => id,
        None => {
            let dir = crate::ops::infer::start_dir(repo)?;
            inferred = crate::ops::infer::run_at(&ctx, &dir, "git loop env <RUN_ID>")?;
            &inferred
        }
    };
    Ok(EnvReport(crate::ops::env::of(&ctx, id)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schema_names_every_variable_env_for_gives() {
        let schema = schemars::schema_for!(EnvReport);
        let props = schema.get("properties").unwrap().as_object().unwrap();
        let vars =
            crate::configured_command::env_for("x", "/r".as_ref(), "/p".as_ref(), "b", &[1, 2]);
        let pattern = schema
            .get("patternProperties")
            .unwrap()
            .as_object()
            .unwrap();
        let pattern = regex_lite_free_match(pattern.keys().next().unwrap());
        let mut listed: Vec<&str> = props.keys().map(String::as_str).collect();
        let mut expected: Vec<&str> = vars
            .iter()
            .map(|(n, _)| n.as_ref())
            .filter(|n| !pattern(n))
            .collect();
        listed.sort();
        expected.sort();
        assert_eq!(listed, expected);
        assert!(pattern("GIT_LOOP_PORT_1") && pattern("GIT_LOOP_PORT_2"));
    }

    /// `^GIT_LOOP_PORT_[1-9][0-9]*$`, the one pattern, matched by hand.
    fn regex_lite_free_match(pattern: &str) -> impl Fn(&str) -> bool {
        assert_eq!(pattern, "^GIT_LOOP_PORT_[1-9][0-9]*$");
        |name: &str| {
            name.strip_prefix("GIT_LOOP_PORT_").is_some_and(|n| {
                n.starts_with(|c: char| ('1'..='9').contains(&c))
                    && n.bytes().all(|b| b.is_ascii_digit())
            })
        }
    }

    #[test]
    fn quotes_survive_the_shell() {
        assert_eq!(shell_quote(OsStr::new("a b")), b"'a b'");
        assert_eq!(shell_quote(OsStr::new("it's $x")), b"'it'\\''s $x'");
    }
}
