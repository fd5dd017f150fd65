//! `kalah openings` and `kalah pie` answered from an opening book ([`Book::first_turns`]):
//! every first turn with the book's value of the position after it, as text, JSON or CSV,
//! each value labelled heuristic unless the book proves it; and one position looked up
//! (`kalah book show`).

use std::io::{self, Write};

use kalah_core::{Game, Position};
use serde_json::{json, Value};

use super::{Book, BookTurn, Entry};
use crate::game::bounds::signed;

/// `kalah book show`: the book (its origin and size), then the entry of `pos` with its
/// best turn, or that the book does not hold it.
pub fn show_lines(book: &Book, game: &Game, pos: &Position) -> Vec<String> {
    let entry = match book.lookup(pos) {
        Some(e) => format!(
            "{pos}: {}, best turn {}",
            e.describe(),
            e.best_turn.notation(game.houses())
        ),
        None => format!("{pos}: not in the book"),
    };
    vec![
        format!("book {} ({} positions)", book.origin(), book.len()),
        entry,
    ]
}

/// A value as the text shows it: `+4` when exact, `~+4` when heuristic.
fn shown(exact: bool, v: i32) -> String {
    match exact {
        true => signed(v),
        false => format!("~{}", signed(v)),
    }
}

/// The first turns, sorted best first with the pie rule for the first player (the
/// largest -|v|; ties keep the book's order).
pub fn pie_order(turns: &[BookTurn]) -> Vec<&BookTurn> {
    let mut list: Vec<&BookTurn> = turns.iter().collect();
    list.sort_by_key(|t| -t.pie().0.first_player);
    list
}

/// One entry as JSON, values from South as in every answer (`eval_mover` for the side to
/// move), with the book it came from (`file`): the `book` of `kalah analyse --json` and of
/// the board's events.
pub fn entry_json(houses: usize, e: &Entry, origin: &str) -> Value {
    json!({
        "best_turn": e.best_turn.notation(houses),
        "eval": e.eval,
        "eval_mover": e.eval_for_mover(),
        "lower": e.lower,
        "upper": e.upper,
        "exact": e.is_exact(),
        "book_lower": e.book_bounds().0,
        "book_upper": e.book_bounds().1,
        "book_exact": e.book_exact(),
        "depth": e.depth,
        "file": origin,
    })
}

/// `kalah openings` from the book, as text.
pub fn openings_text(
    book: &Book,
    game: &Game,
    pos: &Position,
    turns: &[BookTurn],
    out: &mut dyn Write,
) -> io::Result<()> {
    let h = game.houses();
    writeln!(out, "rules: {}", game.rules())?;
    writeln!(out, "position: {pos}")?;
    writeln!(
        out,
        "from the opening book {}: values from South after each turn, heuristic (~) unless \
         exact, with the interval proved to hold the value and the depth of the book's search",
        book.origin()
    )?;
    writeln!(
        out,
        "{:<12} {:>6}  {:>11}  {:>5}",
        "turn", "value", "proven", "depth"
    )?;
    for t in turns {
        writeln!(
            out,
            "{:<12} {:>6}  {:>11}  {:>5}",
            t.step.turn.notation(h),
            shown(t.is_exact(), t.eval),
            format!("{}..{}", signed(t.lower), signed(t.upper)),
            t.depth
        )?;
    }
    claims_note(h, turns, out)?;
    let best = &turns[0];
    writeln!(
        out,
        "best turn {} ({} {} from South, book)",
        best.step.turn.notation(h),
        if best.is_exact() {
            "exact"
        } else {
            "heuristic"
        },
        signed(best.eval)
    )
}

/// The turns whose value is the book's claim, not proven here ([`BookTurn::claim`]):
/// a line each with the book's own interval, after the table.
fn claims_note(h: usize, turns: &[BookTurn], out: &mut dyn Write) -> io::Result<()> {
    for t in turns {
        if let Some((lo, hi)) = t.claim {
            let claim = match lo == hi {
                true => format!("exact {}", signed(lo)),
                false => format!(
                    "heuristic {}, in {}..{}",
                    signed(t.eval),
                    signed(lo),
                    signed(hi)
                ),
            };
            writeln!(
                out,
                "turn {}: {claim} per the book, not proven here (a position of more than {} \
                 seeds in its houses is not solved again when a book file is read): the \
                 proven interval is what its seeds allow",
                t.step.turn.notation(h),
                super::REPROVE_SEEDS
            )?;
        }
    }
    Ok(())
}

