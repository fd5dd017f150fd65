//! The integration tests of kalah-core, one module a file, in one test binary: linked once
//! rather than once a file (see the top-level `tests/all.rs`).

mod bao_common;
mod common;
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

/// Every test file beside this one is a module of this binary: with `autotests = false`,
/// a file left out here would never be compiled nor run.
#[test]
fn every_test_file_is_a_module_of_this_binary() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let root = include_str!("all.rs");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if let Some(module) = name.strip_suffix(".rs").filter(|m| *m != "all") {
            assert!(
                root.contains(&format!("\nmod {module};\n")),
                "tests/{name} is not declared in tests/all.rs"
            );
        }
    }
}
