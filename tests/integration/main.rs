//! Integration tests: the built binary against temporary repositories.

mod common;

mod cleanup;
mod concurrency;
mod config;
mod create;
mod manifest;
mod mark;
mod mutex;
mod read;
mod reconcile;
mod shell;
