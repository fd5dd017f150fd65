//! The shard of a batch run: `I/N` on the command line, read into `(I, N)` for
//! [`Sharded`](super::Sharded) (the I-th position of the input, then every N-th after it).

/// Reads `I/N` with `1 <= I <= N`; the message says what a shard looks like.
pub fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("'{s}' is not a shard I/N with 1 <= I <= N (e.g. 3/8)");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if i == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shard_is_one_based_and_within_its_count() {
        assert_eq!(parse_shard("3/8"), Ok((3, 8)));
        assert_eq!(parse_shard(" 1 / 1 "), Ok((1, 1)));
        for bad in ["0/4", "5/4", "3", "a/4", "3/b", ""] {
            assert_eq!(
                parse_shard(bad),
                Err(format!(
                    "'{bad}' is not a shard I/N with 1 <= I <= N (e.g. 3/8)"
                ))
            );
        }
    }
}
