//! The integration tests of kalah-analysis, one module a file, in one test binary: linked
//! once rather than once a file (see the top-level `tests/all.rs`).

/// The fuzzing helpers of kalah-core's tests.
#[path = "../../core/tests/fuzz/mod.rs"]
mod fuzz;

mod distributed;
mod fuzz_wire;
mod reference;

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