/// One turn as JSON (values from South; `eval_mover` for the player who makes it).
fn turn_json(h: usize, t: &BookTurn) -> Value {
    json!({
        "turn": t.step.turn.notation(h),
        "eval": t.eval,
        "eval_mover": t.step.turn.side.sign() * t.eval,
        "lower": t.lower,
        "upper": t.upper,
        "exact": t.is_exact(),
        "book_lower": t.book_bounds().0,
        "book_upper": t.book_bounds().1,
        "book_exact": t.book_exact(),
        "depth": t.depth,
        "position_after": t.step.after.to_string(),
    })
}

/// `kalah openings --json` from the book.
pub fn openings_json(book: &Book, game: &Game, pos: &Position, turns: &[BookTurn]) -> Value {
    let h = game.houses();
    json!({
        "book": book.origin(),
        "turns": turns.iter().map(|t| turn_json(h, t)).collect::<Vec<_>>(),
        "best_turn": turns[0].step.turn.notation(h),
        "exact": turns.iter().all(BookTurn::is_exact),
        "rules": game.rules().to_string(),
        "position": pos.to_string(),
        "side_to_move": pos.side_to_move().to_string(),
    })
}

/// `kalah openings --csv` from the book: turn, exact, eval, lower, upper, depth,
/// eval_for_mover, position_after (as `--time` writes, without the line).
pub fn openings_csv(game: &Game, turns: &[BookTurn]) -> String {
    let h = game.houses();
    let mut text =
        String::from("turn,exact,eval,lower,upper,depth,eval_for_mover,position_after\n");
    for t in turns {
        text.push_str(&format!(
            "{},{},{},{},{},{},{},\"{}\"\n",
            t.step.turn.notation(h),
            t.is_exact(),
            t.eval,
            t.lower,
            t.upper,
            t.depth,
            t.step.turn.side.sign() * t.eval,
            t.step.after
        ));
    }
    text
}

/// `kalah pie` from the book, as text: each first turn's value, North's choice (proven
/// or heuristic) and the first player's outcome, best first with the rule.
pub fn pie_text(
    book: &Book,
    game: &Game,
    turns: &[BookTurn],
    out: &mut dyn Write,
) -> io::Result<()> {
    let h = game.houses();
    writeln!(out, "rules: {}", game.rules())?;
    writeln!(
        out,
        "pie rule from the opening book {}: North swaps exactly when the value after South's \
         turn is positive; heuristic (~) unless the book's proven interval decides it",
        book.origin()
    )?;
    writeln!(
        out,
        "{:<12} {:>6}  {:>11}  {:>5}  {:<18} {:>12}",
        "turn", "value", "proven", "depth", "North", "first player"
    )?;
    let list = pie_order(turns);
    for t in &list {
        let (d, proven) = t.pie();
        let choice = format!(
            "{}{}",
            if d.swap { "swaps" } else { "keeps" },
            if proven { "" } else { " (heuristic)" }
        );
        writeln!(
            out,
            "{:<12} {:>6}  {:>11}  {:>5}  {:<18} {:>12}",
            t.step.turn.notation(h),
            shown(t.is_exact(), t.eval),
            format!("{}..{}", signed(t.lower), signed(t.upper)),
            t.depth,
            choice,
            shown(t.is_exact(), d.first_player)
        )?;
    }
    claims_note(h, turns, out)?;
    let best = list[0];
    let (d, _) = best.pie();
    // The game's value with the rule is the best over every turn: exact only if all are.
    let exact = turns.iter().all(BookTurn::is_exact);
    writeln!(
        out,
        "best first turn with the rule: {}, {} {} for the first player (book)",
        best.step.turn.notation(h),
        if exact { "exact" } else { "heuristic" },
        signed(d.first_player)
    )
}

/// `kalah pie --json` from the book.
pub fn pie_json(book: &Book, game: &Game, turns: &[BookTurn]) -> Value {
    let h = game.houses();
    let list = pie_order(turns);
    let rows: Vec<Value> = list
        .iter()
        .map(|t| {
            let (d, proven) = t.pie();
            let mut v = turn_json(h, t);
            v["swap"] = json!(d.swap);
            v["swap_proven"] = json!(proven);
            v["first_player"] = json!(d.first_player);
            v
        })
        .collect();
    let best = list[0];
    json!({
        "book": book.origin(),
        "offer": "turn",
        "tie": "no swap",
        "turns": rows,
        "best_turn": best.step.turn.notation(h),
        "value": best.pie().0.first_player,
        "exact": turns.iter().all(BookTurn::is_exact),
        "rules": game.rules().to_string(),
    })
}
