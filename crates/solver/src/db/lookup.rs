//! The search's view of the endgame databases: one interface over the plain database
//! ([`Egdb`]) and the early stop's ([`StopDb`]), chosen once per solve.
//!
//! A database answers the positions whose houses hold at most [`Lookup::max_seeds`]
//! seeds (and whose game is not over) with their *relative value*: the final margin minus
//! the store margin, for the mover. Each position has an *index*, the place of its entry,
//! which the search computes for a child when it generates it, prefetches, and reads when
//! it settles the child. Where the table key is the position's rank
//! ([`Game::key_is_rank`]), the plain database's index is the table key itself.

use kalah_core::{Game, Position};

use crate::db::egdb::Egdb;
use crate::db::stopdb::StopDb;

/// The endgame database a search reads (a small `Copy` handle; no dynamic dispatch).
#[derive(Clone, Copy)]
pub(crate) enum Lookup<'a> {
    /// The plain database, indexed by rank, where the table key is that rank: a
    /// position's index is its table key.
    RankKeyed(&'a Egdb),
    /// The plain database where table keys are not ranks: it ranks the position itself
    /// when asked for a value, so there is no index to fetch ahead.
    Plain(&'a Egdb),
    /// Under the early stop, the database that reads the stores.
    EarlyStop(&'a StopDb),
}

impl<'a> Lookup<'a> {
    /// The database for `game`: the plain one where there is one, else the early stop's.
    pub(crate) fn choose(
        game: &Game,
        egdb: Option<&'a Egdb>,
        stopdb: Option<&'a StopDb>,
    ) -> Option<Lookup<'a>> {
        match (egdb, stopdb) {
            (Some(db), _) if game.key_is_rank() => Some(Lookup::RankKeyed(db)),
            (Some(db), _) => Some(Lookup::Plain(db)),
            (None, Some(db)) => Some(Lookup::EarlyStop(db)),
            (None, None) => None,
        }
    }

    /// The most seeds in the houses of a position the database holds.
    pub(crate) fn max_seeds(self) -> usize {
        match self {
            Lookup::RankKeyed(db) | Lookup::Plain(db) => db.max_seeds(),
            Lookup::EarlyStop(db) => db.max_seeds(),
        }
    }

    /// The index of the entry of `pos` (held, the game not over); `key` gives its table
    /// key and is called only where that key is the index. 0 for [`Lookup::Plain`].
    #[inline(always)]
    pub(crate) fn index(self, pos: &Position, key: impl FnOnce() -> u64) -> u64 {
        match self {
            Lookup::RankKeyed(_) => key(),
            Lookup::Plain(_) => 0,
            Lookup::EarlyStop(db) => db.index(pos),
        }
    }

    /// Asks the CPU to bring the entry at `index` ([`Lookup::index`]) into cache.
    #[inline(always)]
    pub(crate) fn prefetch(self, index: u64) {
        match self {
            Lookup::RankKeyed(db) => db.prefetch(index),
            Lookup::Plain(_) => {}
            Lookup::EarlyStop(db) => db.prefetch(index),
        }
    }

    /// The relative value of `pos` (held, the game not over), whose entry is at `index`
    /// ([`Lookup::index`]).
    #[inline(always)]
    pub(crate) fn value(self, pos: &Position, index: u64) -> i32 {
        match self {
            Lookup::RankKeyed(db) => db.value_at(index),
            Lookup::Plain(db) => db.relative_value(pos),
            Lookup::EarlyStop(db) => db.value_at(index),
        }
    }
}
