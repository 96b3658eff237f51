//! Links libtca, from the first of these folders that holds `libtca.so`: TCA_LIB_DIR if set (and
//! then only it), this tree's build/lib (what `make lib` makes), pkg-config's `tca` libdir, the
//! system's /usr/local/lib and /usr/lib. Without one, the build stops and says where it looked and
//! what to set. The folder is the rpath of this crate's tests and examples, and reaches the build
//! scripts of crates that depend on this one as DEP_TCA_LIB_DIR (docs/rust.md).
use std::env;
use std::path::{Path, PathBuf};
use std::process::{self, Command};

const SYSTEM: [&str; 2] = ["/usr/local/lib", "/usr/lib"];

/// pkg-config's libdir for tca, or why there is none.
fn pkg_config() -> Result<PathBuf, String> {
    let output = Command::new("pkg-config")
        .args(["--variable=libdir", "tca"])
        .output()
        .map_err(|_| "pkg-config is not installed".to_string())?;
    let dir = String::from_utf8_lossy(&output.stdout).trim().to_string();
    if !output.status.success() || dir.is_empty() {
        return Err("pkg-config knows no tca (no tca.pc on PKG_CONFIG_PATH)".to_string());
    }
    Ok(PathBuf::from(dir))
}

fn holds_library(dir: &Path) -> bool {
    dir.join("libtca.so").exists()
}

fn main() {
    println!("cargo:rerun-if-env-changed=TCA_LIB_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    let found = match env::var_os("TCA_LIB_DIR") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            if !holds_library(&dir) {
                eprintln!(
                    "libtca not found: TCA_LIB_DIR={} holds no libtca.so. Set TCA_LIB_DIR to \
                     the folder that holds libtca.so (the libtca tree's build/lib after `make \
                     lib`, or PREFIX/lib after `make install`), or unset it to search the usual \
                     places.",
                    dir.display()
                );
                process::exit(1);
            }
            dir
        }
        None => {
            let manifest =
                env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from).unwrap_or_default();
            let tree = manifest.join("../../build/lib");
            let mut looked =
                vec![format!("{} (this tree's build/lib, made by `make lib`)", tree.display())];
            let mut candidates = vec![tree];
            match pkg_config() {
                Ok(dir) => {
                    looked.push(format!("{} (pkg-config's libdir for tca)", dir.display()));
                    candidates.push(dir);
                }
                Err(why) => looked.push(format!("pkg-config: {}", why)),
            }
            for dir in SYSTEM {
                looked.push(dir.to_string());
                candidates.push(PathBuf::from(dir));
            }
            match candidates.into_iter().find(|dir| holds_library(dir)) {
                Some(dir) => dir,
                None => {
                    eprintln!("libtca not found: no libtca.so in");
                    for place in looked {
                        eprintln!("  {}", place);
                    }
                    eprintln!(
                        "Build it with `make lib` at the top of the libtca tree, or install it \
                         (`make install PREFIX=…`), or set TCA_LIB_DIR to the folder that holds \
                         libtca.so."
                    );
                    process::exit(1);
                }
            }
        }
    };
    let dir = found.canonicalize().unwrap_or(found);
    println!("cargo:rustc-link-search=native={}", dir.display());
    println!("cargo:rustc-link-lib=dylib=tca");
    // NB: tests and examples find the library where it was linked, with no LD_LIBRARY_PATH.
    // Crates that depend on this one get the folder as DEP_TCA_LIB_DIR (links = "tca").
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.display());
    println!("cargo:lib_dir={}", dir.display());
}
