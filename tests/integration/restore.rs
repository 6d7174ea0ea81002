//! restore (to come)
