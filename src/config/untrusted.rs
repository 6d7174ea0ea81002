//! The repository's own `.git-loop.toml` before `git loop trust`: what of it
//! takes effect (see [`keys::Class`]).
//!
//! The file is still read and validated whole (an invalid value is an
//! error, trusted or not: a typo is reported where it is). Then, while the
//! file's content is not trusted, the values of every key that
//! [weakens a guard](keys::Class::WeakensGuard) are taken out of it before
//! the layers merge, so the next lower layer's value applies (at the bottom
//! the built-in default), and the keys taken out are named in a note. The
//! commands a file names stay in the layer: they never run untrusted
//! ([`crate::configured_command`] refuses them), and `git loop config`
//! still shows them, marked.
//!
//! The stripping is by key path over the parsed TOML, for every key of
//! [`keys::ALL`] by its class: a new key needs no code here.

use figment::providers::{Format, Toml};
use figment::value::{Dict, Value};
use figment::{Profile, Provider};

use super::keys::Raw;
use super::keys::{self, Class};
use super::layers::{Layer, TomlFile, line_of};
use crate::error::Result;

/// `file` as a layer from an untrusted repository, and the keys whose
/// values were taken out of it (in [`keys::ALL`]'s order).
pub fn layer(file: &TomlFile) -> Result<(Layer, Vec<&'static str>)> {
    // Validated whole first: an invalid value is an error either way.
    let full = file.layer()?;
    let dict = parse(file.text());
    let ignored: Vec<&'static str> = keys::ALL
        .iter()
        .filter(|k| k.class == Class::WeakensGuard && get(&dict, k.toml).is_some())
        .map(|k| k.toml)
        .collect();
    if ignored.is_empty() {
        return Ok((full, ignored));
    }
    let mut kept = dict;
    for key in &ignored {
        remove(&mut kept, key);
    }
    let origin = file.origin();
    let values = Raw::from_dict(&kept)
        .expect("a subset of a file that parsed parses")
        .validate(&origin, &|key| line_of(file.text(), key))?;
    Ok((Layer { origin, values }, ignored))
}

/// The file's top-level table (empty when it does not parse: then
/// [`TomlFile::layer`] has already refused it).
fn parse(text: &str) -> Dict {
    Toml::string(text)
        .data()
        .ok()
        .and_then(|mut profiles| profiles.remove(&Profile::Default))
        .unwrap_or_default()
}

/// The value at a dotted key path (`cleanup.status`).
fn get<'a>(dict: &'a Dict, path: &str) -> Option<&'a Value> {
    let (head, rest) = match path.split_once('.') {
        Some((head, rest)) => (head, Some(rest)),
        None => (path, None),
    };
    let value = dict.get(head)?;
    match (rest, value) {
        (None, value) => Some(value),
        (Some(rest), Value::Dict(_, inner)) => get(inner, rest),
        (Some(_), _) => None,
    }
}

/// Take the value at a dotted key path out (an emptied table stays: it
/// sets nothing).
fn remove(dict: &mut Dict, path: &str) {
    match path.split_once('.') {
        None => {
            dict.remove(path);
        }
        Some((head, rest)) => {
            if let Some(Value::Dict(_, inner)) = dict.get_mut(head) {
                remove(inner, rest);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> TomlFile {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(".git-loop.toml"), text).unwrap();
        TomlFile::read_repo(dir.path()).unwrap().unwrap()
    }

    #[test]
    fn guard_weakening_values_are_taken_out_and_named() {
        let f = file(
            "base = \"dev\"\n[trash]\nkeep = \"0s\"\n[cleanup]\nstatus = \"active\"\npre-command = \"true\"\n",
        );
        let (layer, ignored) = layer(&f).unwrap();
        assert_eq!(ignored, ["cleanup.status", "trash.keep"]);
        assert_eq!(layer.values.trash_keep, None);
        assert_eq!(layer.values.cleanup_status, None);
        // Plain values and commands stay.
        assert_eq!(layer.values.base.as_deref(), Some("dev"));
        assert_eq!(
            layer.values.cleanup_pre_command,
            Some(Some("true".to_owned()))
        );
    }

    #[test]
    fn an_invalid_value_is_still_an_error_untrusted() {
        let f = file("[trash]\nkeep = \"soon\"\n");
        assert!(layer(&f).is_err());
    }

    /// Every key has a class (the field cannot be left out), and
    /// docs/cli.md's key table shows each key's class as the code has it:
    /// a key without a row, or a row with another class, fails.
    #[test]
    fn every_key_has_its_class_in_the_interface_contract() {
        let contract = include_str!("../../docs/cli.md");
        let table = contract
            .split("## Configuration")
            .nth(1)
            .expect("docs/cli.md has a Configuration section");
        for key in keys::ALL {
            let row = table
                .lines()
                .find(|l| l.starts_with(&format!("| `{}` |", key.toml)))
                .unwrap_or_else(|| panic!("docs/cli.md's key table has no row for {}", key.toml));
            let class = row
                .trim_end_matches('|')
                .rsplit('|')
                .next()
                .unwrap_or_default()
                .trim();
            assert_eq!(
                class,
                key.class.as_str(),
                "docs/cli.md gives {} the class {class:?}",
                key.toml
            );
        }
        // The three classes are all in use, and every key is in ALL once.
        for class in [Class::Plain, Class::RunsCommand, Class::WeakensGuard] {
            assert!(keys::ALL.iter().any(|k| k.class == class), "{class:?}");
        }
        let mut names: Vec<&str> = keys::ALL.iter().map(|k| k.toml).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), keys::ALL.len());
    }
}
