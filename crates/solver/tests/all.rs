//! The integration tests of kalah-solver, one module a file, in one test binary: linked
//! once rather than once a file (see the top-level `tests/all.rs`). One test reads the
//! process environment (`egdb::an_analysis_reads_the_best_file_already_there_within_its_byte_cap`, through
//! `Overrides::config`), and sets it: no other test here reads it.

/// The check below, shared by the crates' test binaries.
#[path = "../../../tests/support/declared.rs"]
mod declared;
/// The simple reference implementation of the rules (kalah-core's tests).
#[path = "../../core/tests/common/reference.rs"]
#[allow(dead_code)]
mod reference;

#[path = "common/naive.rs"]
mod naive;

mod anytime;
mod anytime_tick;
mod bao_exact;
mod bao_search;
mod bao_stop;
mod cache_leftovers;
mod cancel;
mod cyclic;
mod cyclic_anytime;
mod cyclic_db;
mod cyclic_db_answer;
mod egdb;
mod eval;
mod eval_deep;
mod exact;
mod families;
mod small;

/// Every test file beside this one is a module of this binary.
#[test]
fn every_test_file_is_a_module_of_this_binary() {
    declared::assert_every_test_file_is_declared(
        env!("CARGO_MANIFEST_DIR"),
        include_str!("all.rs"),
    );
}
