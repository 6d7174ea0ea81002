//! Reading the layers: what each TOML file sets ([`TomlFile::layer`]; the
//! files themselves are [`super::file`]'s), the environment, and the
//! built-in defaults. (The git-config layer is [`super::git`].)

use figment::error::Kind;
use figment::value::{Dict, Value};
use figment::{Profile, Provider};

pub use super::file::{TomlFile, repo_toml_path, user_toml_path};
pub use super::keys::Layer;
use super::keys::{self, Raw};
use super::source::Origin;
use super::validate::At;
use crate::error::{Error, Result};

/// The built-in defaults, as a layer (the lowest).
pub fn defaults() -> Layer {
    Layer {
        origin: Origin::Default,
        values: keys::default_values(),
    }
}

/// The environment layer: one per variable set (an empty variable counts
/// as unset). `GIT_LOOP_CREATE_COPY` and `GIT_LOOP_POOL_KEEP` are
/// comma-separated.
pub fn env() -> Result<Vec<Layer>> {
    let mut out = Vec::new();
    for key in keys::ALL {
        let Some(text) = std::env::var(key.env).ok().filter(|v| !v.is_empty()) else {
            continue;
        };
        let origin = Origin::Env(key.env);
        let items = text
            .split(',')
            .map(|p| p.trim().to_owned())
            .filter(|p| !p.is_empty())
            .collect();
        let at = At {
            origin: &origin,
            key,
            line: None,
        };
        let values = Raw::from_text(key, text, items, &at)?.validate(&origin, &|_| None)?;
        out.push(Layer { origin, values });
    }
    Ok(out)
}

/// A TOML file's shape read, or serde's error (boxed: it is large).
pub type Shaped<T> = std::result::Result<T, Box<figment::Error>>;

impl Raw {
    /// A TOML file's top-level table read into its raw shape. Unknown keys
    /// are errors (a typo must not be silently ignored), as a value of the
    /// wrong type is; the first one found (in the file's key order) is the
    /// error, as serde reports it, its path the key's.
    pub fn from_dict(dict: &Dict) -> Shaped<Raw> {
        let mut raw = Raw::default();
        raw.read_table(dict, &[])?;
        Ok(raw)
    }

    /// The keys of the table at `path` (empty: the top level).
    fn read_table(&mut self, dict: &Dict, path: &[&str]) -> Shaped<()> {
        for (name, value) in dict {
            let mut at: Vec<&str> = path.to_vec();
            at.push(name);
            let toml = at.join(".");
            let located = |mut e: Box<figment::Error>| {
                e.path.splice(0..0, at.iter().map(|p| (*p).to_owned()));
                e
            };
            if self.set_toml(&toml, value).map_err(located)? {
                continue;
            }
            let table = format!("{toml}.");
            if !keys::ALL.iter().any(|k| k.toml.starts_with(&table)) {
                // figment's kind takes a `'static` list: leaked once, on
                // the way to an error that ends the command.
                let expected = Box::leak(names_in(path).into_boxed_slice());
                let kind = Kind::UnknownField(name.clone(), expected);
                return Err(located(Box::new(kind.into())));
            }
            match value {
                Value::Dict(_, inner) => self.read_table(inner, &at)?,
                other => {
                    let mut chars = name.chars();
                    let first = chars.next().map(|c| c.to_ascii_uppercase());
                    let shape =
                        format!("struct Raw{}{}", first.unwrap_or_default(), chars.as_str());
                    let kind = Kind::InvalidType(other.to_actual(), shape);
                    return Err(located(Box::new(kind.into())));
                }
            }
        }
        Ok(())
    }
}

/// The names directly in the table at `path`, each once, in the table's
/// order (an unknown key's error lists them).
fn names_in(path: &[&str]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for key in keys::ALL {
        let mut parts = key.toml.split('.');
        if !path.iter().all(|p| parts.next() == Some(*p)) {
            continue;
        }
        if let Some(name) = parts.next().filter(|n| !out.contains(n)) {
            out.push(name);
        }
    }
    out
}

impl TomlFile {
    /// The file's raw content (validated for shape only: syntax, unknown
    /// keys, types).
    pub fn raw(&self) -> Result<Raw> {
        let dict = self
            .data()
            .map(|mut profiles| profiles.remove(&Profile::Default).unwrap_or_default())
            .map_err(|e| self.shape_error(e))?;
        Raw::from_dict(&dict).map_err(|e| self.shape_error(*e))
    }

    /// The file as a layer, every value validated.
    pub fn layer(&self) -> Result<Layer> {
        let origin = self.origin();
        let values = self
            .raw()?
            .validate(&origin, &|key| line_of(self.text(), key))?;
        Ok(Layer { origin, values })
    }

