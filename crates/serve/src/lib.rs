//! The analysis board behind `kalah serve`: a local web server with one page and a
//! small JSON API over the library calls the command line makes (docs/serve.md).
//!
//! [`run`] serves until Ctrl-C (or SIGTERM) with the [`Options`] a front end read: where
//! to listen, how many analyses at once, and how to configure a solver for a game.
//!
//! axum on tokio: the well-kept server stack with server-sent events and per-route method
//! handling built in; the connections are hyper's HTTP/1.1 ones, taken here (not by
//! `axum::serve`, module `connections`) so that each has a deadline for a request's head
//! and body, and their number, and the number reading a body, is bounded
//! ([`HEADER_READ_TIMEOUT`], [`BODY_READ_TIMEOUT`], [`MAX_CONNECTIONS`]). The solver itself stays
//! synchronous: each analysis runs on a thread of its own (module `analysis`) and the
//! runtime only carries requests and events, on two worker threads. The page's assets
//! are compiled into the binary; no request reads the file system. Database builds count
//! toward the limit of analyses and stop when no analysis wants them (module `work`); an
//! analysis is started only for the board's own page, which carries a token, and every
//! request must be addressed to one of the server's names (module `guard`). Bao la
//! Kujifunza goes through the same endpoints with `rules=bao` (module `bao` reads its
//! parameters and answers in the same vocabulary), with the same limits; the page draws
//! its four rows with a renderer of their own.
#![deny(missing_docs)]

mod analysis;
mod bao;
mod connections;
mod guard;
mod params;
mod work;

