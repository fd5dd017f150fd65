//! The set-up of each case of `kalah bench` (the solver made: table and database), timed.
use kalah_solver::bench;
fn main() {
    let cases = bench::read(include_str!("../../../data/bench.txt")).unwrap();
    for case in &cases {
        let config = case.fingerprint_config(1, 64).unwrap();
        let db = format!("{:?} deepening {}", config.database, config.deepening);
        let run = case.run(config).unwrap();
        println!(
            "{:40} setup {:.3} s search {:.3} s db {:?} {}",
            case.line,
            run.setup.as_secs_f64(),
            run.solution.elapsed.as_secs_f64(),
            run.egdb_seeds,
            db
        );
    }
}
