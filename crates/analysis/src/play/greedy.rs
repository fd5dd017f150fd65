//! The greedy player: a weak but instant opponent that takes the turn leaving its store
//! margin largest, looking no further ahead (`kalah play --engine greedy`).

use kalah_core::{mix, Game, Position};

use crate::game::turns::{first_steps, Offer};

/// The greedy player's choice of a whole turn (the houses it sows, 0-based from its left,
/// [`kalah_core::CLOCKWISE`] added for a clockwise sowing) in `pos`, for the player to move.
///
/// It tries every complete turn (following extra turns) and takes one that leaves its
/// store margin largest when the turn is over, looking no further ahead. Ties go to the
/// first turn in bin order, or, with a `seed`, to the one a hash of the seed picks (the
/// same seed always picks the same turn). Empty where the game is over.
pub fn greedy_turn(game: &Game, pos: &Position, seed: Option<u64>) -> Vec<usize> {
    let me = pos.side_to_move();
    let turns = first_steps(game, pos, Offer::AfterTurn)
        .into_iter()
        .map(|step| (step.turn.sowings, step.after));
    let tie_break = |turn: &[usize]| match seed {
        None => 0,
        Some(s) => turn
            .iter()
            .fold(mix(s), |acc, &j| mix(acc ^ (j as u64 + 1))),
    };
    turns
        .map(|(turn, after)| (me.sign() * after.score(), turn))
        // max_by_key keeps the last maximum: compare with reversed tie keys so that the
        // first turn in bin order wins without a seed.
        .enumerate()
        .max_by_key(|(k, (margin, turn))| (*margin, std::cmp::Reverse((tie_break(turn), *k))))
        .map(|(_, (_, turn))| turn)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::Rules;

    /// Every complete turn of the mover with the store margin it leaves for them.
    fn margins(game: &Game, pos: &Position) -> Vec<(Vec<usize>, i32)> {
        let me = pos.side_to_move().sign();
        first_steps(game, pos, Offer::AfterTurn)
            .into_iter()
            .map(|step| (step.turn.sowings, me * step.after.score()))
            .collect()
    }

    /// Positions of a few played-out games, the mover to move in each.
    fn positions(game: &Game) -> Vec<Position> {
        let mut pos = game.start();
        let mut seen = Vec::new();
        while !pos.is_over() {
            seen.push(pos);
            for j in greedy_turn(game, &pos, Some(seen.len() as u64)) {
                pos = game.play_unchecked(&pos, j);
            }
        }
        seen
    }

    #[test]
    fn greedy_takes_the_first_of_the_largest_margins() {
        for rules in [
            Rules::kalah(6, 4),
            Rules::nigerian(4, 3),
            Rules::oware(4, 3),
        ] {
            let game = Game::new(rules).unwrap();
            for pos in positions(&game) {
                let turns = margins(&game, &pos);
                let best = turns.iter().map(|&(_, m)| m).max().unwrap();
                let first = turns.iter().find(|&&(_, m)| m == best).unwrap();
                assert_eq!(greedy_turn(&game, &pos, None), first.0, "{pos}");
            }
        }
    }

    #[test]
    fn a_seed_picks_one_of_the_largest_margins_every_time() {
        let game = Game::new(Rules::kalah(6, 4)).unwrap();
        for pos in positions(&game) {
            let turns = margins(&game, &pos);
            let best = turns.iter().map(|&(_, m)| m).max().unwrap();
            for seed in 0..4 {
                let turn = greedy_turn(&game, &pos, Some(seed));
                assert_eq!(turn, greedy_turn(&game, &pos, Some(seed)));
                assert!(turns.contains(&(turn, best)), "{pos}");
            }
        }
    }

    #[test]
    fn greedy_captures_when_a_capture_is_the_largest_gain() {
        // Sowing South's first house captures North's 9 seeds; so does the other turn (the
        // sixth house into the store, then the first), but it empties South's row and
        // North keeps its 5 seeds left.
        let game = Game::new(Rules::kalah(6, 4)).unwrap();
        let pos: Position = "1,0,0,0,0,1,20,1,1,1,1,9,1,12:S".parse().unwrap();
        assert_eq!(greedy_turn(&game, &pos, None), vec![0]);
    }

    #[test]
    fn a_finished_game_has_no_turn() {
        let game = Game::new(Rules::kalah(6, 4)).unwrap();
        let over: Position = "0,0,0,0,0,0,30,0,0,0,0,0,0,18:S".parse().unwrap();
        assert!(greedy_turn(&game, &over, None).is_empty());
    }
}