use std::collections::HashMap;
use std::io::{self, Write};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::body::{to_bytes, Body};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::sse::{KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use kalah_core::Game;
use kalah_solver::Config;
use serde_json::{json, Value};

pub use self::guard::host_name;

use self::analysis::Analyses;
use self::connections::Connections;
use self::params::BadRequest;
use kalah_analysis::game::{Line, RulesName};

/// The largest request body taken (a position and a move list fit many times over).
const MAX_BODY: usize = 16 * 1024;
/// The longest query string taken.
const MAX_QUERY: usize = 8 * 1024;
/// How long a client may take to send a request's line and headers, from the moment the
/// server waits for them (a new connection, or a kept-alive one after its last answer):
/// a connection that has not sent them whole within it is closed, so half-sent requests
/// cannot hold the server's memory. An open event stream is an answer, not a wait.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a client may take to send a request's body once its head is in: a body not
/// whole within it is answered 408 and its connection closed, so a request is whole
/// within [`HEADER_READ_TIMEOUT`] and this, or it holds nothing (module `connections`).
pub const BODY_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections served at once (a page holds a few): more wait in the system's queue of
/// the listening socket until one closes.
pub const MAX_CONNECTIONS: usize = 256;

/// How a front end configures the solver of a game: `configure(game, seeds, solves)` is
/// the configuration for `solves` solves sharing one solver, of positions with at most
/// `seeds` seeds in the houses; an error is a message for the page.
pub type Configure = dyn Fn(&Game, usize, usize) -> Result<Config, String> + Send + Sync;

/// What the server needs to know.
#[derive(Clone)]
pub struct Options {
    /// The address and port to listen on (port 0: a free one, printed).
    pub addr: SocketAddr,
    /// Names a request may be addressed to besides this machine's own (module `guard`:
    /// `Hosts`), such as the name of a machine bound to every interface.
    pub allow_hosts: Vec<String>,
    /// How long a client may take to send a request's head ([`HEADER_READ_TIMEOUT`]).
    pub header_timeout: Duration,
    /// How long a client may take to send a request's body once its head is in
    /// ([`BODY_READ_TIMEOUT`]).
    pub body_timeout: Duration,
    /// Connections served at once ([`MAX_CONNECTIONS`]); a quarter of them (at least
    /// one) may be reading a body at once, a request with a body beyond that is
    /// answered 503.
    pub max_connections: usize,
    /// Open the page in the default browser once the server listens.
    pub open: bool,
    /// Analyses running at once; a new one beyond this cancels the oldest.
    pub max_analyses: usize,
    /// The solver configuration for a game (the command line's solver options). Each
    /// turn of a position gets one search thread, and `threads` turns are solved at once.
    pub configure: Arc<Configure>,
    /// The configuration for the anytime analysis of a position too large to solve at
    /// once: the same options, with no database built (a build takes longer than the
    /// analysis) and a file already there read where one serves the rules and board.
    pub configure_analysis: Arc<Configure>,
}

/// The state every handler shares.
#[derive(Clone)]
struct App {
    analyses: Arc<Analyses>,
    /// The names requests must be addressed to (see [`limits`]).
    hosts: Arc<guard::Hosts>,
    /// The token an analysis needs (module `guard`), made at start-up.
    token: Arc<str>,
    /// The page, with the token in it.
    page: Arc<str>,
}

/// An error answer: a status and a JSON body `{"error": ...}`.
struct ApiError(StatusCode, String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

impl From<BadRequest> for ApiError {
    fn from(e: BadRequest) -> Self {
        ApiError(StatusCode::BAD_REQUEST, e.0)
    }
}

/// Serves the analysis board until Ctrl-C (or SIGTERM), saying on `out` where it is.
pub fn run(options: &Options, out: &mut dyn Write) -> io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("serve")
        .enable_all()
        .build()?;
    runtime.block_on(serve(options, out))
}

/// Binds, says where, and serves until a stop signal.
async fn serve(options: &Options, out: &mut dyn Write) -> io::Result<()> {
    let addr = options.addr;
    let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("cannot listen on {addr}: {e} (choose another --port, or 0 for a free one)"),
        )
    })?;
    let local = listener.local_addr()?;
    let url = match local.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => format!("http://127.0.0.1:{}/", local.port()),
        IpAddr::V6(ip) if ip.is_unspecified() => format!("http://[::1]:{}/", local.port()),
        IpAddr::V6(ip) => format!("http://[{ip}]:{}/", local.port()),
        IpAddr::V4(ip) => format!("http://{ip}:{}/", local.port()),
    };
    writeln!(
        out,
        "kalah serve: the analysis board is at {url} (Ctrl-C to stop)"
    )?;
    if let Some(lines) = wildcard_notice(local) {
        writeln!(out, "{}", lines[0])?;
        eprintln!("{}", lines[1]);
    }
    out.flush()?;
    if options.open {
        open_browser(&url);
    }
    let analyses = Arc::new(Analyses::new(
        options.configure.clone(),
        options.configure_analysis.clone(),
        options.max_analyses,
    ));
    let token = guard::new_token();
    let app = router(App {
        analyses: analyses.clone(),
        hosts: Arc::new(guard::Hosts::new(local.ip(), &options.allow_hosts)),
        page: INDEX_HTML.replacen(guard::TOKEN_SLOT, &token, 1).into(),
        token: token.into(),
    });
    let stopped = Arc::new(tokio::sync::Notify::new());
    let on_signal = {
        let (stopped, analyses) = (stopped.clone(), analyses.clone());
        async move {
            stop_signal().await;
            eprintln!("kalah serve: stopping (cancelling the analyses)");
            analyses.stop_all();
            stopped.notify_one();
        }
    };
    let connections = Connections::new(
        options.header_timeout,
        options.body_timeout,
        options.max_connections,
    );
    let server = connections.serve(listener, app, on_signal);
    tokio::select! {
        () = server => {}
        // Connections still open a while after the signal (a browser keeping one alive)
        // are dropped.
        () = async { stopped.notified().await; tokio::time::sleep(Duration::from_secs(3)).await } => {}
    }
    // A database build cut short removes its files: the process waits for that.
    if !analyses.wait_builds(BUILD_STOP_WAIT) {
        eprintln!(
            "kalah serve: an endgame database build did not stop within {} s; stopping \
             without it",
            BUILD_STOP_WAIT.as_secs()
        );
    }
    Ok(())
}

/// How long a stopping server waits for its cancelled database builds to end.
const BUILD_STOP_WAIT: Duration = Duration::from_secs(20);

/// For a wildcard address (`0.0.0.0`, `::`): the line that says where the board listens,
/// and the warning that other machines reach it.
fn wildcard_notice(local: SocketAddr) -> Option<[String; 2]> {
    let (ip, port) = (local.ip(), local.port());
    if !ip.is_unspecified() {
        return None;
    }
    let every = match ip {
        IpAddr::V4(_) => "every IPv4 interface of this machine",
        IpAddr::V6(_) => {
            "every interface of this machine (IPv6, and IPv4 where the system maps it)"
        }
    };
    Some([
        format!(
            "kalah serve: listening on {every} ({ip}), port {port}: other machines open \
             http://ADDRESS:{port}/ with an address of this machine (or a name given by \
             --allow-host)"
        ),
        format!(
            "kalah serve: warning: --bind {ip} serves other machines: any machine that \
             reaches port {port} of this one can start analyses and spend its processors \
             and memory (up to --max-analyses at once); bind 127.0.0.1 (the default) to \
             serve this machine only"
        ),
    ])
}

