//! Answers from a finished database of a cyclic family (Oware): the value of a position the
//! database covers, and a principal variation that replays to it, without solving the
//! game graph again.
//!
//! The value is the database's (built by the cycle rule and verified on load). The line
//! keeps the value at every move, a move out of the level (a capture, the end) first,
//! then one to a position not yet on the line; it ends with the game or where a position
//! would repeat. The database has no stamps (the sweep at which a value became final), so
//! a winner's line could wander inside a level: the line is replayed
//! ([`crate::line::replay`]) and an answer is given only where it reaches the value; the
//! caller solves the graph otherwise.

use kalah_core::{Game, Position};

use crate::line::{push_sowing, replay, Turn};

/// The most sowings a line from the database may take before it is given up.
const MAX_LINE: usize = 4096;

/// The value of `pos` for the player to move and a principal variation that replays to
/// it, where the database `probe` reads (a finished file's
/// [`Egdb::probe`](crate::db::egdb::Egdb::probe): the value for the mover, `None` where it
/// holds no value) holds `pos` and every position of the line; `None` otherwise (the
/// caller solves the graph). The database is read through `probe` alone: `egdb` builds
/// its cyclic levels with this module, which imports nothing of `egdb` back.
pub fn answer(
    game: &Game,
    probe: impl Fn(&Position) -> Option<i32>,
    pos: &Position,
) -> Option<(i32, Vec<Turn>)> {
    let value = probe(pos)?;
    let mut pv: Vec<Turn> = Vec::new();
    let mut seen = std::collections::HashSet::from([*pos]);
    let mut p = *pos;
    let mut sowings = 0;
    while !p.is_over() {
        let v = probe(&p)?;
        let level = p.seeds_in_houses();
        // (rank, move, child): 0 leaves the level, 1 a new position, 2 a repetition.
        let mut best: Option<(u8, usize, Position)> = None;
        for m in game.legal_moves(&p) {
            let (c, _) = game.sow(&p, m);
            let cv = probe(&c)?;
            let worth = match c.side_to_move() == p.side_to_move() {
                true => cv,
                false => -cv,
            };
            if worth != v {
                continue;
            }
            let rank = match (
                c.is_over() || c.seeds_in_houses() < level,
                seen.contains(&c),
            ) {
                (true, _) => 0,
                (false, false) => 1,
                (false, true) => 2,
            };
            if best.as_ref().is_none_or(|b| rank < b.0) {
                best = Some((rank, m, c));
            }
        }
        // The value is a fixed point of the operator, so some move keeps it.
        let (_, m, c) = best?;
        push_sowing(&mut pv, p.side_to_move(), m);
        sowings += 1;
        if !seen.insert(c) || sowings >= MAX_LINE {
            break;
        }
        p = c;
    }
    let from_south = value * pos.side_to_move().sign();
    replay(game, pos, &pv, from_south).ok()?;
    Some((value, pv))
}
