//! Closed vocabularies — statuses, event kinds, skip, land and error codes —
//! each defined once, by [`vocabulary!`]: a list of `Variant = "text"`, from
//! which the enum, its `ALL`, `as_str`, `parse`, `Display`, serde's forms and
//! its JSON Schema (a string `enum`) are all derived. Nothing else writes a
//! value's text; `tests/integration/docs_sync.rs` holds each list in the docs
//! to [`crate::vocabularies`], which is made of these.
//!
//! One vocabulary takes in another: a skip code is either its own word
//! (`dirty`) or a status's (`active`: the run was marked so after cleanup
//! selected it). That is one variant carrying the other vocabulary's value,
//! `SkipCode::Remarked(Status)` (the `carries` form), rather than a variant
//! per status (`RemarkedActive = "active"`) or a hand-written enum beside
//! the macro: a new skip code is still one line, a new status is a skip
//! code with no edit to `SkipCode`, and call sites pass the status they
//! have. The texts join, the carried ones after the own ones; a text in
//! both lists does not compile.

/// Defines a vocabulary enum from one list. With `other Variant;` after it, the
/// enum also keeps a text this version does not know (written by a newer
/// one), as written: it is then not `Copy`, `as_str` borrows, and its
/// serde, `Display` and schema are the reader's (the event log's
/// `text_field!`, which reads any text).
///
/// With `carries Variant(Other); description "…";` after it, the enum also
/// has a variant holding a value of `Other`, another vocabulary defined
/// here, whose text is that value's: `ALL` is the own values then one per
/// `Other::ALL`, `FIXED` the own values alone (what the docs list: the
/// carried texts are `Other`'s list), and the schema's `enum` every text
/// with the description given (a reader finding `Other`'s words among
/// this vocabulary's needs to be told why). Only `Serialize` of serde's
/// forms: nothing reads one back through serde (the event log keeps any
/// code, see `events::Code`).
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
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal, )+
        }
        $(#[$cmeta:meta])*
        carries $carrier:ident($inner:ty);
        description $description:literal;
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant, )+
            $(#[$cmeta])*
            $carrier($inner),
        }

        // No text is both an own one and a carried one: `parse` could not
        // tell which is meant.
        const _: () = {
            let mut i = 0;
            while i < <$inner>::ALL.len() {
                let text = <$inner>::ALL[i].as_str();
                assert!(
                    !$crate::vocab::contains(&[$($text,)+], text),
                    concat!("a text of ", stringify!($inner), " is also one of ", stringify!($name), "'s own"),
                );
                i += 1;
            }
        };

        impl $name {
            /// The values with a text of their own (not carried), in the
            /// order of their definition: the list the docs give.
            pub const FIXED: [$name; [$($text,)+].len()] = [$($name::$variant,)+];

            /// Every value: the own ones, then one per carried value.
            pub const ALL: [$name; [$($text,)+].len() + <$inner>::ALL.len()] = {
                let mut all = [$name::FIXED[0]; [$($text,)+].len() + <$inner>::ALL.len()];
                let mut i = 0;
                while i < all.len() {
                    all[i] = match i.checked_sub($name::FIXED.len()) {
                        None => $name::FIXED[i],
                        Some(carried) => $name::$carrier(<$inner>::ALL[carried]),
                    };
                    i += 1;
                }
                all
            };

            /// The value's text, as JSON, the log and the docs write it.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( $name::$variant => $text, )+
                    $name::$carrier(value) => value.as_str(),
                }
            }

            /// The value written as `text`, if this version knows it.
            pub fn parse(text: &str) -> Option<$name> {
                match text {
                    $( $text => Some($name::$variant), )+
                    _ => <$inner>::parse(text).map($name::$carrier),
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
                let texts = $name::ALL.map($name::as_str);
                schemars::json_schema!({
                    "type": "string",
                    "enum": texts,
                    "description": $description
                })
            }
        }
    };
    (@common $name:ident) => {
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.pad(self.as_str())
            }
        }
    };
}

pub(crate) use vocabulary;

/// Whether `text` is one of `texts`, in a `const` (where `==` on `str` is
/// not yet allowed).
pub(crate) const fn contains(texts: &[&str], text: &str) -> bool {
    let mut i = 0;
    while i < texts.len() {
        if texts[i].len() == text.len() {
            let (a, b) = (texts[i].as_bytes(), text.as_bytes());
            let mut j = 0;
            while j < a.len() && a[j] == b[j] {
                j += 1;
            }
            if j == a.len() {
                return true;
            }
        }
        i += 1;
    }
    false
}

#[cfg(test)]
mod tests {
    crate::vocab::vocabulary! {
        enum Colour {
            Red = "red",
            Blue = "blue",
        }
    }

    crate::vocab::vocabulary! {
        enum Mark {
            Plain = "plain",
            Striped = "striped",
        }
        carries Painted(Colour);
        description "A mark, or the colour it was painted";
    }

    #[test]
    fn a_carried_vocabulary_lists_its_own_values_then_the_carried_ones() {
        assert_eq!(Mark::FIXED, [Mark::Plain, Mark::Striped]);
        let texts = Mark::ALL.map(Mark::as_str);
        assert_eq!(texts, ["plain", "striped", "red", "blue"]);
    }

    #[test]
    fn every_value_of_a_carried_vocabulary_reads_back_from_its_text() {
        for mark in Mark::ALL {
            assert_eq!(Mark::parse(mark.as_str()), Some(mark), "{mark}");
        }
        assert_eq!(Mark::parse("red"), Some(Mark::Painted(Colour::Red)));
        assert_eq!(Mark::Painted(Colour::Blue).to_string(), "blue");
        for unknown in ["green", "", "Plain", "plain "] {
            assert_eq!(Mark::parse(unknown), None, "{unknown:?}");
        }
    }

    #[test]
    fn a_carried_vocabulary_is_written_and_described_as_its_texts() {
        let json = serde_json::to_string(&[Mark::Plain, Mark::Painted(Colour::Red)]).unwrap();
        assert_eq!(json, r#"["plain","red"]"#);
        let schema = schemars::SchemaGenerator::default().into_root_schema_for::<Mark>();
        let schema = serde_json::to_value(schema).unwrap();
        assert_eq!(
            schema["enum"],
            serde_json::json!(["plain", "striped", "red", "blue"])
        );
        assert_eq!(
            schema["description"],
            "A mark, or the colour it was painted"
        );
    }

    #[test]
    fn contains_finds_a_text_only_when_it_is_listed_whole() {
        assert!(super::contains(&["dirty", "in-use"], "in-use"));
        assert!(!super::contains(&["dirty", "in-use"], "in"));
        assert!(!super::contains(&["dirty"], "dirty!"));
        assert!(!super::contains(&[], "dirty"));
    }
}
