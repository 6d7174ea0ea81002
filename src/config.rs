//! Effective settings, read in layers through figment, and where each value
//! came from.
//!
//! Lowest to highest (the CLI contract's order):
//!
//! | layer | where |
//! |---|---|
//! | built-in | `base = "main"`, `cleanup.status = ["rejected","escalated"]`, no cutoff |
//! | user TOML | `$XDG_CONFIG_HOME/git-loop/config.toml`, else `~/.config/git-loop/config.toml` |
//! | repo TOML | `<root>/.git-loop.toml` |
//! | git config | `loop.base`, `loop.cleanupStatus`, `loop.cleanupOlderThan` through git's own cascade (system < global < local < worktree, includes, `GIT_CONFIG_COUNT`), then `git -c` values (`GIT_CONFIG_PARAMETERS`) |
//! | environment | `GIT_LOOP_BASE`, `GIT_LOOP_CLEANUP_STATUS`, `GIT_LOOP_CLEANUP_OLDER_THAN`, `GIT_LOOP_CLEANUP_DELETE_MERGED_BRANCHES` (an empty variable counts as unset) |
//! | flags | `--base`, `--status`, `--older-than`, `--delete-merged-branches` (applied by the commands) |
//!
//! `cleanup.delete-merged-branches` (git: `loop.cleanupDeleteMergedBranches`)
//! is a boolean; git config and the environment spell it as git does
//! (true/yes/on/1, false/no/off/0).
//!
//! Every layer is a figment provider. The git-config and environment layers
//! are one provider *per value*, so figment's metadata for the value names its
//! exact source (the config file and key, or the variable).
//!
//! Every layer is validated on its own before the merge: an invalid value is
//! an error naming its layer and the value even when a higher layer would
//! override it, so a broken setting never lies in wait. Unknown TOML keys are
//! errors too (a typo must not be silently ignored). Config is read only by the
//! commands that use it (create, cleanup, config, trust).
//!
//! Reading the files ([`TomlFile`]): each is read once, through [`crate::fsx`],
//! and figment parses that text (the layer still names the file). The
//! repository's own `<root>/.git-loop.toml` comes with a clone, so it is read
//! as git reads a `.gitattributes`: never through a symlink (a committed
//! `.git-loop.toml -> ~/.secret` would otherwise echo the secret in a parse
//! error), and only when it is a regular file (a FIFO or `/dev/zero` is
//! refused, never read). The user's own file may be a symlink (dotfile
//! managers link it) but must lead to a regular file. Both are capped at
//! [`MAX_FILE_BYTES`] (1 MiB): a larger file is refused, naming the cap,
//! before it is parsed. Any of these refusals is `unsafe-path` (exit 1).
//! The blob id of the repository file's bytes as read is kept
//! ([`Settings::repo_file_id`]), so the trust check of its hooks is about the
//! very content their commands came from.

use std::path::{Path, PathBuf};

use figment::providers::{Format, Toml};
use figment::value::{Dict, Map, Value};
use figment::{Figment, Metadata, Profile, Provider};
use gix::bstr::ByteSlice;
use jiff::SignedDuration;
use serde::Deserialize;

use crate::error::{Error, Result};
use crate::manifest::Status;

/// git-config keys, beside their defaults.
pub const KEY_BASE: &str = "loop.base";
pub const KEY_CLEANUP_STATUS: &str = "loop.cleanupStatus";
pub const KEY_CLEANUP_OLDER_THAN: &str = "loop.cleanupOlderThan";
pub const KEY_CLEANUP_DELETE_MERGED: &str = "loop.cleanupDeleteMergedBranches";
pub const KEY_CLEANUP_PRE_COMMAND: &str = "loop.cleanupPreCommand";
pub const KEY_CREATE_COPY: &str = "loop.createCopy";
pub const KEY_CREATE_POST_COMMAND: &str = "loop.createPostCommand";
pub const DEFAULT_BASE: &str = "main";
pub const DEFAULT_CLEANUP_STATUS: [Status; 2] = [Status::Rejected, Status::Escalated];

