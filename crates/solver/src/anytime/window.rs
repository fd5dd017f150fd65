//! Aspiration windows at the root, written once for every kernel: a root turn is searched
//! first with a narrow window around its evaluation of the depth before, and again with a
//! wider one only where the value falls outside, so that its evaluation is a value, not
//! a bound, at little more than the cost of a null window where the guess holds.

/// What a windowed search of one root turn returns: a fail-soft value, and whatever else
/// the kernel keeps of it (the cyclic search: a proven interval beside the value).
pub(crate) trait Windowed: Copy {
    /// The heuristic value (a bound where it falls outside the window searched).
    fn value(&self) -> i32;

    /// This result joined with `earlier`, a result of an earlier window on the same
    /// turn at the same depth: its value, with what both say beside it.
    fn join(self, earlier: Self) -> Self;
}

/// Searches one root turn with `search(alpha, beta)` (its fail-soft result, `None` where a
/// limit stopped it): first with the window `guess - half..guess + half` (the whole range
/// `-inf..inf` without a guess); where the value falls below or above it, again with the
/// window open on that side, and from the third try on with the whole range. The tries'
/// results are joined ([`Windowed::join`]); the last one's value lies inside its window.
pub(crate) fn aspirate<S: Windowed>(
    guess: Option<i32>,
    half: i32,
    inf: i32,
    mut search: impl FnMut(i32, i32) -> Option<S>,
) -> Option<S> {
    let mut window = match guess {
        None => (-inf, inf),
        Some(g) => (g - half, g + half),
    };
    let mut known: Option<S> = None;
    for attempt in 0.. {
        let s = search(window.0, window.1)?;
        let s = match known {
            Some(earlier) => s.join(earlier),
            None => s,
        };
        known = Some(s);
        let v = s.value();
        let (low, high) = (
            v <= window.0 && window.0 > -inf,
            v >= window.1 && window.1 < inf,
        );
        window = match (low, high) {
            (false, false) => return Some(s),
            _ if attempt >= 2 => (-inf, inf),
            (true, _) => (-inf, v + 1),
            (false, true) => (v - 1, inf),
        };
    }
    known
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Windowed for i32 {
        fn value(&self) -> i32 {
            *self
        }
        fn join(self, _earlier: i32) -> i32 {
            self
        }
    }

    #[test]
    fn a_guess_that_holds_costs_one_search_and_one_that_fails_widens_on_its_side() {
        let mut windows = Vec::new();
        let v = aspirate(Some(10), 2, 1000, |a, b| {
            windows.push((a, b));
            Some(11)
        });
        assert_eq!((v, windows), (Some(11), vec![(8, 12)]));
        let mut windows = Vec::new();
        let v = aspirate(Some(10), 2, 1000, |a, b| {
            windows.push((a, b));
            Some(20i32.clamp(a, b))
        });
        assert_eq!((v, windows), (Some(20), vec![(8, 12), (11, 1000)]));
        let mut windows = Vec::new();
        let v = aspirate(None, 2, 1000, |a, b| {
            windows.push((a, b));
            Some(-3)
        });
        assert_eq!((v, windows), (Some(-3), vec![(-1000, 1000)]));
    }
}
