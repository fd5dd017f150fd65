//! Helpers of the Bao tests: the simple reference implementation.
#![allow(dead_code)]

pub mod reference;
