//! `git loop list --fleet`: the fleet listing, a document `watch --fleet`
//! shows too ([`crate::commands::shared::fleet_list`]).

pub use crate::commands::shared::fleet_list::exec;