/// The routes, the limits and the JSON error answers.
fn router(app: App) -> Router {
    let wrong_method = || async {
        ApiError(
            StatusCode::METHOD_NOT_ALLOWED,
            "method not allowed here: see docs/serve.md for each endpoint's methods".to_string(),
        )
    };
    Router::new()
        .route("/", get(page))
        .route("/index.html", get(page))
        .route("/app.js", get(|| asset("text/javascript", APP_JS)))
        .route("/app.css", get(|| asset("text/css", APP_CSS)))
        .route("/bao.js", get(|| asset("text/javascript", BAO_JS)))
        .route(
            "/api/options",
            get(|| async { Json(params::options_json()) }).fallback(wrong_method),
        )
        .route(
            "/api/position",
            get(position_get).post(position_post).fallback(wrong_method),
        )
        .route("/api/analyse", get(analyse).fallback(wrong_method))
        .route(
            "/api/work",
            get(|State(app): State<App>| async move { Json(app.analyses.work_json()) })
                .fallback(wrong_method),
        )
        .fallback(|method: Method, uri: Uri| async move {
            ApiError(
                StatusCode::NOT_FOUND,
                format!("no such page: {method} {}", uri.path()),
            )
        })
        .layer(middleware::from_fn_with_state(app.clone(), limits))
        .with_state(app)
}

/// Refuses over-long query strings before any handler reads them, and requests from
/// other sites: the one `Host` must be a name of this server (module `guard`: a page
/// elsewhere that rebinds its own name to this machine's address is refused), and an
/// `Origin`, where the browser sends one, must be this server's own, `http://` and the
/// `Host` (`null` is refused where an analysis would start, module `guard`).
async fn limits(State(app): State<App>, request: Request, next: Next) -> Response {
    let query = request.uri().query().map_or(0, str::len);
    if query > MAX_QUERY {
        return ApiError(
            StatusCode::URI_TOO_LONG,
            format!("the query string is {query} bytes; at most {MAX_QUERY} are taken"),
        )
        .into_response();
    }
    let hosts = request.headers().get_all(header::HOST).iter().count();
    if hosts != 1 {
        return ApiError(
            StatusCode::BAD_REQUEST,
            format!("a request needs exactly one Host header; this one has {hosts}"),
        )
        .into_response();
    }
    let host = header_text(&request, header::HOST);
    // A request line with a whole address (`GET http://NAME/ HTTP/1.1`) names it too.
    let authority = request
        .uri()
        .authority()
        .map(|a| a.as_str().to_ascii_lowercase());
    if let Some(name) = std::iter::once(&host)
        .chain(&authority)
        .find(|name| !app.hosts.allows(name))
    {
        return ApiError(
            StatusCode::FORBIDDEN,
            format!(
                "the server answers requests for {} only, not `{name}` (a name of another \
                 site may point at this machine); kalah serve --allow-host NAME serves \
                 another name",
                app.hosts.describe()
            ),
        )
        .into_response();
    }
    let origin = header_text(&request, header::ORIGIN);
    if !origin.is_empty() && origin != "null" && origin != format!("http://{host}") {
        return ApiError(
            StatusCode::FORBIDDEN,
            format!("requests from other sites are refused (origin `{origin}`): open the board at http://{host}/"),
        )
        .into_response();
    }
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
        ),
    );
    response
}

