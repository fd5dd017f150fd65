//! `kalah batch`: many positions solved in parallel, answered as JSON lines in input order,
//! resumable after an interruption.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use kalah_analysis::batch::{items, solve_in_order, Answer, Item, LineError};
use serde_json::{json, Value};

use crate::analysis_io::{
    analysis_error, file_error, interrupt_flag, invalid, line_strings, parallel_solver,
    progress_bar, signed,
};
use crate::args::{setup, PositionArgs, RulesArgs};
use crate::error::CliError;
use crate::solving::SolverArgs;

/// Solve many positions: one a line, answers as JSON lines in input order.
///
/// Each input line is a position in the board form (`4,4,0,5,5,0,2,5,5,5,5,4,4,0:N`) or the
/// move form (`3-6 9`: moves played from the start position of the rules given). `#` starts
/// a comment; blank lines are skipped. Every other line gets one answer line:
/// `{"line", "input", "position", "value", "best_turn", "pv", "nodes", "seconds"}` (value
/// from South, principal variation replayed before writing), or `{"line", "input",
/// "error"}` for a line that cannot be read; a bad line never stops the batch.
///
/// With --output FILE the answers go to FILE, each line written as soon as it and all
/// before it are done. After an interruption (Ctrl-C keeps every answer finished in
/// order), run the same command with --resume: the lines already answered are checked
/// against the input and skipped, a half-written last line is dropped, and the rest is
/// appended, so nothing is lost or written twice.
///
/// Example: `kalah batch positions.txt --houses 6 --seeds 4 --output answers.jsonl`
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The positions, one a line [default: standard input; `-` too]
    #[arg(value_name = "INPUT")]
    input: Option<PathBuf>,

    /// Write the answers to FILE instead of standard output
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,

    /// Continue the interrupted run whose answers are in --output
    #[arg(long, requires = "output")]
    resume: bool,

    #[command(flatten)]
    rules: RulesArgs,

    #[command(flatten)]
    solver: SolverArgs,
}

/// Runs `kalah batch`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    // Catch Ctrl-C from the start, before the endgame database is built.
    interrupt_flag();
    let text = read_input(args.input.as_deref())?;
    // The rules and board of the options (the defaults of every subcommand), from the start.
    let no_position = PositionArgs {
        position: None,
        moves: None,
    };
    let (game, _) = setup(&args.rules, &no_position)?;
    let all = items(&text);

    let (skip, mut file) = match &args.output {
        None => (0, None),
        Some(path) => {
            let done = answered(path, &all, args.resume)?;
            let f = OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| file_error(path, e))?;
            (done, Some(f))
        }
    };
    let todo = &all[skip..];
    if todo.is_empty() {
        if skip > 0 && !args.solver.quiet {
            eprintln!("all {skip} positions were already answered");
        }
        return Ok(());
    }
    let (solver, workers) = parallel_solver(&args.solver, &game, game.capacity(), todo.len())?;
    let bar = progress_bar(args.solver.quiet, todo.len(), "positions");
    if skip > 0 {
        bar.println(format!(
            "resuming after the {skip} positions already answered"
        ));
    }
    let h = game.houses();
    let mut write_error = None;
    let result = solve_in_order(&solver, todo, workers, interrupt_flag(), &mut |i, r| {
        let line = answer_line(&todo[i], &r, h);
        let sink: &mut dyn Write = match file.as_mut() {
            Some(f) => f,
            None => &mut *out,
        };
        if let Err(e) = writeln!(sink, "{line}").and_then(|()| sink.flush()) {
            write_error = Some(e);
            return false;
        }
        bar.set_message(match &r {
            Ok(a) => format!("line {}: {}", todo[i].line, signed(a.value)),
            Err(_) => format!("line {}: error", todo[i].line),
        });
        bar.inc(1);
        true
    });
    bar.finish_and_clear();
    let done = result.map_err(|e| analysis_error(e, ""))?;
    if let Some(e) = write_error {
        return Err(match &args.output {
            Some(path) => file_error(path, e),
            None => CliError::Io(e),
        });
    }
    if let Some(f) = file {
        f.sync_all().ok();
    }
    if done < todo.len() {
        let kept = match &args.output {
            Some(path) => format!(
                "{} of {} positions answered in {}; run the same command with --resume to \
                 answer the rest",
                skip + done,
                all.len(),
                path.display()
            ),
            None => format!("{} of {} positions answered", done, all.len()),
        };
        return Err(crate::analysis_io::interrupted(&kept));
    }
    Ok(())
}

fn read_input(path: Option<&Path>) -> Result<String, CliError> {
    let mut text = String::new();
    match path {
        None => std::io::stdin().read_to_string(&mut text)?,
        Some(p) if p.as_os_str() == "-" => std::io::stdin().read_to_string(&mut text)?,
        Some(p) => File::open(p)
            .and_then(|mut f| f.read_to_string(&mut text))
            .map_err(|e| file_error(p, e))?,
    };
    Ok(text)
}

/// One answer as a JSON line.
fn answer_line(item: &Item, r: &Result<Answer, LineError>, houses: usize) -> Value {
    match r {
        Ok(a) => json!({
            "line": item.line,
            "input": item.input,
            "position": a.position.to_string(),
            "value": a.value,
            "best_turn": a.best_turn().map(|t| t.notation(houses)),
            "pv": line_strings(houses, &a.pv),
            "nodes": a.nodes,
            "seconds": a.elapsed.as_secs_f64(),
        }),
        Err(e) => json!({
            "line": item.line,
            "input": item.input,
            "error": e.to_string(),
        }),
    }
}

/// How many items of `all` the existing output file already answers, checking that its
/// lines answer them in order; a half-written last line is cut off the file. Refuses an
/// existing non-empty file without `resume`, so nothing is overwritten by accident.
fn answered(path: &Path, all: &[Item], resume: bool) -> Result<usize, CliError> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(file_error(path, e)),
    };
    if bytes.is_empty() {
        return Ok(0);
    }
    if !resume {
        return Err(invalid(format!(
            "{} already exists: add --resume to continue the run that wrote it, or remove it",
            path.display()
        )));
    }
    let mut done = 0;
    let mut good_len = 0;
    let mut rest = &bytes[..];
    while let Some(end) = rest.iter().position(|&b| b == b'\n') {
        let line = &rest[..end];
        let value: Value = serde_json::from_slice(line).map_err(|_| {
            invalid(format!(
                "{}: answer {} is not a JSON line written by kalah batch",
                path.display(),
                done + 1
            ))
        })?;
        let item = all.get(done).ok_or_else(|| {
            invalid(format!(
                "{} holds more answers than the input has positions: is it the output of \
                 this input?",
                path.display()
            ))
        })?;
        if value["line"] != json!(item.line) || value["input"] != json!(item.input) {
            return Err(invalid(format!(
                "{}: answer {} is for line {} '{}', but that position of the input is line \
                 {} '{}': is it the output of this input?",
                path.display(),
                done + 1,
                value["line"],
                value["input"].as_str().unwrap_or("?"),
                item.line,
                item.input
            )));
        }
        done += 1;
        good_len += end + 1;
        rest = &rest[end + 1..];
    }
    if good_len < bytes.len() {
        // The interrupted run died in the middle of a line: drop the fragment.
        let f = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| file_error(path, e))?;
        f.set_len(good_len as u64)
            .map_err(|e| file_error(path, e))?;
    }
    Ok(done)
}
