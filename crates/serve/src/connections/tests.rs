//! The connection limits against a real listener on loopback, talked to in plain
//! HTTP/1.1: what the server answers and whether it closes the connection, never how
//! long it took (the read timeouts only keep a broken server from hanging the test).

use super::*;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::mpsc;

use axum::body::Bytes;
use axum::routing::{get, post};

/// A server of `connections` on a free loopback port, stopped when dropped.
struct Server {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    fn start(connections: Connections) -> Server {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let app = Router::new()
            .route(
                "/echo",
                post(|body: Bytes| async move { body.len().to_string() }),
            )
            .route("/ping", get(|| async { "pong" }));
        let thread = std::thread::spawn(move || {
            runtime.block_on(connections.serve(listener, app, async {
                let _ = stopped.await;
            }));
        });
        Server {
            addr,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// A connection to the server that has sent `head` (with the blank line) and `body`.
    fn send(&self, head: &str, body: &str) -> TcpStream {
        let mut stream = TcpStream::connect(self.addr).unwrap();
        // A guard against a server that never answers, not a measure.
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        stream
            .write_all(format!("{head}\r\n\r\n{body}").as_bytes())
            .unwrap();
        stream
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A `POST /echo` head declaring a body of `length` bytes.
fn post_head(length: u64) -> String {
    format!(
        "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Content-Length: {length}"
    )
}

/// The status line of the answer on `stream` (read up to its line break).
fn status_line(stream: &mut TcpStream) -> String {
    let mut line = Vec::new();
    let mut byte = [0u8];
    while !line.ends_with(b"\r\n") {
        match stream.read(&mut byte) {
            Ok(1) => line.push(byte[0]),
            _ => break,
        }
    }
    String::from_utf8_lossy(&line).trim_end().to_string()
}

/// The whole answer on `stream`, up to the server's closing of the connection: an error
/// (the guard's read timeout) where the server keeps it open.
fn until_closed(stream: &mut TcpStream) -> std::io::Result<String> {
    let mut text = Vec::new();
    stream.read_to_end(&mut text)?;
    Ok(String::from_utf8_lossy(&text).into_owned())
}

#[test]
fn a_declared_length_over_the_limit_is_refused_at_once_and_closed() {
    // Once, `Content-Length: 999999999999` got no 413 and its connection was held.
    let long = Duration::from_secs(3600);
    let server = Server::start(Connections::new(long, long, 8));
    let mut stream = server.send(&post_head(999_999_999_999), "{");
    let answer = until_closed(&mut stream).expect("the connection is closed");
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("(999999999999 declared)"), "{answer}");
}

#[test]
fn a_stalled_body_is_answered_408_and_closed_after_its_deadline() {
    // Once, only the head had a deadline: a body that stopped after `{` held its
    // connection for good.
    let server = Server::start(Connections::new(
        Duration::from_secs(3600),
        Duration::from_millis(200),
        8,
    ));
    let mut stream = server.send(&post_head(100), "{");
    let answer = until_closed(&mut stream).expect("the connection is closed");
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(
        answer.to_ascii_lowercase().contains("connection: close"),
        "{answer}"
    );
    // A whole body is answered as before.
    let mut stream = server.send(&post_head(2), "{}");
    assert_eq!(status_line(&mut stream), "HTTP/1.1 200 OK");
}

#[test]
fn a_normal_request_is_answered_while_stalled_bodies_are_held() {
    // Once, 260 stalled bodies took every connection and a plain GET got no answer.
    let long = Duration::from_secs(3600);
    let connections = Connections::new(long, long, 8);
    assert_eq!(connections.max_bodies, 2);
    let server = Server::start(connections);
    let (said, answers) = mpsc::channel();
    let mut writers = Vec::new();
    for i in 0..10 {
        let mut stream = server.send(&post_head(2), "{");
        writers.push(stream.try_clone().unwrap());
        let said = said.clone();
        std::thread::spawn(move || {
            let _ = said.send((i, status_line(&mut stream)));
        });
    }
    // Beyond the two body slots, each is told at once to try again, and closed.
    let refused: Vec<String> = (0..8).map(|_| answers.recv().unwrap().1).collect();
    for line in &refused {
        assert!(line.starts_with("HTTP/1.1 503"), "{refused:?}");
    }
    // Two are still held, and a plain request is answered meanwhile.
    let mut get = server.send("GET /ping HTTP/1.1\r\nHost: localhost", "");
    assert_eq!(status_line(&mut get), "HTTP/1.1 200 OK");
    // The two held were waiting for their bodies: given them, they are answered.
    for w in &mut writers {
        let _ = w.write_all(b"}");
    }
    let held: Vec<String> = (0..2).map(|_| answers.recv().unwrap().1).collect();
    assert_eq!(held, ["HTTP/1.1 200 OK", "HTTP/1.1 200 OK"]);
}
