//! A small synchronous WebDriver (W3C) client for the browser test: exactly the commands it
//! sends to chromedriver, each one HTTP/1.1 request on its own connection with a JSON
//! body, its response read as far as its `Content-Length`. A full client (fantoccini)
//! brought about forty crates and an async runtime into the test build for these few
//! calls.

use std::io::{Read, Write};
use std::net::TcpStream;

use serde_json::{json, Value};

/// The key under which W3C WebDriver returns an element reference.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A WebDriver session: a browser driven through the driver at `driver` (host:port).
pub struct Session {
    driver: String,
    id: String,
}

/// An element of the page, by the reference the driver gave it.
pub struct Element<'a> {
    session: &'a Session,
    id: String,
}

/// Sends one request to the driver at `host` (host:port) and returns the response's
/// `value`, or the driver's error as text.
fn request(host: &str, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut stream = TcpStream::connect(host).map_err(|e| format!("{host}: {e}"))?;
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json; \
         charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream
        .write_all(head.as_bytes())
        .and_then(|()| stream.write_all(body.as_bytes()))
        .map_err(|e| format!("{method} {path}: {e}"))?;
    // chromedriver answers `Connection: close` but keeps the connection open: the body
    // ends where its Content-Length says.
    let failed = |e: std::io::Error| format!("{method} {path}: {e}");
    let mut response = Vec::new();
    let mut buffer = [0; 16384];
    let split = loop {
        if let Some(split) = response.windows(4).position(|w| w == b"\r\n\r\n") {
            break split;
        }
        let n = stream.read(&mut buffer).map_err(failed)?;
        if n == 0 {
            return Err(format!("{method} {path}: a response without a header end"));
        }
        response.extend_from_slice(&buffer[..n]);
    };
    let head = String::from_utf8_lossy(&response[..split]).to_ascii_lowercase();
    let mut content = response[split + 4..].to_vec();
    let length = head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        (name.trim() == "content-length").then(|| value.trim().parse::<usize>().ok())?
    });
    match length {
        Some(length) => {
            while content.len() < length {
                let n = stream.read(&mut buffer).map_err(failed)?;
                if n == 0 {
                    return Err(format!("{method} {path}: the body ends early"));
                }
                content.extend_from_slice(&buffer[..n]);
            }
            content.truncate(length);
        }
        None => {
            stream.read_to_end(&mut content).map_err(failed)?;
            if head.contains("transfer-encoding: chunked") {
                content =
                    dechunk(&content).ok_or_else(|| format!("{method} {path}: bad chunks"))?;
            }
        }
    }
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("{method} {path}: no status"))?;
    let mut json: Value = serde_json::from_slice(&content)
        .map_err(|e| format!("{method} {path}: status {status}, not JSON: {e}"))?;
    let value = json["value"].take();
    if (200..300).contains(&status) {
        Ok(value)
    } else {
        Err(format!(
            "{method} {path}: {} ({})",
            value["error"].as_str().unwrap_or("error"),
            value["message"].as_str().unwrap_or("")
        ))
    }
}

/// The body of a chunked transfer.
fn dechunk(mut data: &[u8]) -> Option<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let line = data.windows(2).position(|w| w == b"\r\n")?;
        let size = std::str::from_utf8(&data[..line]).ok()?;
        let size = usize::from_str_radix(size.split(';').next()?.trim(), 16).ok()?;
        data = &data[line + 2..];
        if size == 0 {
            return Some(body);
        }
        body.extend_from_slice(data.get(..size)?);
        data = data.get(size + 2..)?;
    }
}

/// Standard base64 (as WebDriver sends screenshots), padding and line breaks allowed.
fn base64_decode(text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let (mut bits, mut count) = (0u32, 0);
    for byte in text
        .bytes()
        .filter(|b| !b.is_ascii_whitespace() && *b != b'=')
    {
        let sextet = match byte {
            b'A'..=b'Z' => byte - b'A',
            b'a'..=b'z' => byte - b'a' + 26,
            b'0'..=b'9' => byte - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return Err(format!("{:?} is not base64", byte as char)),
        };
        bits = bits << 6 | u32::from(sextet);
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
        }
    }
    Ok(out)
}

impl Session {
    /// Starts a session through the driver at `url` (`http://host:port`) with
    /// `capabilities` (W3C `alwaysMatch`).
    pub fn start(url: &str, capabilities: Value) -> Result<Session, String> {
        let driver = url.trim_start_matches("http://").trim_end_matches('/');
        let body = json!({ "capabilities": { "alwaysMatch": capabilities } });
        let value = request(driver, "POST", "/session", Some(&body))?;
        let id = value["sessionId"]
            .as_str()
            .ok_or("a new session without an id")?;
        Ok(Session {
            driver: driver.to_string(),
            id: id.to_string(),
        })
    }

