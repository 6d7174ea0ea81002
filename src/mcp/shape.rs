//! What `tools/list` shows of each tool's schemas, kept small: every agent
//! that connects reads the whole list into its context, so each byte is
//! paid for in every session (the full schemas made it 75 KB, ~19k tokens).
//!
//! - The output schema is the *shape* of the command's document: each form's
//!   top-level fields, their types and which are required; a nested object
//!   or array is only its type. It is still what the client validates
//!   `structuredContent` against (every result meets it, a test checks), and
//!   it names every field an agent reads first; the full schema of every
//!   level is `git loop schema <tool>` (schema/<tool>.json), and the
//!   document itself is in each result.
//! - The input schema keeps every property, its type, bounds and
//!   description (the `--help` text, which tells an agent what to pass),
//!   without what says nothing: `$schema`, a `format` (`uint`), a default
//!   of `false` or `[]`.

use serde_json::{Map, Value, json};

/// The output schema of a tool whose command prints `command` (a schema/
/// file's text), or, with `isError`, the error document
/// (`{"error":{"code","message"}}`, schema/error.json), an object with
/// `error`. Each form is an object, as MCP wants `structuredContent`: a
/// form that is an array (`create --attempts`) is served wrapped, as
/// [`wrap`] wraps its document.
pub fn output(command: &str) -> Value {
    let command: Value = serde_json::from_str(command).expect("the schema/ files are JSON objects");
    let mut forms = Vec::new();
    push_forms(&command, &mut forms);
    forms.push(json!({"required": ["error"]}));
    json!({"type": "object", "anyOf": forms})
}

/// The key an array document is served under (MCP's `structuredContent`
/// is an object): `create --attempts`' runs.
pub const WRAPPED: &str = "runs";

/// The document as `structuredContent`: an array is wrapped in an object
/// (`{"runs": [...]}`), anything else is served as it is.
pub fn wrap(doc: Value) -> Value {
    match doc {
        Value::Array(_) => json!({ WRAPPED: doc }),
        doc => doc,
    }
}

/// Each form of `schema`: an `anyOf` (at any depth: `mark`'s entry or
/// entries, or its `--detect-merged` report) is its alternatives.
fn push_forms(schema: &Value, forms: &mut Vec<Value>) {
    match schema.get("anyOf").and_then(Value::as_array) {
        Some(alternatives) if schema.get("properties").is_none() => {
            alternatives.iter().for_each(|a| push_forms(a, forms));
        }
        _ => forms.push(form(schema)),
    }
}

/// One form of a document: its fields and their types.
fn form(schema: &Value) -> Value {
    if schema["type"] == "array" {
        let items = json!({"type": "array", "items": types(&schema["items"])});
        return json!({"properties": {WRAPPED: items}, "required": [WRAPPED]});
    }
    let mut out = types(schema);
    // Said once, at the top.
    if out.get("type").is_some_and(|t| t == "object") {
        out.remove("type");
    }
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        let fields: Map<String, Value> = properties
            .iter()
            .map(|(name, field)| (name.clone(), Value::Object(types(field))))
            .collect();
        out.insert("properties".into(), Value::Object(fields));
    }
    if let Some(required) = schema.get("required") {
        out.insert("required".into(), required.clone());
    }
    Value::Object(out)
}

/// A field's type alone: `type`, `enum` or `const`, and each alternative's
/// of an `anyOf`/`oneOf` (a `oneOf` of constants becomes one `enum`).
fn types(schema: &Value) -> Map<String, Value> {
    let mut out = Map::new();
    for key in ["type", "enum", "const"] {
        if let Some(value) = schema.get(key) {
            out.insert(key.into(), value.clone());
        }
    }
    for key in ["anyOf", "oneOf"] {
        let Some(alternatives) = schema.get(key).and_then(Value::as_array) else {
            continue;
        };
        let constants: Option<Vec<Value>> = alternatives
            .iter()
            .map(|a| a.get("const").cloned())
            .collect();
        match constants {
            Some(constants) => {
                out.insert("enum".into(), Value::Array(constants));
            }
            None => {
                let each = alternatives.iter().map(|a| Value::Object(types(a)));
                out.insert(key.into(), each.collect());
            }
        }
    }
    out
}

/// An input schema as served: `$schema`, `format`s, the defaults that say
/// nothing (`false`, `[]`), `null` beside a type (leaving a property out
/// is how it is not given) and the descriptions of array items and enum
/// values left out; a `oneOf` of constants is one `enum`.
#[cfg(feature = "generate")]
pub fn input(mut schema: Value) -> Value {
    let Some(top) = schema.as_object_mut() else {
        return schema;
    };
    top.remove("$schema");
    if let Some(properties) = top.get_mut("properties").and_then(Value::as_object_mut) {
        for property in properties.values_mut() {
            *property = Value::Object(simplify(property));
        }
    }
    schema
}

