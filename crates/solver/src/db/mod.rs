//! The endgame databases, everything a solve reads of its positions' exact values apart
//! from the search: the plain database and its files ([`egdb`]), the early stop's
//! ([`stopdb`]), the levels of the families solved by the cycle rule ([`cyclic_db`]), the
//! level-by-level build the first two share (`levels`), the search's view of them
//! (`lookup`), the database cache directory ([`cache`]), and where a solve's databases
//! come from and how they are opened (`database`).
//!
//! Imports point down inside the folder: `database` opens the others (through `cache`
//! and `lookup`); `lookup` reads `egdb` and `stopdb`; `cache` keeps `egdb` files;
//! `egdb` and `stopdb` build with `levels` (`stopdb` keeps its values in `egdb`'s byte
//! store), and `egdb` builds the cyclic families' levels with `cyclic_db`, which takes
//! only `levels`' cancel signal.
//! The crate root re-exports the public ones (`kalah_solver::egdb`, ...).

pub mod cache;
pub mod cyclic_db;
pub(crate) mod database;
pub mod egdb;
pub(crate) mod levels;
pub(crate) mod lookup;
pub mod stopdb;