/// Environment variables.
pub const ENV_BASE: &str = "GIT_LOOP_BASE";
pub const ENV_CLEANUP_STATUS: &str = "GIT_LOOP_CLEANUP_STATUS";
pub const ENV_CLEANUP_OLDER_THAN: &str = "GIT_LOOP_CLEANUP_OLDER_THAN";
pub const ENV_CLEANUP_DELETE_MERGED: &str = "GIT_LOOP_CLEANUP_DELETE_MERGED_BRANCHES";
pub const ENV_CLEANUP_PRE_COMMAND: &str = "GIT_LOOP_CLEANUP_PRE_COMMAND";
pub const ENV_CREATE_COPY: &str = "GIT_LOOP_CREATE_COPY";
pub const ENV_CREATE_POST_COMMAND: &str = "GIT_LOOP_CREATE_POST_COMMAND";

/// TOML key paths (also the keys of `git loop config --json`).
pub const TOML_BASE: &str = "base";
pub const TOML_CLEANUP_STATUS: &str = "cleanup.status";
pub const TOML_CLEANUP_OLDER_THAN: &str = "cleanup.older-than";
pub const TOML_CLEANUP_DELETE_MERGED: &str = "cleanup.delete-merged-branches";
pub const TOML_CLEANUP_PRE_COMMAND: &str = "cleanup.pre-command";
pub const TOML_CREATE_COPY: &str = "create.copy";
pub const TOML_CREATE_POST_COMMAND: &str = "create.post-command";

/// (TOML path, git-config key, environment variable) for each setting.
const KEYS: [(&str, &str, &str); 7] = [
    (TOML_BASE, KEY_BASE, ENV_BASE),
    (TOML_CLEANUP_STATUS, KEY_CLEANUP_STATUS, ENV_CLEANUP_STATUS),
    (
        TOML_CLEANUP_OLDER_THAN,
        KEY_CLEANUP_OLDER_THAN,
        ENV_CLEANUP_OLDER_THAN,
    ),
    (
        TOML_CLEANUP_DELETE_MERGED,
        KEY_CLEANUP_DELETE_MERGED,
        ENV_CLEANUP_DELETE_MERGED,
    ),
    (
        TOML_CLEANUP_PRE_COMMAND,
        KEY_CLEANUP_PRE_COMMAND,
        ENV_CLEANUP_PRE_COMMAND,
    ),
    (TOML_CREATE_COPY, KEY_CREATE_COPY, ENV_CREATE_COPY),
    (
        TOML_CREATE_POST_COMMAND,
        KEY_CREATE_POST_COMMAND,
        ENV_CREATE_POST_COMMAND,
    ),
];

/// Keys whose value is a command to run (hooks): from the repository's own
/// `.git-loop.toml` they run only once that file is trusted.
pub const HOOK_KEYS: [&str; 2] = [TOML_CREATE_POST_COMMAND, TOML_CLEANUP_PRE_COMMAND];

/// git's boolean spellings (`git config --type=bool`): true/yes/on/1 and
/// false/no/off/0/empty, case-insensitive.
pub fn parse_git_bool(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "1" => Some(true),
        "false" | "no" | "off" | "0" | "" => Some(false),
        _ => None,
    }
}

/// A string-valued layer's value for `path`: booleans become booleans when
/// they are spelled as git spells them; anything else stays a string, so a
/// bad one fails to deserialize with an error naming its layer.
fn layer_value(path: &str, text: String) -> Value {
    if path == TOML_CLEANUP_DELETE_MERGED
        && let Some(b) = parse_git_bool(&text)
    {
        return Value::from(b);
    }
    if path == TOML_CREATE_COPY {
        // The environment spells the list comma-separated.
        return Value::from(
            text.split(',')
                .map(|p| p.trim().to_owned())
                .filter(|p| !p.is_empty())
                .collect::<Vec<_>>(),
        );
    }
    Value::from(text)
}

const BUILT_IN: &str = "built-in default";

/// A value and the layer it came from ("built-in default", "--base", …).
#[derive(Debug, Clone, PartialEq)]
pub struct Sourced<T> {
    pub value: T,
    pub origin: String,
}

