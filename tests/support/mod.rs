//! Helpers of the tests: running the binary, waiting without a clock, a board started for
//! a test.

pub mod cli;
pub mod declared;
pub mod guard;
pub mod serve;
pub mod webdriver;
