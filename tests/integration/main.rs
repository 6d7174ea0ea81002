//! Integration tests: the built binary against temporary repositories.

mod common;

mod adopt;
mod branches;
mod cleanup;
mod colour;
mod concurrency;
mod config;
mod copy;
mod create;
mod frictions;
mod frictions_removal;
mod frictions_usage;
mod hooks;
mod hostile_input;
mod human;
mod in_use;
mod interrupts;
mod layout;
mod list_long;
mod locks;
mod manifest;
mod mark;
mod mutex;
mod promise;
mod properties;
mod read;
mod reconcile;
mod reliability;
mod remove;
mod restore;
mod salvage;
mod shell;
