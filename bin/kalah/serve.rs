//! `kalah serve`: the analysis board ([`kalah_serve`]) with the command line's solver
//! options.

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use kalah_solver::Overrides;

use crate::error::CliError;
use crate::solving::{override_error, SolverArgs};

/// Serve the analysis board: a page showing every legal turn's exact value.
///
/// Open the address it prints in a browser. The board plays sowings by clicks, with undo,
/// redo and the move list; it takes pasted positions and move lists and has a position
/// editor; every rule preset and option is in its rules panel, and the address bar carries
/// the rules and the position, so a link shares the analysis. Every legal turn of the
/// position shown is solved exactly in the background (the bounds proved so far are shown
/// while a value is being proved), with the principal variation to step through and the
/// pie rule's decision. The rules panel also offers Bao la Kujifunza (`bao`): a four-row
/// board whose pits offer their directions, solved exactly where its game is small and
/// searched within a time budget otherwise (heuristic unless a win or loss is proven).
/// The page and its JSON API are described in docs/serve.md.
///
/// As in `kalah openings`, `--threads` turns are solved at once, one search thread each.
/// Bound to 127.0.0.1 unless `--bind` says otherwise: every solve runs on this machine
/// (a wildcard bind warns so). Requests must be addressed to this machine's own names
/// (`--allow-host` adds one), so that a page elsewhere cannot point its name here.
/// Analyses are started only by the board's own page (it carries a token made at
/// start-up). Ctrl-C stops the server, cancelling the solves and
/// the database builds.
///
/// Example: `kalah serve --open`
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The TCP port to listen on (0: a free one, printed)
    #[arg(long, default_value_t = 8080)]
    port: u16,

    /// The address to listen on (0.0.0.0 or :: serves other machines too, with a warning)
    #[arg(long, value_name = "ADDR", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    bind: IpAddr,

    /// A name requests may be addressed to besides this machine's own (localhost, the
    /// loopback addresses, the address bound to, and on a wildcard bind any IP address):
    /// the machine's name on the network, or a proxy's. Repeatable. Any other name in a
    /// request's Host is refused, so that a page elsewhere that points its own name at
    /// this machine gets nothing
    #[arg(long, value_name = "NAME", value_parser = kalah_serve::host_name)]
    allow_host: Vec<String>,

    /// Seconds a client may take to send a request's line and headers before its
    /// connection is closed (hidden: for tests)
    #[arg(long, value_name = "SECONDS", hide = true,
          default_value_t = kalah_serve::HEADER_READ_TIMEOUT.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    header_timeout: u64,

    /// Seconds a client may take to send a request's body once its headers are in before
    /// it is answered 408 and its connection closed (hidden: for tests)
    #[arg(long, value_name = "SECONDS", hide = true,
          default_value_t = kalah_serve::BODY_READ_TIMEOUT.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    body_timeout: u64,

    /// Connections served at once (hidden: for tests)
    #[arg(long, value_name = "N", hide = true, default_value_t = kalah_serve::MAX_CONNECTIONS as u16,
          value_parser = clap::value_parser!(u16).range(1..))]
    max_connections: u16,

    /// Open the page in the default browser once the server listens
    #[arg(long)]
    open: bool,

    /// Analyses running at once (a page runs one, for the position it shows); a new one
    /// beyond this cancels the oldest. Database builds count: one each, however many
    /// analyses wait for it
    #[arg(long, value_name = "N", default_value_t = 2,
          value_parser = clap::value_parser!(u16).range(1..=64))]
    max_analyses: u16,

    #[command(flatten)]
    solver: SolverArgs,
}

/// Runs `kalah serve` until Ctrl-C (or SIGTERM).
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    // Where a family is solved by retrograde analysis (Oware, Ethiopian), the search's
    // options it has none of (`--hash-mb`, `--egdb-seeds`, `--deepening`) are dropped: the
    // board serves every family from one command line, so these options apply to the
    // families that search; the page's user cannot change the server's command line and
    // is never told to.
    let configure = |overrides: Overrides| -> Arc<kalah_serve::Configure> {
        Arc::new(move |game, seeds, solves| {
            let overrides = overrides.for_family(game.rules().family);
            overrides
                .config(game, seeds, solves)
                .map_err(|e| override_error(e).to_string())
        })
    };
    let options = kalah_serve::Options {
        addr: SocketAddr::new(args.bind, args.port),
        allow_hosts: args.allow_host.clone(),
        header_timeout: Duration::from_secs(args.header_timeout),
        body_timeout: Duration::from_secs(args.body_timeout),
        max_connections: args.max_connections.into(),
        open: args.open,
        max_analyses: args.max_analyses as usize,
        configure: configure(args.solver.options().overrides),
        // The analysis's solver is kept per rules, so a file is loaded once, whatever
        // the budget of each request: the cap of an analysis without a time limit.
        configure_analysis: configure(args.solver.options().overrides.for_analysis(None)),
    };
    Ok(kalah_serve::run(&options, out)?)
}
