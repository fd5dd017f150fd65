//! The search's view of the endgame databases: one interface over the plain database
//! ([`Egdb`]) and the early stop's ([`StopDb`]), chosen once per solve.
//!
//! A database answers the positions whose houses hold at most [`Database::max_seeds`]
//! seeds (and whose game is not over) with their *relative value*: the final margin minus
//! the store margin, for the mover. Each position has an *index*, the place of its entry,
//! which the search computes for a child when it generates it, prefetches, and reads when
//! it settles the child. Where the table key is the position's rank
//! ([`Game::key_is_rank`]), the plain database's index is the table key itself.

use kalah_core::{Game, Position};

use crate::egdb::Egdb;
use crate::stopdb::StopDb;

/// The endgame database a search reads (a small `Copy` handle; no dynamic dispatch).
#[derive(Clone, Copy)]
pub(crate) enum Database<'a> {
    /// The plain database, indexed by rank, where the table key is that rank: a
    /// position's index is its table key.
    RankKeyed(&'a Egdb),
    /// The plain database where table keys are not ranks: it ranks the position itself
    /// when asked for a value, so there is no index to fetch ahead.
    Plain(&'a Egdb),
    /// Under the early stop, the database that reads the stores.
    EarlyStop(&'a StopDb),
}

impl<'a> Database<'a> {
    /// The database for `game`: the plain one where there is one, else the early stop's.
    pub(crate) fn choose(
        game: &Game,
        egdb: Option<&'a Egdb>,
        stopdb: Option<&'a StopDb>,
    ) -> Option<Database<'a>> {
        match (egdb, stopdb) {
            (Some(db), _) if game.key_is_rank() => Some(Database::RankKeyed(db)),
            (Some(db), _) => Some(Database::Plain(db)),
            (None, Some(db)) => Some(Database::EarlyStop(db)),
            (None, None) => None,
        }
    }

    /// The most seeds in the houses of a position the database holds.
    pub(crate) fn max_seeds(self) -> usize {
        match self {
            Database::RankKeyed(db) | Database::Plain(db) => db.max_seeds(),
            Database::EarlyStop(db) => db.max_seeds(),
        }
    }

    /// The index of the entry of `pos` (held, the game not over); `key` gives its table
    /// key and is called only where that key is the index. 0 for [`Database::Plain`].
    #[inline(always)]
    pub(crate) fn index(self, pos: &Position, key: impl FnOnce() -> u64) -> u64 {
        match self {
            Database::RankKeyed(_) => key(),
            Database::Plain(_) => 0,
            Database::EarlyStop(db) => db.index(pos),
        }
    }

    /// Asks the CPU to bring the entry at `index` ([`Database::index`]) into cache.
    #[inline(always)]
    pub(crate) fn prefetch(self, index: u64) {
        match self {
            Database::RankKeyed(db) => db.prefetch(index),
            Database::Plain(_) => {}
            Database::EarlyStop(db) => db.prefetch(index),
        }
    }

    /// The relative value of `pos` (held, the game not over), whose entry is at `index`
    /// ([`Database::index`]).
    #[inline(always)]
    pub(crate) fn value(self, pos: &Position, index: u64) -> i32 {
        match self {
            Database::RankKeyed(db) => db.value_at(index),
            Database::Plain(db) => db.relative_value(pos),
            Database::EarlyStop(db) => db.value_at(index),
        }
    }
}
