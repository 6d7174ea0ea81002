mod change;
mod resolve;

pub use resolve::tree;
