//! What every task uses to run its work: the worker pool that takes jobs in input order
//! (`pool`), a solve's progress in words ([`progress`]), the display of work done
//! level by level ([`levels`]), and the kinds of file the commands write, so that an
//! output replaces only a file of its own kind ([`outputs`]), and the partial file that keeps
//! a long run's proved records ([`partial`]).

pub mod egdb_build;
pub mod levels;
pub mod outputs;
pub mod partial;
pub(crate) mod pool;
pub mod progress;
pub mod solving;
