//! The machinery of the one table of settings: [`settings!`], invoked once
//! in [`super::keys`], and what it derives from each entry.
//!
//! An entry names a setting's constant and TOML key path, its
//! [`Class`](super::class::Class), its field and type with its built-in
//! default, and how a layer's raw value is read ([`Read`]) and checked (a
//! function of [`super::validate`]). From it come: the [`Key`](super::keys::Key)
//! with its git-config key and environment variable (by the naming rule:
//! `cleanup.older-than` is `loop.cleanupOlderThan` and
//! `GIT_LOOP_CLEANUP_OLDER_THAN`, [`git_name`], [`env_name`]); its place in
//! `keys::ALL`; its field in the raw layer (`keys::Raw`), in a layer's
//! validated values (`keys::Values`), in [`Settings`](super::Settings) and in
//! `git loop config`'s report (`keys::ConfigReport`, its `--json` key and
//! table row); the default layer; the merge.

/// The length of [`git_name`]'s name of `toml`.
pub const fn git_len(toml: &str) -> usize {
    let b = toml.as_bytes();
    let (mut i, mut n) = (0, "loop.".len());
    while i < b.len() {
        if b[i] != b'.' && b[i] != b'-' {
            n += 1;
        }
        i += 1;
    }
    n
}

/// The git-config key of the TOML key path `toml`: `loop.`, then its words
/// in camel case (`cleanup.older-than`: `loop.cleanupOlderThan`).
pub const fn git_name<const N: usize>(toml: &str) -> [u8; N] {
    let mut out = [0u8; N];
    let prefix = b"loop.";
    let mut o = 0;
    while o < prefix.len() {
        out[o] = prefix[o];
        o += 1;
    }
    let b = toml.as_bytes();
    let (mut i, mut upper) = (0, false);
    while i < b.len() {
        if b[i] == b'.' || b[i] == b'-' {
            upper = true;
        } else {
            out[o] = if upper {
                b[i].to_ascii_uppercase()
            } else {
                b[i]
            };
            upper = false;
            o += 1;
        }
        i += 1;
    }
    out
}

/// The length of [`env_name`]'s name of `toml`.
pub const fn env_len(toml: &str) -> usize {
    "GIT_LOOP_".len() + toml.len()
}

/// The environment variable of the TOML key path `toml`: `GIT_LOOP_`, then
/// the path in upper case, `.` and `-` as `_` (`GIT_LOOP_CLEANUP_OLDER_THAN`).
pub const fn env_name<const N: usize>(toml: &str) -> [u8; N] {
    let mut out = [0u8; N];
    let prefix = b"GIT_LOOP_";
    let mut o = 0;
    while o < prefix.len() {
        out[o] = prefix[o];
        o += 1;
    }
    let b = toml.as_bytes();
    let mut i = 0;
    while i < b.len() {
        out[o + i] = match b[i] {
            b'.' | b'-' => b'_',
            c => c.to_ascii_uppercase(),
        };
        i += 1;
    }
    out
}

/// A name made by [`git_name`] or [`env_name`] (ASCII from ASCII).
pub const fn ascii(bytes: &'static [u8]) -> &'static str {
    match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => panic!("a setting's name is ASCII"),
    }
}