    /// figment's errors for this file in one line each, naming the key and
    /// its line (the help says which line to edit).
    fn shape_error(&self, errors: figment::Error) -> Error {
        use figment::error::Kind;
        let mut messages = Vec::new();
        let mut first_line = None;
        let mut first_key = None;
        for e in errors {
            let key = e.path.join(".");
            let (line, message) = match &e.kind {
                Kind::Message(text) => match syntax_error(text) {
                    Some((line, text)) => (Some(line), text),
                    None if key == keys::CLEANUP_STATUS.toml => (
                        None,
                        "expected an array of statuses or one comma-separated string".to_owned(),
                    ),
                    None => (None, text.clone()),
                },
                Kind::UnknownField(found, expected) => {
                    let table = e.path[..e.path.len().saturating_sub(1)].join(".");
                    let expected: Vec<String> = expected
                        .iter()
                        .map(|k| match table.as_str() {
                            "" => (*k).to_owned(),
                            t => format!("{t}.{k}"),
                        })
                        .collect();
                    let name = match table.as_str() {
                        "" => found.clone(),
                        t => format!("{t}.{found}"),
                    };
                    (
                        None,
                        format!(
                            "unknown key `{name}`; the keys here are {}",
                            expected.join(", ")
                        ),
                    )
                }
                Kind::InvalidType(actual, expected) => {
                    let expected = if expected == "a boolean" {
                        "a boolean (true or false)"
                    } else {
                        expected
                    };
                    (None, format!("found {actual}, expected {expected}"))
                }
                kind => (None, kind.to_string()),
            };
            let line = line.or_else(|| line_of(self.text(), &key));
            first_line = first_line.or(line);
            if first_key.is_none() && !key.is_empty() {
                first_key = Some(key.clone());
            }
            messages.push(match key.as_str() {
                "" => message,
                _ if matches!(e.kind, Kind::UnknownField(..)) => message,
                k => format!("`{k}`: {message}"),
            });
        }
        Error::Config {
            origin: self.origin().to_string(),
            message: messages.join("; "),
            help: self.origin().fix(first_key.as_deref(), first_line),
        }
    }
}

/// A TOML syntax error on one line (`line 1, column 8: invalid string,
/// expected `"`, `'``) and its line number, from the toml crate's
/// multi-line report (`TOML parse error at line 1, column 8`, a gutter with
/// the source line and a caret, then the reason).
fn syntax_error(text: &str) -> Option<(usize, String)> {
    let mut lines = text.lines();
    let head = lines.next()?.strip_prefix("TOML parse error at ")?;
    let line: usize = head
        .strip_prefix("line ")?
        .split(',')
        .next()?
        .trim()
        .parse()
        .ok()?;
    let reason: Vec<&str> = lines
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.contains('|'))
        .collect();
    Some((line, format!("{head}: {}", reason.join(", "))))
}

/// The line (1-based) where `key` (a dotted path such as `cleanup.status`)
/// is set in TOML `text`: under its `[table]` header, as a dotted key, or
/// inside an inline table on its parent's line. `None` when not found.
pub fn line_of(text: &str, key: &str) -> Option<usize> {
    let unquote = |s: &str| s.trim().trim_matches('"').trim_matches('\'').to_owned();
    let mut table = String::new();
    let mut parent = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.starts_with('[') {
            let name = line.trim_start_matches('[').split(']').next().unwrap_or("");
            table = name.split('.').map(unquote).collect::<Vec<_>>().join(".");
            continue;
        }
        let Some((name, _)) = line.split_once('=') else {
            continue;
        };
        if name.trim_start().starts_with('#') {
            continue;
        }
        let name = name.split('.').map(unquote).collect::<Vec<_>>().join(".");
        let full = match table.as_str() {
            "" => name,
            t => format!("{t}.{name}"),
        };
        if full == key {
            return Some(i + 1);
        }
        if parent.is_none() && key.starts_with(&format!("{full}.")) {
            parent = Some(i + 1);
        }
    }
    // The header of the key's own table is the next best place.
    parent.or_else(|| {
        let (table, _) = key.rsplit_once('.')?;
        text.lines()
            .position(|l| l.trim().trim_start_matches('[').split(']').next() == Some(table))
            .map(|i| i + 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_keys() {
        let text = "base = \"x\"\n# c = 1\n[cleanup]\nstatus = [\"a\"]\n\n[create]\n\"post-command\" = \"y\"\n";
        assert_eq!(line_of(text, "base"), Some(1));
        assert_eq!(line_of(text, "cleanup.status"), Some(4));
        assert_eq!(line_of(text, "create.post-command"), Some(7));
        assert_eq!(line_of(text, "create.copy"), Some(6));
        assert_eq!(line_of("cleanup.status = 1\n", "cleanup.status"), Some(1));
        assert_eq!(
            line_of("cleanup = { status = 1 }\n", "cleanup.status"),
            Some(1)
        );
        assert_eq!(line_of("", "base"), None);
    }
}
