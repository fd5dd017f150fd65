//! The check each crate's one test binary makes of itself: with `autotests = false`, a
//! test file that its `tests/all.rs` does not declare would never be compiled nor run.
//! Shared by the crates' test binaries through `#[path]`.

/// Asserts that every `.rs` file in the `tests` folder of the crate at `manifest_dir`
/// (but `all.rs`) is declared as a module in `root`, the text of that `tests/all.rs`.
pub fn assert_every_test_file_is_declared(manifest_dir: &str, root: &str) {
    let dir = std::path::Path::new(manifest_dir).join("tests");
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