    /// A command of this session: `path` is relative to the session's.
    fn command(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
        let path = format!("/session/{}{path}", self.id);
        request(&self.driver, method, &path, body)
    }

    /// Loads `url` in the window.
    pub fn goto(&self, url: &str) -> Result<(), String> {
        self.command("POST", "/url", Some(&json!({ "url": url })))
            .map(drop)
    }

    /// The window's address.
    pub fn current_url(&self) -> Result<String, String> {
        let value = self.command("GET", "/url", None)?;
        value
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| value.to_string())
    }

    /// The first element matching `css`.
    pub fn find(&self, css: &str) -> Result<Element<'_>, String> {
        let body = json!({ "using": "css selector", "value": css });
        let value = self.command("POST", "/element", Some(&body))?;
        self.element(&value)
    }

    /// Every element matching `css`, in document order.
    pub fn find_all(&self, css: &str) -> Result<Vec<Element<'_>>, String> {
        let body = json!({ "using": "css selector", "value": css });
        let value = self.command("POST", "/elements", Some(&body))?;
        value
            .as_array()
            .ok_or_else(|| value.to_string())?
            .iter()
            .map(|e| self.element(e))
            .collect()
    }

    /// The element a reference names.
    fn element(&self, reference: &Value) -> Result<Element<'_>, String> {
        let id = reference[ELEMENT_KEY]
            .as_str()
            .ok_or_else(|| format!("{reference} is not an element"))?;
        Ok(Element {
            session: self,
            id: id.to_string(),
        })
    }

    /// A PNG of the window.
    pub fn screenshot(&self) -> Result<Vec<u8>, String> {
        let value = self.command("GET", "/screenshot", None)?;
        base64_decode(value.as_str().ok_or("a screenshot that is not text")?)
    }

    /// Ends the session, closing the browser.
    pub fn close(self) -> Result<(), String> {
        self.command("DELETE", "", None).map(drop)
    }
}

impl Element<'_> {
    /// A command on this element: `path` is relative to the element's.
    fn command(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
        let path = format!("/element/{}{path}", self.id);
        self.session.command(method, &path, body)
    }

    /// Clicks the element.
    pub fn click(&self) -> Result<(), String> {
        self.command("POST", "/click", Some(&json!({}))).map(drop)
    }

    /// The element's rendered text.
    pub fn text(&self) -> Result<String, String> {
        let value = self.command("GET", "/text", None)?;
        value
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| value.to_string())
    }

    /// The element's attribute `name`, `None` when it has none.
    pub fn attr(&self, name: &str) -> Result<Option<String>, String> {
        let value = self.command("GET", &format!("/attribute/{name}"), None)?;
        Ok(value.as_str().map(str::to_string))
    }

    /// The element's DOM property `name` as text, `None` when it is unset or not text.
    pub fn prop(&self, name: &str) -> Result<Option<String>, String> {
        let value = self.command("GET", &format!("/property/{name}"), None)?;
        Ok(value.as_str().map(str::to_string))
    }

    /// Empties an input field.
    pub fn clear(&self) -> Result<(), String> {
        self.command("POST", "/clear", Some(&json!({}))).map(drop)
    }

    /// Types `text` into the element.
    pub fn send_keys(&self, text: &str) -> Result<(), String> {
        self.command("POST", "/value", Some(&json!({ "text": text })))
            .map(drop)
    }

    /// Chooses the option of this `<select>` whose value is `value`, by clicking it.
    pub fn select_by_value(&self, value: &str) -> Result<(), String> {
        let body = json!({ "using": "css selector", "value": format!("option[value='{value}']") });
        let option = self.command("POST", "/element", Some(&body))?;
        self.session.element(&option)?.click()
    }
}

#[cfg(test)]
mod tests {
    use super::{base64_decode, dechunk};

    #[test]
    fn base64_decodes_with_and_without_padding() {
        assert_eq!(base64_decode("iVBORw==").unwrap(), b"\x89PNG");
        assert_eq!(base64_decode("aGVsbG8").unwrap(), b"hello");
        assert_eq!(base64_decode("+/8=").unwrap(), [0xfb, 0xff]);
        assert!(base64_decode("a*b").is_err());
    }

    #[test]
    fn chunks_join_into_the_body() {
        assert_eq!(
            dechunk(b"3\r\nabc\r\n2;x\r\nde\r\n0\r\n\r\n").unwrap(),
            b"abcde"
        );
        assert!(dechunk(b"5\r\nab").is_none());
    }
}
