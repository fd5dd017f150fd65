//! The integration tests of kalah-analysis, one module a file, in one test binary: linked
//! once rather than once a file (see the top-level `tests/all.rs`).

/// The check below, shared by the crates' test binaries.
#[path = "../../../tests/support/declared.rs"]
mod declared;
/// The fuzzing helpers of kalah-core's tests.
#[path = "../../core/tests/fuzz/mod.rs"]
mod fuzz;

mod atlas;
mod bao_reports;
mod book;
mod distributed;
mod fuzz_wire;
mod outputs;
mod reference;
mod resume_identity;

/// Every test file beside this one is a module of this binary.
#[test]
fn every_test_file_is_a_module_of_this_binary() {
    declared::assert_every_test_file_is_declared(
        env!("CARGO_MANIFEST_DIR"),
        include_str!("all.rs"),
    );
}
