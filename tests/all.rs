//! The integration tests of the `kalah` package, one module a file, in one test binary:
//! linked once rather than once a file, which under the release profile's link-time
//! optimisation took most of the time of `cargo test`. Tests of different files run in
//! one process, so none may depend on a process of its own (the environment, the working
//! directory); the binary under test runs as a child process with its own.

mod support;

mod analyse_cli;
mod analyse_progress_cli;
mod analysis_cli;
mod atlas_cli;
mod bao_analyse_cli;
mod bao_batch_cli;
mod bao_cli;
mod bao_export_cli;
mod book_claims_cli;
mod book_cli;
mod cache_cli;
mod cli;
mod cyclic_cli;
mod distributed_cli;
mod egdb_cli;
mod engine_cli;
mod families_cli;
mod faults;
mod forged_answers;
mod inputs_cli;
mod library;
mod match_cli;
mod options_cli;
mod outputs_cli;
mod oware_db_cli;
mod serve_api;
mod serve_bao;
mod serve_browser;
mod serve_limits;
mod stops_cli;
mod timeuse_cli;
mod timeuse_serve;

/// Every test file beside this one is a module of this binary.
#[test]
fn every_test_file_is_a_module_of_this_binary() {
    support::declared::assert_every_test_file_is_declared(
        env!("CARGO_MANIFEST_DIR"),
        include_str!("all.rs"),
    );
}
