//! Invariants over random playouts for every rule option of every family: seeds are
//! conserved, the board notation round-trips, keys are exact, the move notation replays a
//! game, and the parsers refuse bad input with the right error and never panic.

use crate::common;

use std::collections::HashMap;

use common::{all_rules, random_position, settled_start, Rng, PLAYOUT_SOWINGS};
use kalah_core::notation::{format_turn, play_moves};
use kalah_core::{
    End, Game, GrandSlam, Leftovers, MoveError, Position, PositionError, Preset, Rules, Side,
    Sowing,
};

/// The boards the playout invariants visit.
const BOARDS: [(u8, u8); 8] = [
    (1, 1),
    (2, 3),
    (3, 4),
    (4, 3),
    (5, 5),
    (6, 4),
    (6, 6),
    (8, 8),
];

/// Every position of a random game from the (settled) start, the start and the end
/// included; at most [`PLAYOUT_SOWINGS`] sowings, as Ethiopian and Oware games can go on
/// forever.
fn playout(game: &Game, rng: &mut Rng) -> Vec<Position> {
    let mut pos = settled_start(game).0;
    let mut seen = vec![pos];
    while !pos.is_over() && seen.len() <= PLAYOUT_SOWINGS {
        let moves: Vec<usize> = game.legal_moves(&pos).collect();
        pos = game.play_unchecked(&pos, rng.pick(&moves));
        seen.push(pos);
    }
    seen
}