#[cfg(feature = "generate")]
fn simplify(property: &Value) -> Map<String, Value> {
    let mut out = Map::new();
    if let Some(text) = property.get("description") {
        out.insert("description".into(), text.clone());
    }
    // `["string", "null"]` is `"string"`; `anyOf: [X, {"type": "null"}]` is X.
    let not_null = |v: &&Value| v.get("type").is_none_or(|t| t != "null");
    if let Some(alternatives) = property.get("anyOf").and_then(Value::as_array) {
        let kept: Vec<&Value> = alternatives.iter().filter(not_null).collect();
        if let [only] = kept.as_slice() {
            let mut inner = simplify(only);
            inner.remove("description");
            out.extend(inner);
        }
    }
    for (key, value) in property.as_object().into_iter().flatten() {
        match key.as_str() {
            "description" | "format" | "anyOf" => {}
            "default" if *value == json!(false) || *value == json!([]) => {}
            "type" => {
                let types: Vec<&Value> = match value {
                    Value::Array(types) => types.iter().filter(|t| *t != "null").collect(),
                    one => vec![one],
                };
                let value = match types.as_slice() {
                    [one] => (*one).clone(),
                    many => json!(many),
                };
                out.insert(key.clone(), value);
            }
            "items" => {
                let mut items = simplify(value);
                items.remove("description");
                out.insert(key.clone(), Value::Object(items));
            }
            "oneOf" => {
                let constants: Option<Vec<Value>> = value
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|a| a.get("const").cloned())
                    .collect();
                match constants {
                    Some(constants) => {
                        out.insert("type".into(), json!("string"));
                        out.insert("enum".into(), Value::Array(constants));
                    }
                    None => {
                        out.insert(key.clone(), value.clone());
                    }
                }
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Each form at any depth of `anyOf`, an array form wrapped, a field's
    /// constants one `enum`, a nested object only its type.
    #[test]
    fn the_shape_keeps_each_forms_fields_and_types() {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "t",
            "anyOf": [
                {"anyOf": [
                    {"type": "object", "description": "one", "required": ["id"], "properties": {
                        "id": {"type": "string", "description": "The id"},
                        "how": {"oneOf": [{"const": "a", "description": "x"}, {"const": "b"}]},
                        "copy": {"type": ["object", "null"], "properties": {"n": {"type": "integer"}}},
                    }},
                    {"type": "array", "items": {"type": "object", "properties": {"id": {}}}},
                ]},
            ],
        });
        let shape = output(&schema.to_string());
        assert_eq!(
            shape,
            json!({"type": "object", "anyOf": [
                {"required": ["id"], "properties": {
                    "id": {"type": "string"},
                    "how": {"enum": ["a", "b"]},
                    "copy": {"type": ["object", "null"]},
                }},
                {"required": ["runs"], "properties": {
                    "runs": {"type": "array", "items": {"type": "object"}},
                }},
                {"required": ["error"]},
            ]})
        );
        assert_eq!(wrap(json!([1])), json!({"runs": [1]}));
        assert_eq!(wrap(json!({"id": "a"})), json!({"id": "a"}));
    }

    #[cfg(feature = "generate")]
    #[test]
    fn an_input_leaves_out_what_says_nothing() {
        let schema = json!({
            "$schema": "x",
            "type": "object",
            "properties": {
                "keep": {"type": "boolean", "default": false, "description": "Keep"},
                "dry_run": {"type": "boolean", "default": true},
                "ids": {"type": "array", "default": [], "items": {"type": "string", "description": "An id", "minLength": 1}},
                "n": {"type": ["integer", "null"], "format": "uint", "maximum": 32},
                "how": {"description": "How", "anyOf": [
                    {"description": "d", "oneOf": [{"const": "a", "type": "string"}, {"const": "b", "type": "string"}]},
                    {"type": "null"},
                ]},
            },
        });
        assert_eq!(
            input(schema),
            json!({
                "type": "object",
                "properties": {
                    "keep": {"type": "boolean", "description": "Keep"},
                    "dry_run": {"type": "boolean", "default": true},
                    "ids": {"type": "array", "items": {"type": "string", "minLength": 1}},
                    "n": {"type": "integer", "maximum": 32},
                    "how": {"description": "How", "type": "string", "enum": ["a", "b"]},
                },
            })
        );
    }
}
