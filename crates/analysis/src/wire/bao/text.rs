//! The text reports of Bao's `kalah solve`, `openings` and `analyse`, beside their JSON
//! ([`super::report`]): a solved game graph's value and every move's, or one report of
//! the anytime analysis. Each function returns the lines without their line ends.

use std::time::Duration;

use kalah_core::bao::{BaoMove, BaoPosition};
use kalah_solver::bao::{BaoSolved, Value as Wld};
use kalah_solver::bao_search::Outcome;
use kalah_solver::Analysis;

/// A proven outcome in words, for `mover` (a name and a blank, or nothing):
/// `proven: South wins within 3 moves`.
pub fn outcome_words(mover: &str, o: Outcome) -> String {
    match o {
        Outcome::Won { moves } => format!("proven: {mover}wins within {moves} moves"),
        Outcome::Lost { moves } => format!("proven: {mover}loses within {moves} moves"),
    }
}

/// What an analysis proves, in words.
fn proven_text(a: &Analysis<BaoMove>) -> String {
    let mover = format!("{} ", a.side);
    a.proven.map_or("not proven (heuristic)".to_string(), |o| {
        outcome_words(&mover, o)
    })
}

/// One report of the anytime analysis: a completed depth, or with `last` the summary.
pub fn analysis_line(a: &Analysis<BaoMove>, last: bool) -> String {
    if last {
        let best = a
            .best_turn()
            .map_or("none (the game is over)".to_string(), |m| m.to_string());
        return format!(
            "best move {best} for {}: heuristic {:+} points from South (100 a seed) at depth {}; {}",
            a.side,
            a.eval_from_south(),
            a.depth,
            proven_text(a)
        );
    }
    let line: Vec<String> = a.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "depth {:>3}  heuristic {:>+6} points from South  {}  nodes {:>11}  {:>9.0} n/s  {:>6.2} s  line {}",
        a.depth,
        a.eval_from_south(),
        proven_text(a),
        a.nodes,
        a.nodes_per_second(),
        a.elapsed.as_secs_f64(),
        line.join(" ")
    )
}

/// Every move of an analysis with its evaluation for the mover, its depth and what is
/// proven, one a line, best first.
pub fn analysed_moves(a: &Analysis<BaoMove>) -> Vec<String> {
    a.turns
        .iter()
        .map(|t| {
            let proven = t
                .proven
                .map_or("heuristic".to_string(), |o| outcome_words("", o));
            format!(
                "  {:>4}  {:>+6} points for the mover, depth {:>2}  {proven}",
                t.turn.to_string(),
                t.eval,
                t.depth
            )
        })
        .collect()
}

/// The exact value of each move for its mover, one a line.
pub fn solved_moves(moves: &[(BaoMove, Wld)]) -> Vec<String> {
    moves
        .iter()
        .map(|(m, v)| format!("  {:>4}  {}", m.to_string(), v.describe()))
        .collect()
}

/// A value for the side to move, as printed: `win in 3 (South wins)`.
fn value_words(pos: &BaoPosition, v: Wld) -> String {
    let (mover, other) = (pos.side(), pos.side().other());
    match v {
        Wld::Win(_) => format!("{} ({mover} wins)", v.describe()),
        Wld::Loss(_) => format!("{} ({other} wins)", v.describe()),
        Wld::Draw => "draw (best play repeats for ever)".to_string(),
    }
}

/// The text of `kalah solve --rules bao`: `pos` from its solved game graph `solved`,
/// which took `elapsed` (the value, the best move and line, every move's value and the
/// graph's counts).
pub fn solve_lines(pos: &BaoPosition, solved: &BaoSolved, elapsed: Duration) -> Vec<String> {
    let value = solved.value(pos).expect("the root is solved");
    let moves = solved.move_values(pos).expect("the root is solved");
    let pv: Vec<String> = solved.line(pos).iter().map(|m| m.to_string()).collect();
    let stats = solved.stats();
    let mut lines = vec![
        format!("position: {pos}"),
        format!(
            "value:    {} for {} to move",
            value_words(pos, value),
            pos.side()
        ),
    ];
    if let Some((m, _)) = solved.best_move(pos) {
        lines.push(format!("best:     {m}"));
    }
    lines.push(format!("pv:       {}", pv.join(" ")));
    lines.extend(solved_moves(&moves));
    lines.push(format!(
        "{} positions ({} won, {} lost, {} drawn for the mover) in {:.2} s",
        stats.positions,
        stats.won,
        stats.lost,
        stats.drawn,
        elapsed.as_secs_f64()
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_solver::Limits;
    use std::sync::atomic::AtomicBool;

    /// A small position of Bao(4,2) whose graph solves at once (a draw).
    const E16: &str = "2,1,0,1/1,0,0,0/0,0,0,1/2,1,1,0:S";

    #[test]
    fn a_solved_draw_reads_as_a_draw_with_every_move() {
        let pos: BaoPosition = E16.parse().unwrap();
        let never = AtomicBool::new(false);
        let solved = kalah_solver::bao::solve_position(&pos, 1 << 20, &never, &mut |_| {}).unwrap();
        let lines = solve_lines(&pos, &solved, Duration::from_millis(10));
        assert_eq!(lines[0], format!("position: {E16}"));
        assert_eq!(
            lines[1],
            "value:    draw (best play repeats for ever) for South to move"
        );
        let moves = solved.move_values(&pos).unwrap();
        assert!(lines.last().unwrap().ends_with(" in 0.01 s"));
        assert_eq!(lines.len(), moves.len() + 5);
    }

    #[test]
    fn an_analysis_summary_names_the_best_move_and_what_is_proven() {
        let pos: BaoPosition = E16.parse().unwrap();
        let never = AtomicBool::new(false);
        let a = kalah_solver::bao_search::analyse(&pos, &Limits::depth(2), &never, &mut |_| {});
        let last = analysis_line(&a, true);
        assert!(last.starts_with("best move "), "{last}");
        assert!(analysis_line(&a, false).starts_with("depth "));
        assert_eq!(analysed_moves(&a).len(), a.turns.len());
        assert_eq!(
            outcome_words("North ", Outcome::Won { moves: 3 }),
            "proven: North wins within 3 moves"
        );
    }
}
