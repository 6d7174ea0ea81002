//! What a ref holds, and a reflog's line: the types every backend of the
//! ref layer gives.

use gix::ObjectId;
use gix::bstr::BString;

/// What a ref holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// An object id (a commit, or a tag to peel).
    Object(ObjectId),
    /// The full name of another ref.
    Symbolic(String),
}

impl Value {
    /// The id it holds when it is not symbolic.
    pub fn id(&self) -> Option<ObjectId> {
        match self {
            Value::Object(id) => Some(*id),
            Value::Symbolic(_) => None,
        }
    }
}

/// One line of a reflog.
#[derive(Debug, Clone)]
pub struct LogLine {
    /// The id before the change (null: created); `None`: not known (see
    /// [`super::table`]).
    pub old: Option<ObjectId>,
    pub new: ObjectId,
    pub message: BString,
}
