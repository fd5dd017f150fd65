//! Who may start an analysis: a request of the board's own page, which carries the token
//! the server made at start-up (other sites cannot read the page, so they cannot send
//! it), and no request that says it comes from another site or from no origin at all.
//!
//! A browser sends no `Origin` on a same-origin `GET` (the page's event stream), and
//! any page may send a request without one: the token is what tells the board's page
//! from the rest. Reading results across sites is already impossible; this keeps other
//! sites from spending the machine's processors.

use std::hash::BuildHasher;

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
}
