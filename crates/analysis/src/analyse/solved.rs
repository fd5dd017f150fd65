//! What `kalah solve` says about a solved position, for people: the value and its line,
//! then the work (the positions of the game graph, or the search's nodes and database);
//! and, for a solve that was interrupted, its best guess and what it proved
//! ([`interrupted_guess`], [`interrupted_words`]).

use std::io::{self, Write};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use kalah_core::{Game, Position};
use kalah_solver::{Analysis, Config, Database, Limits, Progress, Solution, SolveError, Solver};

use crate::game::bounds::signed;

use super::report::solve_json;

/// What `kalah solve` says about a solved position, as JSON or as text.
#[derive(Clone)]
pub struct SolveReport<'a> {
    /// The game solved.
    pub game: &'a Game,
    /// The position solved.
    pub pos: &'a Position,
    /// The solver that solved it.
    pub solver: &'a Solver,
    /// Its solution, principal variation checked.
    pub solution: &'a Solution,
    /// The principal variation in the published notation.
    pub pv: Vec<String>,
    /// The best turn in the published notation (none when the game is over).
    pub best: Option<String>,
    /// The endgame database file the solver loaded, if any.
    pub egdb_file: Option<String>,
}

impl SolveReport<'_> {
    /// The report as one JSON object on a line (`json`, [`solve_json`]) or as text.
    pub fn write(&self, json: bool, out: &mut dyn Write) -> io::Result<()> {
        crate::wire::json_or_text(
            json,
            out,
            || {
                let mut v = solve_json(self.solver, self.pos, self.solution);
                if let Some((user, system)) = kalah_solver::process_times() {
                    v["user_seconds"] = serde_json::json!(user.as_secs_f64());
                    v["system_seconds"] = serde_json::json!(system.as_secs_f64());
                }
                v
            },
            |out| self.write_text(out),
        )
    }

    /// The report for people: the value and its line, then the work.
    pub fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        let value = self.solution.value_from_south();
        writeln!(out, "rules      {}", self.game.rules())?;
        writeln!(out, "position   {}", self.pos)?;
        let verdict = match value {
            v if v > 0 => format!("South wins by {v}"),
            v if v < 0 => format!("North wins by {}", -v),
            _ => "draw".to_string(),
        };
        writeln!(
            out,
            "value      {value:+} ({verdict}, final South store minus North store)"
        )?;
        writeln!(
            out,
            "best turn  {}",
            self.best.as_deref().unwrap_or("none (the game is over)")
        )?;
        writeln!(out, "pv         {}", self.pv.join(" "))?;
        match self.game.rules().family.is_cyclic() {
            true => self.write_graph_work(out),
            false => self.write_search_work(out),
        }
    }

    /// Retrograde analysis: the nodes are the positions of the game graph solved.
    fn write_graph_work(&self, out: &mut dyn Write) -> io::Result<()> {
        let (game, pos, solution) = (self.game, self.pos, self.solution);
        if !solution.pv.is_empty() && !pv_ends_game(game, pos, solution) {
            writeln!(
                out,
                "           (the line returns to a position: play would go on for ever, \
                 and the store margin stands)"
            )?;
        }
        if solution.egdb_hits > 0 {
            return writeln!(
                out,
                "database   {}: the value read, the line replayed, in {:.3} s",
                self.egdb_file.as_deref().unwrap_or("the endgame database"),
                solution.elapsed.as_secs_f64()
            );
        }
        writeln!(
            out,
            "positions  {} of the game graph solved by retrograde analysis in {:.3} s \
             ({} threads)",
            solution.nodes,
            solution.elapsed.as_secs_f64(),
            self.solver.config().threads
        )?;
        Ok(())
    }

    /// The search: its database, nodes, speed, threads and table use.
    fn write_search_work(&self, out: &mut dyn Write) -> io::Result<()> {
        let solution = self.solution;
        if let Some(file) = &self.egdb_file {
            writeln!(out, "database   {file}")?;
        }
        writeln!(
            out,
            "nodes      {} in {:.3} s ({:.2} M nodes/s, {} threads, table {:.1}% used{})",
            solution.nodes,
            solution.elapsed.as_secs_f64(),
            solution.nodes_per_second() / 1e6,
            self.solver.config().threads,
            solution.table_permille as f64 / 10.0,
            self.solver
                .database_seeds_for(self.pos)
                .map_or(String::new(), |k| format!(
                    ", endgame database up to {k} seeds: {} hits",
                    solution.egdb_hits
                ))
        )?;
        if let Some((user, system)) = kalah_solver::process_times() {
            writeln!(
                out,
                "processor  {:.3} s user, {:.3} s system (the whole process so far, its \
                 setup included)",
                user.as_secs_f64(),
                system.as_secs_f64()
            )?;
        }
        Ok(())
    }
}

/// True when the principal variation of `solution` plays from `pos` to the end of the game
/// (not to a repetition).
fn pv_ends_game(game: &Game, pos: &Position, solution: &Solution) -> bool {
    kalah_solver::line::replay(game, pos, &solution.pv, solution.value_from_south())
        .is_ok_and(|end| end.is_over())
}

/// How long an interrupted solve looks for a best guess, over what its table holds.
pub const GUESS_TIME: Duration = Duration::from_millis(300);

