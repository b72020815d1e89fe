//! Links the executables at a fixed address on Linux.
//!
//! The hook starts before every tool call, so its start-up is paid thousands of times a day.
//! As a position-independent executable, the dynamic loader rewrites every pointer held in
//! the binary's static tables (about 18,000: rule, program and language tables) at each start,
//! and copies every page those pointers sit on: a third of the instructions and a quarter of
//! the page faults of a run that finds nothing. Linked at a fixed address, the linker writes
//! those pointers once. Shared libraries, the stack and the heap are still placed at random;
//! only this executable's own image is not.
//!
//! Other systems keep their default: macOS and Windows executables load differently. So does
//! a static build (`+crt-static`, the musl targets' default), which has no dynamic loader.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let linux = std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux");
    // A static build has no loader to spare: it relocates itself, and stays as rustc links it.
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let static_build = features.split(',').any(|f| f == "crt-static");
    if linux && !static_build {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
