//! A `kalah serve` started for a test, a plain HTTP/1.1 client (so that tests can send
//! anything, bad requests included), a reader of server-sent events, and the command-line
//! answers the server's are checked against.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

use super::cli;
pub use cli::kalah;

/// A running `kalah serve --port 0`, stopped when dropped.
pub struct Server {
    pub child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// `http://127.0.0.1:PORT/`.
    pub url: String,
    /// The token the page carries (an analysis needs it), read from the page.
    pub token: String,
}

impl Server {
    /// Starts the server on a free port with `extra` options, no database cache and no
    /// database directory (the tests see the same solver on every machine), and reads the
    /// address it prints.
    pub fn start(extra: &[&str]) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_kalah"));
        command.env("KALAH_CACHE", "off");
        Server::spawn(command, extra)
    }

    /// Starts `command` (`kalah` with its environment) as `kalah serve --port 0 --quiet`
    /// with `extra` options and no database directory, and reads the address it prints
    /// and the page's token.
    pub fn spawn(mut command: Command, extra: &[&str]) -> Server {
        let mut child = command
            .env_remove("KALAH_EGDB_PATH")
            .args(["serve", "--port", "0", "--quiet"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("kalah serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout is piped"))
            .read_line(&mut line)
            .expect("kalah serve prints its address");
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        let addr = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string();
        let mut server = Server {
            child,
            addr,
            url,
            token: String::new(),
        };
        let page = String::from_utf8_lossy(&server.get("/").body).into_owned();
        server.token = page
            .split_once(r#"<meta name="kalah-token" content=""#)
            .and_then(|(_, rest)| rest.split_once('"'))
            .map(|(token, _)| token.to_string())
            .unwrap_or_else(|| panic!("no token in the page: {page}"));
        server
    }

    /// Sends one request as the page does (with the token) and reads the whole answer.
    pub fn request(&self, method: &str, path: &str, kind: Option<&str>, body: &[u8]) -> Answer {
        let host = self.addr.clone();
        let mut headers = vec![("Host", host.as_str()), ("X-Kalah-Token", &self.token)];
        if let Some(kind) = kind {
            headers.push(("Content-Type", kind));
        }
        self.request_with(method, path, &headers, body)
    }

    /// Sends one request with exactly these headers (and `Content-Length`).
    pub fn request_with(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Answer {
        let mut stream = self.connect();
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n",
            body.len()
        );
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("\r\n");
        stream
            .write_all(head.as_bytes())
            .expect("the request is sent");
        // The server may answer (413) before it reads a long body; a reset then is fine.
        let _ = stream.write_all(body);
        let mut raw = Vec::new();
        let _ = stream.read_to_end(&mut raw);
        Answer::parse(&raw)
    }

    pub fn get(&self, path: &str) -> Answer {
        self.request("GET", path, None, b"")
    }

    pub fn post_json(&self, path: &str, body: &str) -> Answer {
        self.request("POST", path, Some("application/json"), body.as_bytes())
    }

    /// A connection to the server.
    pub fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(&self.addr).expect("the server accepts connections");
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .expect("a read timeout can be set");
        stream
    }

    /// Opens `/api/analyse?query` (with the page's token, as the page does) and returns
    /// the open stream of its events.
    pub fn analyse(&self, query: &str) -> Events {
        self.analyse_at("/api/analyse", query)
    }

    /// Opens the event stream `path?query` (with the page's token, as the page does).
    pub fn analyse_at(&self, path: &str, query: &str) -> Events {
        let mut stream = self.connect();
        let sep = if query.is_empty() { "" } else { "&" };
        write!(
            stream,
            "GET {path}?{query}{sep}token={} HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
            self.token, self.addr
        )
        .expect("the request is sent");
        let mut reader = BufReader::new(stream);
        let mut status = String::new();
        reader.read_line(&mut status).expect("a status line");
        assert!(status.contains(" 200 "), "{path}?{query}: {status}");
        let mut chunked = false;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).expect("a header line");
            if line.trim().is_empty() {
                break;
            }
            let lower = line.to_ascii_lowercase();
            assert!(
                !lower.starts_with("content-type:") || lower.contains("text/event-stream"),
                "{line}"
            );
            chunked |= lower.starts_with("transfer-encoding:") && lower.contains("chunked");
        }
        Events {
            reader,
            chunked,
            text: String::new(),
        }
    }

    /// Every event of the analysis of `query`, up to `done` or `error`.
    pub fn analysis(&self, query: &str) -> Vec<(String, Value)> {
        self.analysis_at("/api/analyse", query)
    }

    /// Every event of the stream `path?query`, up to `done` or `error`.
    pub fn analysis_at(&self, path: &str, query: &str) -> Vec<(String, Value)> {
        let mut events = self.analyse_at(path, query);
        let mut all = Vec::new();
        while let Some((name, data)) = events.next_event() {
            let last = name == "done" || name == "error";
            all.push((name, data));
            if last {
                break;
            }
        }
        all
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP answer.
pub struct Answer {
    pub status: u16,
    pub headers: String,
    pub body: Vec<u8>,
}

impl Answer {
    fn parse(raw: &[u8]) -> Answer {
        let split = raw
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .unwrap_or_else(|| panic!("no header end in {:?}", String::from_utf8_lossy(raw)));
        let headers = String::from_utf8_lossy(&raw[..split]).into_owned();
        let status = headers
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .expect("a status code");
        let mut body = raw[split + 4..].to_vec();
        if headers
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            body = dechunk(&body);
        }
        Answer {
            status,
            headers,
            body,
        }
    }

    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "not JSON ({e}): {} {}",
                self.status,
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    /// The value of a header (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case(name).then(|| v.trim().to_string())
        })
    }
}

