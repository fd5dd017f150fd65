//! The pie rule's decision (docs/rules.md §3.6): after a first move worth `v` to the
//! player who made it, the second player swaps exactly when `v > 0`, and on a tie keeps
//! the sides ([`decide`]). The rule over every first move is the `pie` task's.

/// What the second player does with the pie offer after a first move of value `value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieDecision {
    /// The value of the position after the first move, for the player who made it.
    pub value: i32,
    /// True when the second player takes over the first player's side.
    pub swap: bool,
    /// The final margin of the first player with the rule: `-|value|`.
    pub first_player: i32,
    /// How much more the second player gets by deciding this way than the other way:
    /// `2 |value|` (0 on a tie).
    pub advantage: i32,
}

/// The second player's choice after a first move worth `value_for_maker` to the player who
/// made it: swap exactly when it is positive (on a tie, keep the sides).
pub fn decide(value_for_maker: i32) -> PieDecision {
    let swap = value_for_maker > 0;
    PieDecision {
        value: value_for_maker,
        swap,
        first_player: -value_for_maker.abs(),
        advantage: 2 * value_for_maker.abs(),
    }
}
