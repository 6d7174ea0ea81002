//! Unit tests of the salvage's parts that need a real repository.

mod put_back;