/// Defines every setting from one list (see the module doc): each entry is
///
/// ```text
/// /// What it does (the `Key`'s and the `Settings` field's doc).
/// CONST: "toml.key-path", Class {
///     field: Type = default,
///     read RawType => check,
/// }
/// ```
///
/// `Type` is the setting's value (also [`crate::config::report::Show`]n by
/// `git loop config`); `RawType` what a layer holds before `check`
/// (`fn(RawType, &At) -> Result<Type>`) makes it a value.
macro_rules! settings {
    ($(
        $(#[$doc:meta])*
        $key:ident: $toml:literal, $class:ident {
            $field:ident: $ty:ty = $default:expr,
            read $raw:ty => $check:expr,
        }
    )+) => {
        $(
            $(#[$doc])*
            pub const $key: Key = Key {
                toml: $toml,
                git: {
                    const NAME: [u8; git_len($toml)] =
                        git_name($toml);
                    ascii(&NAME)
                },
                env: {
                    const NAME: [u8; env_len($toml)] =
                        env_name($toml);
                    ascii(&NAME)
                },
                class: Class::$class,
            };
        )+

        /// Every setting, in the order `git loop config` shows them.
        pub const ALL: [Key; [$($toml,)+].len()] = [$($key,)+];

        /// The raw shape of a layer: each setting's value as read, before it
        /// is checked ([`Raw::validate`]); `None` where the layer does not
        /// set it.
        #[derive(Debug, Default)]
        pub struct Raw {
            $( pub $field: Option<$raw>, )+
        }

        impl Raw {
            /// Read `value`, a TOML file's value at the key path `toml`,
            /// into its field (its shape only); `Ok(false)`: no setting has
            /// that path.
            pub fn set_toml(
                &mut self,
                toml: &str,
                value: &figment::value::Value,
            ) -> std::result::Result<bool, Box<figment::Error>> {
                $(
                    if toml == $toml {
                        self.$field = Some(value.deserialize().map_err(Box::new)?);
                        return Ok(true);
                    }
                )+
                Ok(false)
            }

            /// The raw value of one key as git config or the environment
            /// spells it ([`Read`](crate::config::table::Read)).
            pub fn from_text(
                key: Key,
                text: String,
                items: Vec<String>,
                at: &At<'_>,
            ) -> Result<Raw> {
                let mut raw = Raw::default();
                $(
                    if key.toml == $toml {
                        raw.$field = Some(
                            <$raw as Read>::from_text(text, items, at)?,
                        );
                        return Ok(raw);
                    }
                )+
                Ok(raw)
            }

            /// The commands ([`Class::RunsCommand`]) the layer sets, not
            /// empty, by TOML key.
            pub fn commands(&self) -> Vec<(&'static str, String)> {
                let mut out = Vec::new();
                $(
                    let command = self.$field.as_ref().and_then(Read::as_text);
                    if let Some(c) = command.filter(|c| !c.trim().is_empty()) {
                        if $key.class == Class::RunsCommand {
                            out.push(($toml, c.to_owned()));
                        }
                    }
                )+
                out
            }

            /// Check every value of the layer `origin`; `line_of` finds a
            /// key's line (TOML files only). The keys are checked in the
            /// table's order: the first invalid value is the error.
            pub fn validate(
                self,
                origin: &Origin,
                line_of: &dyn Fn(&str) -> Option<usize>,
            ) -> Result<Values> {
                let at = |key: Key| At {
                    origin,
                    key,
                    line: line_of(key.toml),
                };
                Ok(Values {
                    $(
                        $field: match self.$field {
                            Some(raw) => Some(($check)(raw, &at($key))?),
                            None => None,
                        },
                    )+
                })
            }
        }

        /// One layer's validated values; each `None` where the layer does
        /// not set it.
        #[derive(Debug, Default, Clone, PartialEq)]
        pub struct Values {
            $( pub $field: Option<$ty>, )+
        }

        /// One layer: where it comes from and the values it sets, validated.
        #[derive(Debug, Clone)]
        pub struct Layer {
            pub origin: Origin,
            pub values: Values,
        }

        /// The built-in defaults, as a layer's values (every one set).
        pub fn default_values() -> Values {
            Values {
                $( $field: Some($default), )+
            }
        }

        /// The effective settings: each from the highest layer that sets it
        /// (at the bottom, its built-in default), with where it came from.
        #[derive(Debug, Clone, PartialEq)]
        pub struct Settings {
            $(
                $(#[$doc])*
                pub $field: Sourced<$ty>,
            )+
            /// The repository's `.git-loop.toml` as it was read for these
            /// settings; `None` when there is none.
            pub repo_file: Option<TomlFile>,
            /// Its git blob id (what `git hash-object` prints for it).
            pub repo_file_id: Option<String>,
            /// The repository's object format: the blob ids of trust records
            /// ([`crate::configured_command::trust`]) are computed in it.
            pub object_hash: gix::hash::Kind,
            /// The keys whose values the repository's file set but that were
            /// ignored because the file is not trusted ([`Class`]).
            pub ignored: Vec<&'static str>,
        }

        impl Settings {
            /// Each setting from the highest of `layers` that sets it (the
            /// first, the default layer, sets every one).
            pub(super) fn picked(layers: &[&Layer]) -> Settings {
                /// One setting from the highest of `layers` that sets it
                /// (by [`Source`](super::source::Source); of two layers of
                /// one source, the later).
                fn pick<T: Clone>(
                    layers: &[&Layer],
                    get: impl Fn(&Values) -> Option<&T>,
                ) -> Sourced<T> {
                    layers
                        .iter()
                        .filter_map(|l| Some((l, get(&l.values)?)))
                        .max_by_key(|(l, _)| l.origin.source())
                        .map(|(l, v)| Sourced::new(v.clone(), l.origin.clone()))
                        .expect("the default layer sets every key")
                }
                Settings {
                    $( $field: pick(layers, |v| v.$field.as_ref()), )+
                    repo_file: None,
                    repo_file_id: None,
                    object_hash: gix::hash::Kind::Sha1,
                    ignored: Vec::new(),
                }
            }

            /// The settings whose values differ between `self` and `other`
            /// (wherever each came from).
            #[cfg(test)]
            pub fn differences(&self, other: &Settings) -> Vec<&'static str> {
                let mut out = Vec::new();
                $(
                    if self.$field.value != other.$field.value {
                        out.push($toml);
                    }
                )+
                out
            }

            /// Whether a command ([`Class::RunsCommand`]) is set by the
            /// repository's own `.git-loop.toml`.
            pub fn repo_file_sets_a_command(&self) -> bool {
                let sets = [$(
                    $key.class == Class::RunsCommand
                        && self.$field.value.is_set()
                        && self.$field.from_repo_file(),
                )+];
                sets.contains(&true)
            }
        }

        // `git loop config`: each setting's value as shown and where it
        // came from; `--json` keys are the TOML key paths. (No doc comment:
        // it would become the schema's description.)
        #[derive(Debug, serde::Serialize, schemars::JsonSchema)]
        pub struct ConfigReport {
            $(
                #[serde(rename = $toml)]
                pub $field: Shown<
                    <$ty as Show>::Json,
                >,
            )+
        }

        impl ConfigReport {
            /// The report of `s`; `trust` is said beside a command the
            /// repository's file sets ([`Settings::repo_file_sets_a_command`]).
            pub fn of(s: &Settings, trust: &str) -> ConfigReport {
                ConfigReport {
                    $(
                        $field: Shown::of(
                            &s.$field, $key, &s.ignored, trust,
                        ),
                    )+
                }
            }

            /// The table's rows: each setting's TOML key, git-config key,
            /// value as text, and source.
            pub fn rows(&self) -> Vec<(&'static str, &'static str, String, &str)> {
                vec![$(
                    (
                        $toml,
                        $key.git,
                        <$ty as Show>::text(&self.$field.value),
                        self.$field.source.as_str(),
                    ),
                )+]
            }
        }
    };
}

pub(crate) use settings;
