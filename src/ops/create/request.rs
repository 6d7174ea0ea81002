//! What `create` is asked for, in the operation's own terms.

use crate::runid::RunId;

/// What to create, as the operation takes it: `git loop create`'s
/// arguments (`commands::create` converts them), or what the claude hook and
/// MCP ask for.
#[derive(Debug, Clone)]
pub struct CreateRequest {
    pub run_id: RunId,
    /// The pattern recorded; `None`: the setting `create.pattern`.
    pub pattern: Option<String>,
    /// The base; `None`: the configured one (see [`crate::ops::base`]).
    pub base: Option<String>,
    /// Hand an intact active run back, or check out its existing branch.
    pub reuse: bool,
    /// Directories of a sparse checkout (cone mode); empty: everything.
    pub sparse: Vec<String>,
    /// Fetch the base's upstream first.
    pub fetch: bool,
    /// Ports to lease; `None`: the setting `create.ports`.
    pub ports: Option<usize>,
}