#[test]
fn seeds_are_conserved() {
    let mut rng = Rng::new(10);
    for (h, s) in BOARDS {
        for rules in all_rules(h, s) {
            let game = Game::new(rules).unwrap();
            let total = rules.total_seeds() as u32;
            for _ in 0..8 {
                for pos in playout(&game, &mut rng) {
                    let [mine, theirs] = pos.stores();
                    let stores = mine as u32 + theirs as u32;
                    assert_eq!(pos.total_seeds(), total);
                    let mover_row: u32 = (0..h as usize).map(|j| pos.mover_house(j) as u32).sum();
                    assert_eq!(pos.seeds_in_mover_row(), mover_row, "{pos}");
                    let side = pos.side_to_move();
                    assert_eq!(pos.store(side), mine);
                    assert_eq!(pos.store(side.other()), theirs);
                    assert_eq!(
                        pos.score(),
                        pos.store(Side::South) as i32 - pos.store(Side::North) as i32
                    );
                    if pos.is_over() {
                        assert_eq!(pos.seeds_in_houses(), 0, "{pos}");
                        assert!(pos.moves().is_empty());
                        assert!(game.legal_moves(&pos).is_empty());
                        if rules.leftovers == Leftovers::Owner && !rules.early_stop {
                            assert_eq!(stores, total, "{pos} under {rules}");
                        } else {
                            assert!(stores <= total, "{pos} under {rules}");
                        }
                    } else {
                        assert_eq!(pos.seeds_in_houses() + stores, total, "{pos} under {rules}");
                        assert!(!game.legal_moves(&pos).is_empty(), "{pos} under {rules}");
                        if rules.early_stop {
                            assert!(2 * mine.max(theirs) as u32 <= total, "{pos} under {rules}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn board_notation_round_trips() {
    let mut rng = Rng::new(11);
    for (h, s) in BOARDS {
        for rules in all_rules(h, s) {
            let game = Game::new(rules).unwrap();
            for _ in 0..4 {
                for pos in playout(&game, &mut rng) {
                    let text = pos.to_string();
                    let parsed: Position = text.parse().unwrap();
                    let settled = game.settle(parsed).unwrap();
                    assert_eq!(settled.absolute_counts(), pos.absolute_counts(), "{text}");
                    assert_eq!(settled.side_to_move(), pos.side_to_move(), "{text}");
                    assert_eq!(settled.is_over(), pos.is_over(), "{text}");
                    let [a, b] = pos.stores();
                    let discarded = pos.is_over() && (a as u32 + b as u32) < pos.total_seeds();
                    // The notation cannot say how many seeds a finished game discarded,
                    // so only then is the total lost.
                    if !discarded {
                        assert_eq!(settled, pos, "{text} under {rules}");
                        assert_eq!(game.key(&settled), game.key(&pos), "{text}");
                    }
                }
            }
        }
    }
}

#[test]
fn random_boards_round_trip_and_settle_twice_to_the_same() {
    let mut rng = Rng::new(12);
    for (h, s) in BOARDS {
        for rules in all_rules(h, s) {
            let game = Game::new(rules).unwrap();
            for _ in 0..20 {
                let (pos, _) = random_position(&mut rng, &game);
                let again = game.settle(pos.to_string().parse().unwrap()).unwrap();
                assert_eq!(again.absolute_counts(), pos.absolute_counts());
                if !pos.is_over() {
                    assert_eq!(again, pos);
                    assert_eq!(game.settle(pos).unwrap(), pos, "settle is idempotent");
                }
            }
        }
    }
}

/// What makes two positions of one game different for the key: the houses, and under the
/// early stop the mover's store.
fn key_content(game: &Game, pos: &Position) -> (u128, u8) {
    let store = if game.rules().early_stop {
        pos.stores()[0]
    } else {
        0
    };
    (pos.packed_board(), store)
}

/// Records the key of `pos`, checking that no other position had it.
fn add_key(game: &Game, seen: &mut HashMap<u64, (u128, u8)>, pos: &Position) {
    if pos.is_over() {
        return;
    }
    let key = game.key(pos);
    let content = key_content(game, pos);
    let old = *seen.entry(key).or_insert(content);
    assert_eq!(
        old,
        content,
        "key {key:#x} shared by two positions of {}",
        game.rules()
    );
}

#[test]
fn exact_keys_never_collide() {
    let mut rng = Rng::new(13);
    let games = [
        Rules::kalah(6, 4),
        Preset::Online.rules(6, 4),
        Rules::kalah(6, 6),
        Preset::OnlineEmpty.rules(6, 5),
        Rules::kalah(8, 6),
        Rules::kalah(4, 8),
        Rules {
            end: End::MoverStuck,
            ..Rules::kalah(3, 8)
        },
        Rules::ethiopian(6, 4),
        Rules::oware(6, 4),
        Rules {
            early_stop: true,
            grand_slam: GrandSlam::CaptureAll,
            ..Rules::oware(6, 4)
        },
    ];
    let mut distinct = 0;
    for rules in games {
        let game = Game::new(rules).unwrap();
        assert!(game.exact_keys(), "{rules}");
        let mut seen: HashMap<u64, (u128, u8)> = HashMap::new();
        while seen.len() < 50_000 {
            for pos in playout(&game, &mut rng) {
                add_key(&game, &mut seen, &pos);
            }
        }
        if !rules.early_stop {
            // Arbitrary boards (fewer seeds, odd shapes) rank into the same space.
            for _ in 0..20_000 {
                add_key(&game, &mut seen, &random_position(&mut rng, &game).0);
            }
        }
        distinct += seen.len();
    }
    assert!(distinct > 300_000, "only {distinct} positions");
}

#[test]
fn equal_positions_have_equal_keys() {
    let mut rng = Rng::new(14);
    for (h, s) in [(6, 4), (8, 8)] {
        for rules in all_rules(h, s) {
            let game = Game::new(rules).unwrap();
            for pos in playout(&game, &mut rng) {
                let copy: Position = pos.to_string().parse().unwrap();
                let copy = game.settle(copy).unwrap();
                if copy == pos {
                    assert_eq!(game.key(&copy), game.key(&pos));
                }
                // The key is mover-relative: the same houses seen by the same mover.
                let flipped_twice = pos.flipped().flipped();
                assert_eq!(flipped_twice, pos);
                assert_eq!(game.key(&flipped_twice), game.key(&pos));
            }
        }
    }
}

#[test]
fn move_notation_replays_a_game() {
    let mut rng = Rng::new(15);
    for (h, s) in BOARDS {
        for rules in all_rules(h, s) {
            let game = Game::new(rules).unwrap();
            for _ in 0..3 {
                // Play a random game, writing it down turn by turn; sow the reference by hand.
                let (start, mut reference) = settled_start(&game);
                let mut pos = start;
                let mut turns = Vec::new();
                let mut turn = Vec::new();
                let mut sowings = Vec::new();
                let mut turn_side = pos.side_to_move();
                while !pos.is_over() && sowings.len() < PLAYOUT_SOWINGS {
                    let moves: Vec<usize> = game.legal_moves(&pos).collect();
                    let j = rng.pick(&moves);
                    let (next, how) = game.sow(&pos, j);
                    reference = reference.sow(&rules, j).0;
                    turn.push(j);
                    sowings.push(j);
                    if how != Sowing::ExtraTurn {
                        turns.push(format_turn(h as usize, turn_side, &turn));
                        turn.clear();
                        turn_side = next.side_to_move();
                    }
                    pos = next;
                }
                if !turn.is_empty() {
                    turns.push(format_turn(h as usize, turn_side, &turn));
                }
                let text = turns.join(" ");
                let (end, played) = play_moves(&game, start, &text).unwrap();
                assert_eq!(end, pos, "{text}");
                assert_eq!(played, sowings, "{text}");
                assert_eq!(end.absolute_counts(), reference.counts(), "{text}");
                // Commas separate moves as well as spaces do.
                let (again, _) = play_moves(&game, start, &turns.join(",")).unwrap();
                assert_eq!(again, pos);
            }
        }
    }
}

#[test]
fn move_notation_errors() {
    let game = Game::new(Rules::kalah(6, 4)).unwrap();
    let start = game.start();
    // Bin 1 (house 0, 4 seeds) ends in house 4: no extra turn to continue with "-2".
    assert_eq!(
        play_moves(&game, start, "1-2"),
        Err(PositionError::NoExtraTurn { bin: 1 })
    );
    // Bins 8..13 are North's; bin 7 is South's store.
    for bin in [7, 8, 13, 14, 0] {
        assert_eq!(
            play_moves(&game, start, &bin.to_string()),
            Err(PositionError::NotMoversHouse {
                bin,
                side: Side::South,
                range: (1, 6)
            })
        );
    }
    // After "3" (extra turn) North's bins are still not South's.
    assert!(matches!(
        play_moves(&game, start, "3 8"),
        Err(PositionError::NotMoversHouse { bin: 8, .. })
    ));
    // Bin 3 again right after it was emptied.
    assert_eq!(
        play_moves(&game, start, "3-3"),
        Err(PositionError::Illegal {
            bin: 3,
            why: MoveError::EmptyHouse { house: 2 }
        })
    );
    for bad in ["x", "3-", "-3", "3--4", "1.5", "+-"] {
        assert!(
            matches!(
                play_moves(&game, start, bad),
                Err(PositionError::BadMove(_))
            ),
            "{bad}"
        );
    }
    // No move at all leaves the position as it is.
    assert_eq!(play_moves(&game, start, " , ").unwrap(), (start, vec![]));
    // A finished game takes no move.
    let over = game
        .settle("0,0,0,0,0,0,30,0,0,0,0,0,0,18:S".parse().unwrap())
        .unwrap();
    assert_eq!(
        play_moves(&game, over, "1"),
        Err(PositionError::Illegal {
            bin: 1,
            why: MoveError::GameOver
        })
    );
    assert_eq!(
        game.try_play(&start, 6),
        Err(MoveError::NoSuchHouse {
            house: 6,
            houses: 6
        })
    );
}

#[test]
fn board_parser_errors() {
    let parse = |s: &str| s.parse::<Position>();
    assert_eq!(
        parse("4,4,4,4,4,4,0,4,4,4,4,4,4,0"),
        Err(PositionError::MissingSide)
    );
    assert_eq!(
        parse("4,4,4,4,4,4,0,4,4,4,4,4,4,0:X"),
        Err(PositionError::BadSide("X".into()))
    );
    assert_eq!(
        parse("4,4,4,4,4,4,0,4,4,4,4,4,4,0:"),
        Err(PositionError::BadSide("".into()))
    );
    assert_eq!(
        parse("4,4,a,4,4,4,0,4,4,4,4,4,4,0:S"),
        Err(PositionError::BadCount {
            place: 3,
            text: "a".into()
        })
    );
    assert_eq!(
        parse("4,4,4,4,4,4,0,4,4,4,4,4,256,0:S"),
        Err(PositionError::BadCount {
            place: 13,
            text: "256".into()
        })
    );
    assert_eq!(
        parse("4,4,4,4,4,4,0,4,4,4,4,4,-1,0:S"),
        Err(PositionError::BadCount {
            place: 13,
            text: "-1".into()
        })
    );
    assert!(matches!(
        parse("4,,4,0:S"),
        Err(PositionError::BadCount { place: 2, .. })
    ));
    assert_eq!(parse("4,4,4:S"), Err(PositionError::WrongLength(3)));
    assert_eq!(parse("1,0:S"), Err(PositionError::WrongLength(2)));
    assert_eq!(
        parse(&format!("{}0:S", "1,".repeat(19))),
        Err(PositionError::WrongLength(20))
    );
    assert_eq!(
        parse("200,0,100,0:N"),
        Err(PositionError::TooManySeeds {
            seeds: 300,
            capacity: 255
        })
    );
    // Spaces and a lower-case side are accepted.
    assert_eq!(
        parse(" 1, 0, 1, 0 :s").unwrap(),
        parse("1,0,1,0:S").unwrap()
    );
    // The largest board and the most seeds are fine.
    assert!(parse(&format!("{}0:N", "15,".repeat(17))).is_ok());

    // Checks against a game.
    let game = Game::new(Rules::kalah(6, 4)).unwrap();
    assert_eq!(
        game.settle(parse("4,4,4,4,0,4,4,4,4,0:S").unwrap()),
        Err(PositionError::WrongBoard {
            houses: 4,
            expected: 6
        })
    );
    assert_eq!(
        game.settle(parse("5,4,4,4,4,4,0,4,4,4,4,4,4,0:S").unwrap()),
        Err(PositionError::TooManySeeds {
            seeds: 49,
            capacity: 48
        })
    );
}

#[test]
fn parsers_never_panic_on_random_input() {
    const ALPHABET: &[u8] = b"0123456789012345678901234567890123456789,,,,,,,,::SNsnx- \t9";
    let mut rng = Rng::new(16);
    let game = Game::new(Rules::kalah(6, 4)).unwrap();
    let mut ok = 0;
    for round in 0..4_000 {
        let text: String = if round % 2 == 0 {
            let len = rng.below(50);
            (0..len).map(|_| rng.pick(ALPHABET) as char).collect()
        } else {
            // Mutate a valid board: a few characters replaced, inserted or deleted.
            let (pos, _) = random_position(&mut rng, &game);
            let mut bytes = pos.to_string().into_bytes();
            for _ in 0..1 + rng.below(3) {
                let i = rng.below(bytes.len() + 1);
                match rng.below(3) {
                    0 if i < bytes.len() => bytes[i] = rng.pick(ALPHABET),
                    1 => bytes.insert(i, rng.pick(ALPHABET)),
                    _ if i < bytes.len() => {
                        bytes.remove(i);
                    }
                    _ => {}
                }
            }
            String::from_utf8(bytes).unwrap()
        };
        if let Ok(pos) = text.parse::<Position>() {
            ok += 1;
            let h = pos.houses_per_side();
            assert!((1..=8).contains(&h), "{text}");
            assert!(pos.total_seeds() <= 255);
            assert_eq!(pos.to_string().parse::<Position>(), Ok(pos), "{text}");
            if let Ok(settled) = game.settle(pos) {
                let _ = game.key(&settled);
                for j in settled.moves() {
                    let _ = game.try_play(&settled, j).unwrap();
                }
            }
        }
        let _ = play_moves(&game, game.start(), &text);
    }
    assert!(ok > 100, "only {ok} random strings parsed");
}