impl<T> Sourced<T> {
    pub fn new(value: T, origin: impl Into<String>) -> Self {
        Sourced {
            value,
            origin: origin.into(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub base: Sourced<String>,
    pub cleanup_status: Sourced<Vec<Status>>,
    pub cleanup_older_than: Sourced<Option<SignedDuration>>,
    pub cleanup_delete_merged_branches: Sourced<bool>,
    /// Gitignore-style patterns of untracked or ignored files to copy from the
    /// main worktree into a new one.
    pub create_copy: Sourced<Vec<String>>,
    /// Shell command run in a new worktree after `create`.
    pub create_post_command: Sourced<Option<String>>,
    /// Shell command run in a worktree before `cleanup` removes it.
    pub cleanup_pre_command: Sourced<Option<String>>,
    /// The TOML keys whose effective value comes from the repository's own
    /// `.git-loop.toml` (hooks from there need `git loop trust`).
    pub from_repo_file: Vec<&'static str>,
    /// The repository's `.git-loop.toml` as it was read for these settings;
    /// `None` when there is none.
    pub repo_file: Option<TomlFile>,
    /// Its git blob id (what `git hash-object` prints for it).
    pub repo_file_id: Option<String>,
}

impl Settings {
    pub fn is_from_repo_file(&self, key: &str) -> bool {
        self.from_repo_file.contains(&key)
    }
}

/// The raw shape every layer must have (TOML shape; the other layers are
/// mapped onto it).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Raw {
    pub base: Option<String>,
    #[serde(default)]
    pub create: RawCreate,
    #[serde(default)]
    pub cleanup: RawCleanup,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCreate {
    pub copy: Option<Vec<String>>,
    #[serde(rename = "post-command")]
    pub post_command: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCleanup {
    pub status: Option<StatusValue>,
    #[serde(rename = "older-than")]
    pub older_than: Option<String>,
    #[serde(rename = "delete-merged-branches")]
    pub delete_merged_branches: Option<bool>,
    #[serde(rename = "pre-command")]
    pub pre_command: Option<String>,
}

/// The cleanup status set: a TOML array or a CSV string.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum StatusValue {
    Csv(String),
    List(Vec<String>),
}

/// One value from a source that is not a file figment reads itself.
struct Single {
    metadata: Metadata,
    path: &'static str,
    value: Value,
}

impl Provider for Single {
    fn metadata(&self) -> Metadata {
        self.metadata.clone()
    }

    fn data(&self) -> std::result::Result<Map<Profile, Dict>, figment::Error> {
        let dict = match figment::util::nest(self.path, self.value.clone()) {
            Value::Dict(_, dict) => dict,
            _ => unreachable!("nest of a dotted key is a dict"),
        };
        Ok(Profile::Default.collect(dict))
    }
}

fn single(name: &str, source: Option<String>, path: &'static str, value: Value) -> Single {
    let mut metadata = Metadata::named(name.to_owned());
    if let Some(source) = source {
        metadata = metadata.source(figment::Source::Custom(source));
    }
    Single {
        metadata,
        path,
        value,
    }
}

/// How a layer is named in messages and in `git loop config`.
fn origin_of(metadata: &Metadata) -> String {
    match &metadata.source {
        Some(figment::Source::File(path)) => format!("{} {}", metadata.name, path.display()),
        Some(figment::Source::Custom(s)) => format!("{} {s}", metadata.name),
        _ => metadata.name.to_string(),
    }
}

/// The user TOML path: `$XDG_CONFIG_HOME/git-loop/config.toml`, else
/// `~/.config/git-loop/config.toml`.
pub fn user_toml_path() -> Option<PathBuf> {
    let base = match std::env::var_os("XDG_CONFIG_HOME") {
        Some(x) if !x.is_empty() && Path::new(&x).is_absolute() => PathBuf::from(x),
        _ => PathBuf::from(std::env::var_os("HOME").filter(|h| !h.is_empty())?).join(".config"),
    };
    Some(base.join("git-loop").join("config.toml"))
}

pub fn repo_toml_path(root: &Path) -> PathBuf {
    root.join(".git-loop.toml")
}

/// The git-config layer: for each key, the value git itself would use, and
/// where it was set.
fn git_config_layer(config: &gix::config::File) -> Vec<Single> {
    let params = std::env::var("GIT_CONFIG_PARAMETERS")
        .ok()
        .map(|p| parse_config_parameters(&p))
        .unwrap_or_default();
    let mut out = Vec::new();
    for (path, key, _) in KEYS {
        let values = git_config_values(config, &params, key);
        let Some((_, from)) = values.last() else {
            continue;
        };
        let from = from.clone();
        let value = if key == KEY_CREATE_COPY {
            // A multivar, like git's own: every value at every level is one
            // item, in cascade order; an empty value clears the items before it.
            let mut items: Vec<String> = Vec::new();
            for (value, _) in values {
                if value.is_empty() {
                    items.clear();
                } else {
                    items.push(value);
                }
            }
            Value::from(items)
        } else {
            let (value, _) = values.into_iter().last().expect("not empty");
            layer_value(path, value)
        };
        out.push(single("git config", Some(from), path, value));
    }
    out
}

/// Every value of `key` (`loop.<name>`) in git's cascade order, each with
/// where it was set: the config files, then `git -c key=value loop …`, which
/// reaches us only through `GIT_CONFIG_PARAMETERS`.
fn git_config_values(
    config: &gix::config::File,
    params: &[(String, String)],
    key: &str,
) -> Vec<(String, String)> {
    let name = key.strip_prefix("loop.").expect("loop.* key");
    let mut out = Vec::new();
    for section in config.sections_by_name("loop").into_iter().flatten() {
        if section.header().subsection_name().is_some() {
            continue;
        }
        let meta = section.meta();
        let origin = match &meta.path {
            Some(p) => format!("{key} in {}", p.display()),
            None => format!("{key} ({:?})", meta.source),
        };
        for value in section.values(name) {
            out.push((value.to_str_lossy().into_owned(), origin.clone()));
        }
    }
    for (k, v) in params {
        if k.eq_ignore_ascii_case(key) {
            out.push((v.clone(), format!("{key} from the command line (git -c)")));
        }
    }
    out
}

/// Parse `GIT_CONFIG_PARAMETERS`: space-separated shell-single-quoted items,
/// each `'key'='value'` (git ≥ 2.31), `'key=value'` (older), or `'key'` (a
/// boolean true). A quote inside is written `'\''`.
pub fn parse_config_parameters(text: &str) -> Vec<(String, String)> {
    // Split into items of quoted parts; an unquoted `=` between parts
    // separates key and value.
    let mut items = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek().is_none() {
            break;
        }
        let mut parts: Vec<String> = vec![String::new()];
        let mut saw_eq = false;
        while let Some(&c) = chars.peek() {
            match c {
                '\'' => {
                    chars.next();
                    for q in chars.by_ref() {
                        if q == '\'' {
                            break;
                        }
                        parts.last_mut().expect("one part").push(q);
                    }
                }
                '\\' => {
                    chars.next();
                    if let Some(esc) = chars.next() {
                        parts.last_mut().expect("one part").push(esc);
                    }
                }
                '=' if !saw_eq => {
                    chars.next();
                    saw_eq = true;
                    parts.push(String::new());
                }
                c if c.is_whitespace() => break,
                _ => {
                    chars.next();
                    parts.last_mut().expect("one part").push(c);
                }
            }
        }
        let item = if saw_eq {
            (parts[0].clone(), parts[1].clone())
        } else {
            match parts[0].split_once('=') {
                Some((k, v)) => (k.to_owned(), v.to_owned()),
                None => (parts[0].clone(), "true".to_owned()),
            }
        };
        items.push(item);
    }
    items
}

fn env_layer() -> Vec<Single> {
    KEYS.iter()
        .filter_map(|(path, _, var)| {
            let value = std::env::var(var).ok().filter(|v| !v.is_empty())?;
            Some(single(
                "environment",
                Some((*var).to_owned()),
                path,
                layer_value(path, value),
            ))
        })
        .collect()
}

fn built_in_layer() -> Vec<Single> {
    vec![
        single(BUILT_IN, None, TOML_BASE, Value::from(DEFAULT_BASE)),
        single(
            BUILT_IN,
            None,
            TOML_CLEANUP_STATUS,
            Value::from(
                DEFAULT_CLEANUP_STATUS
                    .iter()
                    .map(|s| s.as_str().to_owned())
                    .collect::<Vec<_>>(),
            ),
        ),
        single(
            BUILT_IN,
            None,
            TOML_CLEANUP_DELETE_MERGED,
            Value::from(false),
        ),
        single(
            BUILT_IN,
            None,
            TOML_CREATE_COPY,
            Value::from(Vec::<String>::new()),
        ),
    ]
}

/// The parsed values of one layer (each `None` when the layer does not set it).
struct Parsed {
    base: Option<String>,
    status: Option<Vec<Status>>,
    older_than: Option<SignedDuration>,
    delete_merged_branches: Option<bool>,
    copy: Option<Vec<String>>,
    post_command: Option<String>,
    pre_command: Option<String>,
}

/// A hook command: an empty (or all-blank) one is unset, so a higher layer
/// can turn off a hook a lower one sets.
fn hook(text: Option<String>, at: &str) -> Result<Option<String>> {
    match text {
        Some(t) if t.contains('\0') => Err(Error::Config {
            origin: at.to_owned(),
            message: format!("command {t:?} contains a NUL byte ({at})"),
        }),
        Some(t) if t.trim().is_empty() => Ok(None),
        other => Ok(other),
    }
}

/// A `create.copy` pattern: gitignore syntax, matched against paths inside
/// the main worktree. Refused: empty, NUL, and `..` segments (a pattern never
/// reaches outside the worktree; such a pattern could only be a mistake).
fn copy_pattern(p: &str, at: &str) -> Result<String> {
    let bad = |why: &str| Error::Config {
        origin: at.to_owned(),
        message: format!("create.copy pattern {p:?} {why} ({at})"),
    };
    let body = p.strip_prefix('!').unwrap_or(p);
    if body.trim().is_empty() {
        return Err(bad("is empty"));
    }
    if p.contains('\0') || p.contains('\n') {
        return Err(bad("contains a control character"));
    }
    if body.split('/').any(|seg| seg == "..") {
        return Err(bad(
            "has a `..` segment; patterns match paths inside the worktree",
        ));
    }
    Ok(p.to_owned())
}

/// Parse `raw` from the layer named `origin`. `key_of` names the key a
/// value is set with in that layer, for messages.
fn parse_raw(raw: Raw, origin: &str, key_of: impl Fn(&'static str) -> String) -> Result<Parsed> {
    let at = |k: &'static str| match key_of(k) {
        key if key.is_empty() => origin.to_owned(),
        key => format!("{origin} ({key})"),
    };
    let base = match raw.base {
        Some(b) if b.trim().is_empty() => {
            return Err(Error::Config {
                origin: origin.to_owned(),
                message: format!("base {:?} is empty ({})", b, at(TOML_BASE)),
            });
        }
        other => other,
    };
    let status = match raw.cleanup.status {
        None => None,
        Some(StatusValue::Csv(csv)) => {
            Some(parse_status_csv(&csv, &at(TOML_CLEANUP_STATUS), false)?)
        }
        Some(StatusValue::List(list)) => {
            let mut out = Vec::new();
            for item in list {
                out.extend(parse_status_csv(&item, &at(TOML_CLEANUP_STATUS), false)?);
            }
            out.dedup();
            Some(out)
        }
    };
    let older_than = match raw.cleanup.older_than {
        None => None,
        Some(text) => Some(parse_cutoff(&text, &at(TOML_CLEANUP_OLDER_THAN), false)?),
    };
    let copy = match raw.create.copy {
        None => None,
        Some(list) => Some(
            list.iter()
                .map(|p| copy_pattern(p, &at(TOML_CREATE_COPY)))
                .collect::<Result<Vec<_>>>()?,
        ),
    };
    Ok(Parsed {
        base,
        status,
        older_than,
        delete_merged_branches: raw.cleanup.delete_merged_branches,
        copy,
        post_command: hook(raw.create.post_command, &at(TOML_CREATE_POST_COMMAND))?,
        pre_command: hook(raw.cleanup.pre_command, &at(TOML_CLEANUP_PRE_COMMAND))?,
    })
}

fn extract(figment: &Figment, origin: &str) -> Result<Raw> {
    figment.extract::<Raw>().map_err(|e| Error::Config {
        origin: origin.to_owned(),
        message: e
            .into_iter()
            .map(|e| {
                let mut text = e.kind.to_string();
                if !e.path.is_empty() {
                    text = format!("{}: {text}", e.path.join("."));
                }
                text
            })
            .collect::<Vec<_>>()
            .join("; "),
    })
}

/// The largest config file git-loop reads: 1 MiB (a real one is a few
/// hundred bytes).
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// One TOML config file, read once: its path (which names the layer) and
/// its text. A figment provider of that text.
#[derive(Debug, Clone, PartialEq)]
pub struct TomlFile {
    pub path: PathBuf,
    pub bytes: Vec<u8>,
    text: String,
}

impl TomlFile {
    fn new(path: PathBuf, bytes: Vec<u8>) -> Result<TomlFile> {
        let text = match std::str::from_utf8(&bytes) {
            Ok(text) => text.to_owned(),
            Err(e) => {
                return Err(Error::Config {
                    origin: format!("TOML file {}", path.display()),
                    message: format!("it is not valid UTF-8 (byte {})", e.valid_up_to()),
                });
            }
        };
        Ok(TomlFile { path, bytes, text })
    }

    /// The repository's own `<root>/.git-loop.toml`: refused when it is a
    /// symlink or not a regular file, or larger than [`MAX_FILE_BYTES`].
    /// `None` when there is none.
    pub fn read_repo(root: &Path) -> Result<Option<TomlFile>> {
        let path = repo_toml_path(root);
        match crate::fsx::read_regular(&path, MAX_FILE_BYTES)? {
            Some(bytes) => Ok(Some(TomlFile::new(path, bytes)?)),
            None => Ok(None),
        }
    }

    /// The user's file at `path`: may be a symlink, but must lead to a
    /// regular file of at most [`MAX_FILE_BYTES`]. `None` when there is none.
    pub fn read_user(path: &Path) -> Result<Option<TomlFile>> {
        match crate::fsx::read_regular_following(path, MAX_FILE_BYTES)? {
            Some(bytes) => Ok(Some(TomlFile::new(path.to_path_buf(), bytes)?)),
            None => Ok(None),
        }
    }

    /// The layer's name in messages: `TOML file <path>`.
    pub fn origin(&self) -> String {
        origin_of(&self.metadata())
    }

    /// The file's raw content (validated for shape only).
    pub fn raw(&self) -> Result<Raw> {
        extract(&Figment::from(self), &self.origin())
    }
}

impl Provider for TomlFile {
    fn metadata(&self) -> Metadata {
        // What figment's own `Toml::file_exact` says, so layers keep their names.
        Metadata::from("TOML file", self.path.as_path())
    }

    fn data(&self) -> std::result::Result<Map<Profile, Dict>, figment::Error> {
        Toml::string(&self.text).data()
    }
}

impl Settings {
    pub fn built_in() -> Settings {
        Settings {
            base: Sourced::new(DEFAULT_BASE.to_owned(), BUILT_IN),
            cleanup_status: Sourced::new(DEFAULT_CLEANUP_STATUS.to_vec(), BUILT_IN),
            cleanup_older_than: Sourced::new(None, BUILT_IN),
            cleanup_delete_merged_branches: Sourced::new(false, BUILT_IN),
            create_copy: Sourced::new(Vec::new(), BUILT_IN),
            create_post_command: Sourced::new(None, BUILT_IN),
            cleanup_pre_command: Sourced::new(None, BUILT_IN),
            from_repo_file: Vec::new(),
            repo_file: None,
            repo_file_id: None,
        }
    }

    /// The effective settings for the repository at `root`, whose git config
    /// (with git's own cascade) is `config`.
    pub fn load(root: &Path, config: &gix::config::File) -> Result<Settings> {
        let mut figment = Figment::new();
        for layer in built_in_layer() {
            figment = figment.merge(layer);
        }

        // TOML files: each read once, validated whole (syntax, unknown keys,
        // types, values).
        let user = match user_toml_path() {
            Some(path) => TomlFile::read_user(&path)?,
            None => None,
        };
        let repo = TomlFile::read_repo(root)?;
        let repo_file_id = repo.as_ref().map(|f| crate::hooks::content_id(&f.bytes));
        for toml in user.into_iter().chain(repo.clone()) {
            let origin = toml.origin();
            parse_raw(toml.raw()?, &origin, |k| format!("`{k}`"))?;
            figment = figment.merge(toml);
        }

        // git config and environment: one provider per value.
        for layer in git_config_layer(config).into_iter().chain(env_layer()) {
            let origin = origin_of(&layer.metadata);
            let raw = extract(&Figment::from(&layer), &origin)?;
            parse_raw(raw, &origin, |_| String::new())?;
            figment = figment.merge(layer);
        }

        let raw = extract(&figment, "the merged configuration")?;
        let parsed = parse_raw(raw, "the merged configuration", |k| k.to_owned())?;
        let origin = |key: &str| {
            figment
                .find_metadata(key)
                .map(origin_of)
                .unwrap_or_else(|| BUILT_IN.to_owned())
        };
        let repo_file = repo_toml_path(root);
        let from_repo_file = KEYS
            .iter()
            .map(|k| k.0)
            .filter(|key| {
                figment.find_metadata(key).is_some_and(
                    |m| matches!(&m.source, Some(figment::Source::File(p)) if *p == repo_file),
                )
            })
            .collect();
        Ok(Settings {
            base: Sourced::new(
                parsed.base.unwrap_or_else(|| DEFAULT_BASE.to_owned()),
                origin(TOML_BASE),
            ),
            cleanup_status: Sourced::new(
                parsed
                    .status
                    .unwrap_or_else(|| DEFAULT_CLEANUP_STATUS.to_vec()),
                origin(TOML_CLEANUP_STATUS),
            ),
            cleanup_older_than: Sourced::new(parsed.older_than, origin(TOML_CLEANUP_OLDER_THAN)),
            cleanup_delete_merged_branches: Sourced::new(
                parsed.delete_merged_branches.unwrap_or(false),
                origin(TOML_CLEANUP_DELETE_MERGED),
            ),
            create_copy: Sourced::new(parsed.copy.unwrap_or_default(), origin(TOML_CREATE_COPY)),
            create_post_command: Sourced::new(
                parsed.post_command,
                origin(TOML_CREATE_POST_COMMAND),
            ),
            cleanup_pre_command: Sourced::new(parsed.pre_command, origin(TOML_CLEANUP_PRE_COMMAND)),
            from_repo_file,
            repo_file: repo,
            repo_file_id,
        })
    }

    /// Parse TOML text in the shape of the config files (used to check the
    /// documented example against the built-in defaults).
    pub fn from_toml_str(text: &str) -> Result<Settings> {
        let figment = Figment::new().merge(Toml::string(text));
        let raw = extract(&figment, "TOML text")?;
        let parsed = parse_raw(raw, "TOML text", |k| k.to_owned())?;
        let built_in = Settings::built_in();
        Ok(Settings {
            base: Sourced::new(parsed.base.unwrap_or(built_in.base.value), BUILT_IN),
            cleanup_status: Sourced::new(
                parsed.status.unwrap_or(built_in.cleanup_status.value),
                BUILT_IN,
            ),
            cleanup_older_than: Sourced::new(parsed.older_than, BUILT_IN),
            cleanup_delete_merged_branches: Sourced::new(
                parsed.delete_merged_branches.unwrap_or(false),
                BUILT_IN,
            ),
            create_copy: Sourced::new(parsed.copy.unwrap_or_default(), BUILT_IN),
            create_post_command: Sourced::new(parsed.post_command, BUILT_IN),
            cleanup_pre_command: Sourced::new(parsed.pre_command, BUILT_IN),
            from_repo_file: Vec::new(),
            repo_file: None,
            repo_file_id: None,
        })
    }
}

/// Parse a status CSV (`rejected,escalated`). `origin` names where it came
/// from; `usage` says whether it was typed on the command line (exit 2) or read
/// from a config layer (exit 1).
pub fn parse_status_csv(text: &str, origin: &str, usage: bool) -> Result<Vec<Status>> {
    let mut out = Vec::new();
    for member in text.split(',') {
        let member = member.trim();
        let status = Status::parse(member).ok_or_else(|| Error::InvalidStatus {
            value: member.to_owned(),
            origin: origin.to_owned(),
            usage,
        })?;
        if !out.contains(&status) {
            out.push(status);
        }
    }
    Ok(out)
}

/// Parse a cutoff (`24h`) with the same rules as `--older-than`.
pub fn parse_cutoff(text: &str, origin: &str, usage: bool) -> Result<SignedDuration> {
    crate::time::parse_cutoff(text).ok_or_else(|| Error::InvalidCutoff {
        value: text.to_owned(),
        origin: origin.to_owned(),
        usage,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_parameters() {
        assert_eq!(
            parse_config_parameters("'loop.base'='dev' 'core.x'='a b'"),
            [
                ("loop.base".into(), "dev".into()),
                ("core.x".into(), "a b".into())
            ]
        );
        assert_eq!(
            parse_config_parameters("'loop.base=old style'"),
            [("loop.base".into(), "old style".into())]
        );
        assert_eq!(
            parse_config_parameters("'a.b'='it'\\''s'"),
            [("a.b".into(), "it's".into())]
        );
        assert_eq!(
            parse_config_parameters("'a.flag'"),
            [("a.flag".into(), "true".into())]
        );
        assert_eq!(parse_config_parameters(""), []);
    }

    #[test]
    fn documented_example_equals_the_built_in_defaults() {
        let text = include_str!("../config/git-loop.toml");
        assert_eq!(Settings::from_toml_str(text).unwrap(), Settings::built_in());
    }
}