/// A request header's value in lower case (empty when absent or not text).
fn header_text(request: &Request, name: header::HeaderName) -> String {
    request
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// The page, its script and its style sheet, compiled in.
const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const APP_CSS: &str = include_str!("assets/app.css");
/// The Bao board of the page (shown for the rules `bao`).
const BAO_JS: &str = include_str!("assets/bao.js");

/// The page, with this server's token.
async fn page(State(app): State<App>) -> Response {
    asset("text/html", app.page.to_string()).await
}

/// One embedded asset.
async fn asset(kind: &'static str, body: impl Into<String>) -> Response {
    (
        [
            (header::CONTENT_TYPE, format!("{kind}; charset=utf-8")),
            (header::CACHE_CONTROL, "no-cache".to_string()),
        ],
        body.into(),
    )
        .into_response()
}

/// The parameters of a query string.
fn query_params(uri: &Uri) -> Result<HashMap<String, String>, ApiError> {
    let pairs = axum::extract::Query::<Vec<(String, String)>>::try_from_uri(uri)
        .map_err(|e| ApiError(StatusCode::BAD_REQUEST, format!("bad query string: {e}")))?
        .0;
    let mut map = HashMap::new();
    for (k, v) in pairs {
        if map.insert(k.clone(), v).is_some() {
            return Err(ApiError(
                StatusCode::BAD_REQUEST,
                format!("the parameter `{k}` is given twice"),
            ));
        }
    }
    Ok(map)
}

/// `GET /api/position?...`.
async fn position_get(uri: Uri) -> Result<Json<Value>, ApiError> {
    Ok(Json(position_answer(&query_params(&uri)?)?))
}

/// `POST /api/position` with a JSON object of the parameters.
async fn position_post(headers: HeaderMap, body: Body) -> Result<Json<Value>, ApiError> {
    Ok(Json(position_answer(&json_params(&headers, body).await?)?))
}

/// The answer of `/api/position` for the kind of game the rules name: Bao's four rows
/// (module `bao`) for `rules=bao`, else the sowing game's (module `params`).
fn position_answer(params: &HashMap<String, String>) -> Result<Value, BadRequest> {
    Ok(match set_up(params)? {
        Line::Sowing(line) => params::position_json(&line),
        Line::Bao(setup) => bao::position_json(&setup),
    })
}

/// The request's game set up by the game floor, with the start and the moves played
/// ([`Line::set_up`]): the parameters read as the kind of game the rules name reads them
/// (module `bao` for `rules=bao`, else module `params`).
fn set_up(params: &HashMap<String, String>) -> Result<Line, BadRequest> {
    let (name, (options, position, moves)) = match bao::asked(params) {
        true => (RulesName::Bao, bao::options(params)?),
        false => {
            let read = params::options(params)?;
            (RulesName::Sowing(read.0.preset), read)
        }
    };
    Line::set_up(name, &options, position, moves).map_err(BadRequest::from)
}

/// The parameters of a JSON body: an object whose values are strings, numbers or
/// booleans (`early_stop: true` is `on`).
async fn json_params(headers: &HeaderMap, body: Body) -> Result<HashMap<String, String>, ApiError> {
    let kind = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if !kind.starts_with("application/json") {
        return Err(ApiError(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!("the body must be JSON (Content-Type: application/json), not `{kind}`"),
        ));
    }
    let bytes = to_bytes(body, MAX_BODY).await.map_err(|_| {
        ApiError(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the body is larger than {MAX_BODY} bytes"),
        )
    })?;
    let bad = |msg: String| ApiError(StatusCode::BAD_REQUEST, msg);
    let value: Value = serde_json::from_slice(&bytes)
        .map_err(|e| bad(format!("the body is not valid JSON: {e}")))?;
    let Value::Object(object) = value else {
        return Err(bad(
            "the body must be a JSON object of parameters, such as {\"houses\": 6}".to_string(),
        ));
    };
    object
        .into_iter()
        .filter(|(_, v)| !v.is_null())
        .map(|(k, v)| {
            let text = match v {
                Value::String(s) => s,
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => (if b { "on" } else { "off" }).to_string(),
                other => {
                    return Err(bad(format!(
                        "the parameter `{k}` must be a string, a number or a boolean, not {other}"
                    )))
                }
            };
            Ok((k, text))
        })
        .collect()
}

/// `GET /api/analyse?...`: the server-sent events of one analysis, for a request of the
/// board's page only (module `guard`).
async fn analyse(
    State(app): State<App>,
    headers: HeaderMap,
    uri: Uri,
) -> Result<Response, ApiError> {
    let mut params = query_params(&uri)?;
    let budget = admit_analysis(&app, &headers, &mut params)?;
    let line = match set_up(&params)? {
        Line::Sowing(line) => line,
        Line::Bao(setup) => return bao::analyse(&app, setup.pos, budget),
    };
    let events = app
        .analyses
        .start(line, budget)
        .map_err(|e| ApiError(StatusCode::SERVICE_UNAVAILABLE, e))?;
    Ok(event_stream(events))
}

/// The checks every analysis request passes before it starts anything: the page's token
/// (module `guard`; the `token` parameter, removed from `params`) and the `time` budget
/// (removed too).
fn admit_analysis(
    app: &App,
    headers: &HeaderMap,
    params: &mut HashMap<String, String>,
) -> Result<Duration, ApiError> {
    let given = params.remove(guard::TOKEN_PARAM);
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("localhost");
    let home = format!("http://{host}/");
    if let Some(why) = guard::refuse_analysis(headers, given.as_deref(), &app.token, &home) {
        return Err(ApiError(StatusCode::FORBIDDEN, why));
    }
    let budget = params.remove("time");
    analysis::parse_budget(budget.as_deref()).map_err(|e| ApiError(StatusCode::BAD_REQUEST, e))
}

/// The server-sent events of an analysis, with a keep-alive comment every second: a
/// client that went away is noticed within a second (the write fails), and its analysis
/// is cancelled.
fn event_stream(events: analysis::Events) -> Response {
    let sse = Sse::new(events).keep_alive(KeepAlive::new().interval(Duration::from_secs(1)));
    ([(header::CACHE_CONTROL, "no-cache")], sse).into_response()
}

/// Resolves on Ctrl-C, or SIGTERM where there is one.
async fn stop_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}

/// Opens `url` in the desktop's browser, saying so if that fails.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        eprintln!("kalah serve: could not open a browser ({opener}: {e}); open {url} by hand");
    }
}
