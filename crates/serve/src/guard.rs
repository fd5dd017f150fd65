//! Who may start an analysis: a request of the board's own page, which carries the token
//! the server made at start-up (other sites cannot read the page, so they cannot send
//! it), and no request that says it comes from another site or from no origin at all.
//! And whom the server answers at all: a request addressed (its `Host`) to one of the
//! names of [`Hosts`], so that a page elsewhere that points its own name at this machine
//! (DNS rebinding) gets neither the page nor its token.
//!
//! A browser sends no `Origin` on a same-origin `GET` (the page's event stream), and
//! any page may send a request without one: the token is what tells the board's page
//! from the rest. Reading results across sites is already impossible; this keeps other
//! sites from spending the machine's processors.

use std::hash::BuildHasher;
use std::net::{IpAddr, Ipv6Addr};

use axum::http::HeaderMap;

/// The query parameter that carries the token (the page's event stream cannot send
/// headers).
pub const TOKEN_PARAM: &str = "token";

/// The header that carries the token (the page's other requests).
pub const TOKEN_HEADER: &str = "x-kalah-token";

/// Where the page's copy of the token goes in `index.html`.
pub const TOKEN_SLOT: &str = "{{token}}";

/// A fresh token: 128 bits from the standard library's randomly keyed hasher (its keys
/// come from the operating system's random source), in hexadecimal.
pub fn new_token() -> String {
    let keys = std::collections::hash_map::RandomState::new();
    format!("{:016x}{:016x}", keys.hash_one(1u8), keys.hash_one(2u8))
}

/// Equal, in a time that does not depend on where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0, |d, (x, y)| d | (x ^ y)) == 0
}

/// Why a request may not start an analysis, if it may not: its `Origin` is `null`,
/// `Sec-Fetch-Site` says another site, or it lacks the token `token` (sent as
/// [`TOKEN_PARAM`], `given`, or in the [`TOKEN_HEADER`] header). An `Origin` of another
/// site was refused before (every request). `home` is the board's address for the
/// message.
pub fn refuse_analysis(
    headers: &HeaderMap,
    given: Option<&str>,
    token: &str,
    home: &str,
) -> Option<String> {
    let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    if text("origin").is_some_and(|o| o.trim().eq_ignore_ascii_case("null")) {
        return Some(format!(
            "analyses are not started for a page with no origin (Origin: null: a sandboxed \
             frame, a local file, a redirect): open the board at {home}"
        ));
    }
    if let Some(site) = text("sec-fetch-site") {
        if !["same-origin", "none"].contains(&site.trim()) {
            return Some(format!(
                "analyses are not started for another site (Sec-Fetch-Site: {site}): open \
                 the board at {home}"
            ));
        }
    }
    let sent = given.or_else(|| text(TOKEN_HEADER));
    match sent {
        Some(sent) if same(sent.trim(), token) => None,
        _ => Some(format!(
            "an analysis needs the token of the board's page (the `{TOKEN_PARAM}` parameter \
             or the X-Kalah-Token header), which this request {}: open the board at {home} \
             (reload a page opened before the server restarted)",
            if sent.is_some() {
                "gets wrong"
            } else {
                "lacks"
            }
        )),
    }
}

/// The names a request may be addressed to (its `Host`, without the port): `localhost`,
/// a loopback address (`127.x.x.x`, `[::1]`), the address the server is bound to, any IP
/// address where that is a wildcard (`0.0.0.0`, `::`: the machine's addresses are not
/// listed, and an address cannot be rebound to another site's name), and the names given
/// (`--allow-host`). A name of another site is refused whatever address it resolves to.
/// The port is not compared: a forwarded port (`ssh -L 9000:localhost:8080`) changes it,
/// and a rebinding page keeps it.
#[derive(Clone, Debug)]
pub struct Hosts {
    /// The address the server listens on.
    bound: IpAddr,
    /// The names given, in lower case.
    names: Vec<String>,
}

impl Hosts {
    /// The names of a server bound to `bound`, with `names` (host names or addresses,
    /// checked by [`host_name`]) allowed as well.
    pub fn new(bound: IpAddr, names: &[String]) -> Hosts {
        Hosts {
            bound,
            names: names.iter().map(|n| n.to_ascii_lowercase()).collect(),
        }
    }

    /// True where `host` (a `Host` header or a request's authority, with or without a
    /// port) is one of these names.
    pub fn allows(&self, host: &str) -> bool {
        let name = name_of(host).to_ascii_lowercase();
        if name == "localhost" || self.names.contains(&name) {
            return true;
        }
        match ip_of(&name) {
            Some(ip) => ip.is_loopback() || ip == self.bound || self.bound.is_unspecified(),
            None => false,
        }
    }

    /// The names allowed, in words, for a refusal: "localhost or 127.0.0.1" on a
    /// loopback address.
    pub fn describe(&self) -> String {
        let mut names = self.names.clone();
        if self.bound.is_unspecified() {
            names.push("an IP address of this machine".to_string());
        } else if !self.bound.is_loopback() {
            names.push(match self.bound {
                IpAddr::V6(ip) => format!("[{ip}]"),
                IpAddr::V4(ip) => ip.to_string(),
            });
        }
        names.push("localhost".to_string());
        let last = "127.0.0.1";
        format!("{} or {last}", names.join(", "))
    }
}

