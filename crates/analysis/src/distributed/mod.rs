//! One solve cut into independent work units, and their answers merged back into exact
//! values (docs/distributed.md).
//!
//! [`split`] enumerates the positions a fixed number of turns (or sowings) below a root,
//! merging transpositions, and returns the [`Tree`] above them: every position reached is
//! a [`Node`]; the deepest are the *units*, each solved on its own (by `kalah batch`,
//! anywhere, in any order). A unit is a JSON line ([`Unit`]): its id, its position, the
//! rules and the window `(alpha, beta)` it must be solved in, from South. The full window
//! asks for the exact value; a narrower one only for whether the value lies below, inside
//! or above it.
//!
//! [`Merge`] takes the answers ([`Claim`]s) in any order, duplicates included, checks
//! each (the unit's position, the principal variation replayed to the value; a bound
//! counts only once [`Merge::verify`] has proved it again), and bounds every node by
//! negamax over the tree: South's nodes take the maximum of their children,
//! North's the minimum, a finished game its score, and a unit not answered yet the bounds
//! its seeds allow. Once the units that matter are answered the root and every first move
//! are exact, with principal variations from the root through the tree into the units'
//! own lines; until then [`Merge::needed`] names the units that still matter.
//!
//! [`Merge::hypothesis`] proves a guessed value `v` with far fewer nodes: a node of South
//! is at least `v` when *one* child is, at most `v` when *every* child is (North's the
//! other way round), so only one child of each node needs the harder half of the proof.
//! Each unit is then asked only for the window that decides its part: `(v-1, v+1)` for
//! "exactly `v`" on the line that the guess follows, `(v-1, v)` for "at least `v`", `(v,
//! v+1)` for "at most `v`". When a child chosen to reach `v` turns out not to, the next
//! round chooses another; when the root is shown to lie above or below `v`, the hypothesis
//! is refuted and the bound proved says where to look next.
//!
//! The tree is a graph of positions only where play cannot return to a position, so the
//! families whose positions repeat (solved whole by retrograde analysis) are not split.

mod answers;
pub(crate) mod budget;
pub mod combine;
pub mod cut;
mod files;
mod hypothesis;
mod manifest;
mod merge;
mod report;
mod sample;
mod summary;
mod tree;
mod verify;

pub use crate::game::bounds::Bounds;
pub use crate::wire::answer::Claim;
pub use crate::wire::unit::{Unit, Window};
pub use crate::wire::{read_line, FormatError};
pub use budget::{max_positions, refused, Budget, Growth, TooLarge, MAX_DEPTH, NODE_BYTES};
pub use files::{another_split, write_once, NewDir, Once};
pub use hypothesis::Verdict;
pub use manifest::MAX_MANIFEST;
pub use merge::{FirstMove, Merge, MergeError};
pub use report::{Pie, Report};
pub use sample::{estimated_units, sample, sample_lines, Proof, Sampled};
pub use summary::{SampleSummary, SplitSummary};
pub use tree::{split, split_bounded, Edge, Kind, Node, Shape, SplitError, Step, Tree};
pub use verify::verify_interrupted;
