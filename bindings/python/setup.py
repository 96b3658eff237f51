"""Builds the tca wheel, carrying libtca.so when there is one to carry.

pyproject.toml holds the metadata; this file only decides what goes into the wheel:
- `TCA_WHEEL_LIBRARY=/path/to/libtca.so.0` (what `make wheel` sets): that library, stripped,
  becomes `tca/libtca.so.0`, and the wheel is tagged for this platform (py3-none-linux_*);
- unset, inside the libtca repository: the library `make lib` built (build/lib/libtca.so.0);
- unset, with no library to carry: the build stops with one line saying what to run, unless
  `TCA_WHEEL_LIBRARY=system` asks for a pure-Python wheel that loads an installed libtca.
An editable install (`pip install -e`, what `make venv` does) never copies the library.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1
    from wheel.bdist_wheel import bdist_wheel  # type: ignore[no-redef]

HERE = Path(__file__).resolve().parent
REPOSITORY_LIBRARY = HERE.parent.parent / "build" / "lib" / "libtca.so.0"
HINT = (
    "tca: no libtca.so to put in the package: run `make lib` (or `make wheel`) at the root of the "
    "libtca repository first, or set TCA_WHEEL_LIBRARY=/path/to/libtca.so.0 "
    "(TCA_WHEEL_LIBRARY=system: use an installed libtca)"
)


def library_to_bundle() -> Path | None:
    """The library the wheel carries, None for a pure-Python wheel; SystemExit with HINT when
    there is none and none was asked for."""
    chosen = os.environ.get("TCA_WHEEL_LIBRARY", "")
    if chosen == "system":
        return None
    if chosen:
        path = Path(chosen)
        if not path.is_file():
            raise SystemExit(f"tca: TCA_WHEEL_LIBRARY={chosen} is not a file")
        return path
    if REPOSITORY_LIBRARY.is_file():
        return REPOSITORY_LIBRARY
    raise SystemExit(HINT)


class BuildPy(build_py):
    """Copies the library into the built package (never into the source tree)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        library = library_to_bundle()
        if library is None:
            return
        target = Path(self.build_lib) / "tca" / "libtca.so.0"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(library, target)
        # NB: the library carries its symbol tables (~half its size); the wheel needs none.
        strip = shutil.which("strip")
        if strip:
            subprocess.run([strip, "--strip-unneeded", str(target)], check=False)
        os.chmod(target, 0o755)


class BinaryDistribution(Distribution):
    def has_ext_modules(self) -> bool:
        # NB: the wheel holds a native library: tag it for this platform, not "any".
        return os.environ.get("TCA_WHEEL_LIBRARY") != "system"


class BdistWheel(bdist_wheel):
    def get_tag(self) -> tuple[str, str, str]:
        python, abi, platform = super().get_tag()
        if self.distribution.has_ext_modules():
            # ctypes, not the C API of Python: any Python 3 on this platform loads it.
            return "py3", "none", platform
        return python, abi, platform


setup(
    distclass=BinaryDistribution,
    cmdclass={"build_py": BuildPy, "bdist_wheel": BdistWheel},
)