/// The solver settings for the best guess of a solve interrupted while its endgame
/// database was built: `config` with no database, its table no larger than a short
/// analysis takes ([`GUESS_TIME`]).
pub fn guess_config(config: Config) -> Config {
    let cap = Limits::time(GUESS_TIME)
        .table_mb_cap()
        .unwrap_or(config.hash_mb);
    Config {
        database: Database::None,
        hash_mb: config.hash_mb.min(cap),
        ..config
    }
}

/// The best guess of a solve of `pos` that was interrupted: a short analysis over the
/// table `solver` holds, its interval narrowed by the one the proof had reached (`last`).
/// An interval closed without a line to the end stays open: exact means a line that
/// replays to the value.
pub fn interrupted_guess(
    solver: &Solver,
    pos: &Position,
    last: Option<&Progress>,
) -> Result<Analysis, SolveError> {
    let quick = Limits::time(GUESS_TIME);
    // The interrupt flag is up: the guess gets a flag of its own (a second Ctrl-C ends the
    // program at once).
    let mut a = solver.analyse_lines(pos, &quick, 1, &AtomicBool::new(false), &mut |_| {})?;
    if let Some(p) = last {
        let (lower, upper) = (a.proven.lower.max(p.lower), a.proven.upper.min(p.upper));
        if lower < upper {
            (a.proven.lower, a.proven.upper) = (lower, upper);
            a.eval = a.eval.clamp(lower, upper);
        }
    }
    Ok(a)
}

/// What an interrupted solve proved, in words: the value from South where the guess's
/// analysis proved it, else the interval from South that holds it.
pub fn interrupted_words(a: &Analysis) -> String {
    let (lo, hi) = a.bounds_from_south();
    if a.is_exact() {
        format!(
            "interrupted: the value {} from South was proved by the analysis",
            signed(lo)
        )
    } else {
        format!(
            "interrupted: not exact; the value from South is proven in {}..{}",
            signed(lo),
            signed(hi)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_core::Rules;

    fn written(json: bool, rules: Rules) -> (String, i32) {
        let game = Game::new(rules).unwrap();
        let config = kalah_solver::Config {
            threads: 1,
            hash_mb: 4,
            ..kalah_solver::Config::default()
        };
        let solver = Solver::new(game.clone(), config).unwrap();
        let pos = game.start();
        let solution = solver
            .solve(&pos, &Default::default(), &mut |_| {})
            .unwrap();
        let report = SolveReport {
            game: &game,
            pos: &pos,
            solver: &solver,
            solution: &solution,
            pv: vec!["1".to_string(), "2".to_string()],
            best: Some("1".to_string()),
            egdb_file: None,
        };
        let mut out = Vec::new();
        report.write(json, &mut out).unwrap();
        (String::from_utf8(out).unwrap(), solution.value_from_south())
    }

    #[test]
    fn the_text_gives_the_value_its_line_and_the_nodes() {
        let (text, value) = written(false, Rules::kalah(3, 2));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], format!("rules      {}", Rules::kalah(3, 2)));
        assert!(lines[2].starts_with(&format!("value      {value:+} (")));
        assert_eq!(lines[3], "best turn  1");
        assert_eq!(lines[4], "pv         1 2");
        assert!(lines[5].starts_with("nodes      "));
        // The processor time of the process, user and system apart, where the system
        // tells it.
        match kalah_solver::process_times() {
            Some(_) => {
                assert!(lines[6].starts_with("processor  ") && lines[6].contains(" s system"));
                assert_eq!(lines.len(), 7);
            }
            None => assert_eq!(lines.len(), 6),
        }
    }

    #[test]
    fn the_json_is_the_solve_object_on_one_line() {
        let (json, value) = written(true, Rules::kalah(3, 2));
        let v: serde_json::Value = serde_json::from_str(json.trim_end()).unwrap();
        assert_eq!(v["value"], value);
        assert!(json.ends_with("}\n") && json.lines().count() == 1);
        if kalah_solver::process_times().is_some() {
            assert!(v["user_seconds"].as_f64().is_some_and(|s| s >= 0.0), "{v}");
            assert!(
                v["system_seconds"].as_f64().is_some_and(|s| s >= 0.0),
                "{v}"
            );
        }
    }

    #[test]
    fn an_interrupted_guess_keeps_within_what_the_proof_reached() {
        let game = Game::new(Rules::kalah(4, 3)).unwrap();
        let config = guess_config(kalah_solver::Config {
            threads: 1,
            hash_mb: 1 << 14,
            ..kalah_solver::Config::default()
        });
        assert!(matches!(config.database, Database::None));
        assert!(
            config.hash_mb < 1 << 14,
            "the table is capped for a short analysis"
        );
        let solver = Solver::new(game.clone(), config).unwrap();
        let pos = game.start();
        let free = interrupted_guess(&solver, &pos, None).unwrap();
        let words = interrupted_words(&free);
        assert!(words.starts_with("interrupted: "), "{words}");
        if !free.is_exact() {
            let last = Progress {
                lower: free.proven.lower,
                upper: free.proven.lower + 1,
                phase: kalah_solver::Phase::Proving,
                nodes: 0,
                elapsed: Duration::ZERO,
            };
            let a = interrupted_guess(&solver, &pos, Some(&last)).unwrap();
            assert!(
                a.proven.lower >= free.proven.lower && a.proven.upper <= free.proven.lower + 1
                    || a.is_exact()
            );
        }
    }
}
