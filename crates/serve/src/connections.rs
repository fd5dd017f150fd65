//! How the server takes connections and reads requests, so that no client can hold it:
//! at most `max` connections at once, a deadline for every request's head (hyper's
//! timer) and another for its body once the head is in, a body over [`MAX_BODY`] refused
//! as soon as its declared length says so, and at most a quarter of the connections
//! reading a body at once, so that stalled bodies cannot take every connection.
//!
//! The design (docs/serve.md, "Connections"): a request is whole within
//! `header_timeout + body_timeout` of the moment the server waits for it, or it is
//! answered 408 (a body late) or its connection closed (a head late). A client that
//! sends a head and then stalls its body holds one *body slot* for at most
//! `body_timeout`; with every body slot taken, a further request with a body is answered
//! 503 at once and its connection closed, so at least three quarters of the connections
//! stay for requests that are whole (a `GET`, a body that comes with its head) and a
//! normal request is answered while stalled ones are held. Every refusal here closes the
//! connection (`Connection: close`): its unread body is never read.

use std::sync::Arc;
use std::time::Duration;

use axum::body::{to_bytes, Body};
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;
use tokio::sync::Semaphore;

use super::{ApiError, MAX_BODY};

/// How the server takes connections: at most `max` at once, each with a deadline for
/// every request's head (`header_timeout`) and body (`body_timeout`, counted from the
/// end of the head), at most `max_bodies` of them reading a body at once.
pub(crate) struct Connections {
    pub header_timeout: Duration,
    pub body_timeout: Duration,
    pub max: usize,
    pub max_bodies: usize,
}

/// The bodies being read: the slots left and the deadline of each.
#[derive(Clone)]
struct Bodies {
    slots: Arc<Semaphore>,
    timeout: Duration,
}

impl Connections {
    /// The connections of a server allowing `max` connections at once: a quarter of
    /// them (at least one) may be reading a body at once.
    pub fn new(header_timeout: Duration, body_timeout: Duration, max: usize) -> Connections {
        let max = max.max(1);
        Connections {
            header_timeout,
            body_timeout,
            max,
            max_bodies: (max / 4).max(1),
        }
    }

    /// Serves `app` on the connections `listener` takes until `stop` resolves, then
    /// closes each connection after its answer in progress (if any) and returns once
    /// every one is closed. HTTP/1.1 by hyper with a timer, which axum's `serve` does not
    /// set (so its header timeout never runs); each request's body is read whole (within
    /// its deadline and size) before `app` sees it.
    pub async fn serve(
        &self,
        listener: tokio::net::TcpListener,
        app: Router,
        stop: impl std::future::Future<Output = ()>,
    ) {
        let bodies = Bodies {
            slots: Arc::new(Semaphore::new(self.max_bodies.max(1))),
            timeout: self.body_timeout,
        };
        let app = app.layer(middleware::from_fn_with_state(bodies, read_body));
        let slots = Arc::new(Semaphore::new(self.max));
        let (closing, closed) = tokio::sync::watch::channel(());
        let mut stop = std::pin::pin!(stop);
        loop {
            // A slot first: beyond the limit, connections wait in the socket's queue.
            let slot = tokio::select! {
                slot = slots.clone().acquire_owned() => slot.expect("the semaphore stays open"),
                () = &mut stop => break,
            };
            let stream = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok((stream, _)) => stream,
                    // Out of file descriptors, say: wait a little rather than spin.
                    Err(_) => {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        continue;
                    }
                },
                () = &mut stop => break,
            };
            let _ = stream.set_nodelay(true);
            let service = hyper_util::service::TowerToHyperService::new(app.clone());
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(self.header_timeout);
            let mut closed = closed.clone();
            tokio::spawn(async move {
                let _slot = slot;
                let io = hyper_util::rt::TokioIo::new(stream);
                let mut connection = std::pin::pin!(builder.serve_connection(io, service));
                tokio::select! {
                    _ = connection.as_mut() => return,
                    _ = closed.changed() => connection.as_mut().graceful_shutdown(),
                }
                let _ = connection.await;
            });
        }
        drop(listener);
        let _ = closing.send(());
        // Every slot back: every connection closed.
        let _ = slots.acquire_many(self.max as u32).await;
    }
}

/// Reads a request's body whole before the routes see it: refused with 413 at once when
/// its declared length is over [`MAX_BODY`], 503 when every body slot is taken, 408 when
/// it is not in within the deadline, 413 when more than [`MAX_BODY`] bytes come (or the
/// body is cut short). A request without a body passes untouched.
async fn read_body(State(bodies): State<Bodies>, request: Request, next: Next) -> Response {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if let Some(length) = declared.filter(|&n| n > MAX_BODY as u64) {
        return closing(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the body is larger than {MAX_BODY} bytes ({length} declared)"),
        );
    }
    if axum::body::HttpBody::size_hint(request.body()).exact() == Some(0) {
        return next.run(request).await;
    }
    let Ok(slot) = bodies.slots.clone().try_acquire_owned() else {
        return closing(
            StatusCode::SERVICE_UNAVAILABLE,
            "too many requests are sending their bodies at once: try again".to_string(),
        );
    };
    let (parts, body) = request.into_parts();
    let bytes = match tokio::time::timeout(bodies.timeout, to_bytes(body, MAX_BODY)).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(_)) => {
            return closing(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the body is larger than {MAX_BODY} bytes, or was cut short"),
            )
        }
        Err(_) => {
            return closing(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the body did not come whole within {} s of the request's head",
                    bodies.timeout.as_secs_f64()
                ),
            )
        }
    };
    drop(slot);
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// An error answer after which the connection is closed (its body is left unread).
fn closing(status: StatusCode, message: String) -> Response {
    let mut response = ApiError(status, message).into_response();
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

#[cfg(test)]
mod tests;
