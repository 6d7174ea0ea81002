//! Closed vocabularies — statuses, event kinds, skip, land and error codes —
//! each defined once, by [`vocabulary!`]: a list of `Variant = "text"`, from
//! which the enum, its `ALL`, `as_str`, `parse`, `Display`, serde's forms and
//! its JSON Schema (a string `enum`) are all derived. Nothing else writes a
//! value's text; `tests/integration/docs_sync.rs` holds each list in the docs
//! to [`crate::vocabularies`], which is made of these.

/// Defines a vocabulary enum from one list. With `other Variant;` after it, the
/// enum also keeps a text this version does not know (written by a newer
/// one), as written: it is then not `Copy`, `as_str` borrows, and its
/// serde, `Display` and schema are the reader's (the event log's
/// `text_field!`, which reads any text).
macro_rules! vocabulary {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            /// Every value, in the order of its definition.
            pub const ALL: [$name; [$($text,)+].len()] = [$($name::$variant,)+];

            /// The value's text, as JSON, the log and the docs write it.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( $name::$variant => $text, )+
                }
            }

            /// The value written as `text`, if this version knows it.
            pub fn parse(text: &str) -> Option<$name> {
                match text {
                    $( $text => Some($name::$variant), )+
                    _ => None,
                }
            }
        }

        $crate::vocab::vocabulary!(@common $name);

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl schemars::JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }
            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                let texts: &'static [&'static str] = &[$($text,)+];
                schemars::json_schema!({ "type": "string", "enum": texts })
            }
        }

        impl clap::ValueEnum for $name {
            fn value_variants<'a>() -> &'a [Self] {
                &$name::ALL
            }
            fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
                Some(clap::builder::PossibleValue::new(self.as_str()))
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$name, D::Error> {
                let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                $name::parse(&text).ok_or_else(|| {
                    let texts: &'static [&'static str] = &[$($text,)+];
                    serde::de::Error::unknown_variant(&text, texts)
                })
            }
        }
    };
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal, )+
        }
        other $other:ident;
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant, )+
            /// A value this version does not know (written by a newer one),
            /// as written.
            $other(String),
        }

        impl $name {
            /// Every value this version knows, in the order of its definition.
            pub const ALL: [$name; [$($text,)+].len()] = [$($name::$variant,)+];

            /// The value's text, as JSON, the log and the docs write it.
            pub fn as_str(&self) -> &str {
                match self {
                    $( $name::$variant => $text, )+
                    $name::$other(text) => text,
                }
            }

            /// The value written as `text`: one this version knows, or
            /// the text as written.
            pub fn parse(text: &str) -> $name {
                match text {
                    $( $text => $name::$variant, )+
                    _ => $name::$other(text.to_owned()),
                }
            }
        }
    };
    (@common $name:ident) => {
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

pub(crate) use vocabulary;