/// The body of a chunked transfer.
fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(end) = data.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size = usize::from_str_radix(String::from_utf8_lossy(&data[..end]).trim(), 16)
            .expect("a chunk size");
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&data[end + 2..end + 2 + size]);
        data = &data[end + 2 + size + 2..];
    }
}

/// The events of an open analysis stream.
pub struct Events {
    reader: BufReader<TcpStream>,
    chunked: bool,
    text: String,
}

impl Events {
    /// The next event (its name and JSON data; keep-alive comments skipped), or `None`
    /// when the stream ends.
    pub fn next_event(&mut self) -> Option<(String, Value)> {
        loop {
            if let Some(end) = self.text.find("\n\n") {
                let block: String = self.text.drain(..end + 2).collect();
                let mut name = "message".to_string();
                let mut data = String::new();
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("event:") {
                        name = v.trim().to_string();
                    } else if let Some(v) = line.strip_prefix("data:") {
                        data.push_str(v.trim_start());
                    }
                }
                if data.is_empty() {
                    continue; // a comment (keep-alive)
                }
                let value = serde_json::from_str(&data).expect("event data is JSON");
                return Some((name, value));
            }
            let more = self.read_more()?;
            self.text.push_str(&more);
        }
    }

    fn read_more(&mut self) -> Option<String> {
        if !self.chunked {
            let mut line = String::new();
            return match self.reader.read_line(&mut line) {
                Ok(0) | Err(_) => None,
                Ok(_) => Some(line),
            };
        }
        let mut size = String::new();
        if self.reader.read_line(&mut size).ok()? == 0 {
            return None;
        }
        let size = usize::from_str_radix(size.trim(), 16).ok()?;
        if size == 0 {
            return None;
        }
        let mut chunk = vec![0; size + 2];
        self.reader.read_exact(&mut chunk).ok()?;
        chunk.truncate(size);
        Some(String::from_utf8(chunk).expect("events are UTF-8"))
    }
}

/// The JSON `kalah` prints with `args` (and `--json --quiet`).
pub fn kalah_json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["--json", "--quiet"]);
    cli::json(&all)
}

/// Percent-encodes a query value.
pub fn encode(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