/// The name of a `Host` value: without a port (`:` and digits at the end).
fn name_of(host: &str) -> &str {
    match host.trim().rsplit_once(':') {
        Some((name, port))
            if !name.is_empty()
                && port.bytes().all(|b| b.is_ascii_digit())
                && (!name.contains(':') || name.ends_with(']')) =>
        {
            name
        }
        _ => host.trim(),
    }
}

/// The IP address a host name writes: `1.2.3.4` or `[::1]`.
fn ip_of(name: &str) -> Option<IpAddr> {
    if let Some(v6) = name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
        return v6.parse::<Ipv6Addr>().ok().map(IpAddr::V6);
    }
    name.parse::<std::net::Ipv4Addr>().ok().map(IpAddr::V4)
}

/// A name for `--allow-host`: a host name (letters, digits, `-` and `.`) or an IP
/// address (IPv6 in brackets or not), without a scheme, port or path; in lower case.
pub fn host_name(text: &str) -> Result<String, String> {
    let name = text.trim().to_ascii_lowercase();
    if let Ok(ip) = name.parse::<Ipv6Addr>() {
        return Ok(format!("[{ip}]"));
    }
    if ip_of(&name).is_some() {
        return Ok(name);
    }
    let label_ok = |l: &str| {
        !l.is_empty()
            && l.len() <= 63
            && l.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    };
    if name.len() <= 253 && name.split('.').all(label_ok) {
        return Ok(name);
    }
    Err(format!(
        "`{text}` is not a host name: give a name such as board.example.org or an address \
         such as 192.168.1.5, without a scheme, port or path"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in pairs {
            map.insert(*k, HeaderValue::from_static(v));
        }
        map
    }

    #[test]
    fn tokens_are_fresh_and_long() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }

    #[test]
    fn only_the_token_without_another_site_passes() {
        let t = "0123456789abcdef0123456789abcdef";
        let home = "http://127.0.0.1:1/";
        let refused = |h: &HeaderMap, given: Option<&str>| refuse_analysis(h, given, t, home);
        assert_eq!(refused(&headers(&[]), Some(t)), None);
        assert_eq!(refused(&headers(&[(TOKEN_HEADER, t)]), None), None);
        assert_eq!(
            refused(&headers(&[("sec-fetch-site", "same-origin")]), Some(t)),
            None
        );
        assert!(refused(&headers(&[]), None).unwrap().contains("lacks"));
        assert!(refused(&headers(&[]), Some("0123"))
            .unwrap()
            .contains("wrong"));
        let wrong = "1123456789abcdef0123456789abcdef";
        assert!(refused(&headers(&[(TOKEN_HEADER, wrong)]), None).is_some());
        assert!(refused(&headers(&[("origin", "null")]), Some(t))
            .unwrap()
            .contains("Origin: null"));
        assert!(
            refused(&headers(&[("sec-fetch-site", "cross-site")]), Some(t))
                .unwrap()
                .contains("another site")
        );
    }

    #[test]
    fn hosts_allow_this_machines_names_and_the_names_given() {
        let loopback = Hosts::new("127.0.0.1".parse().unwrap(), &[]);
        for host in [
            "127.0.0.1:8080",
            "localhost:1",
            "LOCALHOST",
            "[::1]:80",
            "127.9.9.9",
        ] {
            assert!(loopback.allows(host), "{host}");
        }
        for host in [
            "evil.com:8080",
            "evil.com",
            "10.0.0.1:8080",
            "",
            "127.0.0.1.evil.com",
        ] {
            assert!(!loopback.allows(host), "{host}");
        }
        assert_eq!(loopback.describe(), "localhost or 127.0.0.1");

        let wildcard = Hosts::new("0.0.0.0".parse().unwrap(), &["board.lan".to_string()]);
        for host in [
            "192.168.1.5:8080",
            "[fe80::1]:8080",
            "localhost",
            "Board.LAN:8080",
        ] {
            assert!(wildcard.allows(host), "{host}");
        }
        for host in [
            "evil.com:8080",
            "board.lan.evil.com",
            "192.168.1.5.nip.io:8080",
        ] {
            assert!(!wildcard.allows(host), "{host}");
        }
        assert!(wildcard.describe().contains("board.lan"));

        let one = Hosts::new("10.0.0.5".parse().unwrap(), &[]);
        assert!(one.allows("10.0.0.5:8080") && one.allows("localhost:8080"));
        assert!(!one.allows("10.0.0.6:8080") && !one.allows("evil.com:8080"));
        assert_eq!(one.describe(), "10.0.0.5, localhost or 127.0.0.1");
    }

    #[test]
    fn allow_host_takes_names_and_addresses_only() {
        assert_eq!(host_name("Board.example.org").unwrap(), "board.example.org");
        assert_eq!(host_name("192.168.1.5").unwrap(), "192.168.1.5");
        assert_eq!(host_name("::1").unwrap(), "[::1]");
        assert_eq!(host_name("[fe80::1]").unwrap(), "[fe80::1]");
        for bad in ["http://board", "board:8080", "board/x", "", "a..b", "*"] {
            assert!(host_name(bad).is_err(), "{bad}");
        }
    }
}
