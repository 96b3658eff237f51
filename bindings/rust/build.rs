//! Links libtca: from TCA_LIB_DIR if set, else the tree's build/lib (what `make lib` makes).
use std::env;
use std::path::PathBuf;

fn main() {
    let dir = match env::var("TCA_LIB_DIR") {
        Ok(dir) => PathBuf::from(dir),
        Err(_) => PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap()).join("../../build/lib"),
    };
    let dir = dir.canonicalize().unwrap_or(dir);
    println!("cargo:rerun-if-env-changed=TCA_LIB_DIR");
    println!("cargo:rustc-link-search=native={}", dir.display());
    println!("cargo:rustc-link-lib=dylib=tca");
    // NB: tests and examples find the library where it was linked, with no LD_LIBRARY_PATH.
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.display());
}
