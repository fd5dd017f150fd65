//! The principal variation of a solved position of the game graph: moves that keep the
//! value, taken where the child became final earliest, so the line reaches the end.

use kalah_core::{Game, Position};

use super::values::{stamp, Values};
use super::{held, moves};
use crate::db::egdb::Egdb;
use crate::line::{push_sowing, push_turn, Turn};

/// A principal variation from `root` (solved): at each position a move that keeps the
/// value, the one whose child became final earliest ([`stamp`]); it ends with the game, or
/// where the next position would repeat one of the line (a value of 0 that cycles).
///
/// The player who wins (value > 0: the value is `lo`) moves to a child whose `hi` met its
/// final value before the mover's `lo` did, and the player who loses (the value is `hi`)
/// to a child whose `lo` did: the stamps fall strictly along the line inside a level, so
/// it leaves the level (every move out of it is progress) and reaches the end. A move into
/// a position that `exits` holds leaves the level too; the line goes on from there by
/// [`crate::db::cyclic_db::answer`] (and ends there where that finds none).
pub(super) fn principal_variation(
    game: &Game,
    values: &Values,
    node: &dyn Fn(&Position) -> u32,
    root: &Position,
    exits: Option<&Egdb>,
) -> Vec<Turn> {
    let mut pv: Vec<Turn> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut pos = *root;
    while !pos.is_over() && seen.insert(pos) {
        let i = node(&pos) as usize;
        let v = values.value(i) as i32;
        let winning = v > 0;
        let level = pos.seeds_in_houses();
        let mut best: Option<(u64, usize, Position)> = None;
        for (m, c, same_mover, gain) in moves(game, &pos) {
            let (worth, order) = if c.is_over() {
                (gain, 0)
            } else if let Some(cv) = held(exits, &c) {
                (gain + if same_mover { cv } else { -cv }, 0)
            } else {
                let j = node(&c) as usize;
                let cv = values.value(j) as i32;
                let worth = gain + if same_mover { cv } else { -cv };
                // A move out of the level is progress; inside it, the child's stamp.
                let order = match c.seeds_in_houses() < level {
                    true => 0,
                    false if winning => stamp(values.hi_at[j], j),
                    false => stamp(values.lo_at[j], j),
                };
                (worth, order)
            };
            if worth == v && best.as_ref().is_none_or(|b| order < b.0) {
                best = Some((order, m, c));
            }
        }
        // The value is a fixed point, so some move keeps it.
        let Some((_, m, c)) = best else { break };
        push_sowing(&mut pv, pos.side_to_move(), m);
        if let (Some(db), Some(_)) = (exits, held(exits, &c)) {
            if let Some((_, tail)) = crate::db::cyclic_db::answer(game, |p| db.probe(p), &c) {
                tail.into_iter().for_each(|t| push_turn(&mut pv, t));
            }
            break;
        }
        pos = c;
    }
    pv
}
