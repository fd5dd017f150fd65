//! The integration tests of kalah-core, one module a file, in one test binary: linked once
//! rather than once a file (see the top-level `tests/all.rs`).

mod bao_common;
mod common;
/// The check below, shared by the crates' test binaries.
#[path = "../../../tests/support/declared.rs"]
mod declared;
mod fuzz;

mod bao_examples;
mod bao_notation;
mod bao_perft_data;
mod bao_reference;
mod bao_stop;
mod cyclic;
mod families;
mod fuzz_notation;
mod invariants;
mod parsers;
mod perft_data;
mod reference;
mod rules;

/// Every test file beside this one is a module of this binary.
#[test]
fn every_test_file_is_a_module_of_this_binary() {
    declared::assert_every_test_file_is_declared(
        env!("CARGO_MANIFEST_DIR"),
        include_str!("all.rs"),
    );
}
