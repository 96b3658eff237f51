"""The package as a user installs it (issue 14 item 2): the wheel `make wheel` builds carries
libtca and works in a fresh virtual environment away from the repository, with neither
TCA_LIBRARY nor LD_LIBRARY_PATH set; without a library, builds and imports say what to do."""

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent
REPOSITORY = PACKAGE.parent.parent
WHEELS = REPOSITORY / "build" / "wheel"

DRIVE_THE_COUNTER = textwrap.dedent(
    """
    import json, tca
    with tca.Store("counter") as store:
        store.send("incrementButtonTapped")
        store.send("incrementButtonTapped")
        print(json.dumps({"path": tca.library_path(), "count": store.state["count"]}))
    """
)


def clean_env(**extra):
    """The environment of a user's shell: no variable that points at a library or at the
    repository."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TCA_", "PYTHON"))}
    env.pop("LD_LIBRARY_PATH", None)
    env.update(extra)
    return env


def run(args, cwd, **extra):
    return subprocess.run(
        [str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=300,
        env=clean_env(**extra),
    )


def away_from_the_repository(tmp_path):
    assert REPOSITORY not in tmp_path.resolve().parents
    return tmp_path


def test_the_wheel_installs_into_a_fresh_venv_and_drives_the_counter(tmp_path):
    wheels = sorted(WHEELS.glob("tca-*-py3-none-linux_*.whl"))
    if not wheels:
        message = f"no wheel in {WHEELS}: `make wheel` builds it (`make test-python` does)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    place = away_from_the_repository(tmp_path)
    venv = place / "venv"
    made = run([sys.executable, "-m", "venv", venv], place)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    installed = run(
        [python, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps", wheels[-1]], place
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr

    result = run([python, "-c", DRIVE_THE_COUNTER], place)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["count"] == 2
    loaded = Path(report["path"]).resolve()
    assert venv.resolve() in loaded.parents, f"loaded {loaded}, not the wheel's copy"
    assert loaded.parent.name == "tca"


def copy_of_the_package(place):
    """bindings/python copied away from the repository, without any library."""
    copy = place / "python"
    shutil.copytree(
        PACKAGE, copy, ignore=shutil.ignore_patterns("*.so*", "*.egg-info", "build", "__pycache__")
    )
    return copy


def test_building_from_source_without_a_library_says_what_to_run(tmp_path):
    pytest.importorskip("setuptools", reason="setuptools is installed by `make venv` (tca[test])")
    copy = copy_of_the_package(away_from_the_repository(tmp_path))
    result = run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--wheel-dir", tmp_path / "out", copy],
        tmp_path,
    )
    assert result.returncode != 0
    output = (result.stdout + result.stderr).splitlines()
    hint = [line for line in output if "run `make lib`" in line]
    assert hint, result.stdout + result.stderr
    assert "TCA_WHEEL_LIBRARY=/path/to/libtca.so.0" in hint[0]
    assert not list(tmp_path.glob("out/*.whl"))


def test_without_a_library_the_import_error_lists_what_it_tried_and_the_fix(tmp_path):
    copy = copy_of_the_package(away_from_the_repository(tmp_path))
    result = run([sys.executable, "-c", "import tca"], tmp_path, PYTHONPATH=str(copy))
    if result.returncode == 0:
        pytest.skip("a libtca is installed on this system: the import found it")
    error = result.stderr.strip().splitlines()
    start = next(i for i, line in enumerate(error) if line.startswith("ImportError"))
    message = "\n".join(error[start:])
    assert message.startswith("ImportError: cannot load libtca. Tried, in order:")
    tried = [line.strip() for line in error[start + 1:] if line.startswith("  ")]
    assert tried[0].startswith(f"{copy / 'tca' / 'libtca.so.0'} (the package's folder)")
    assert tried[1].startswith("libtca.so.0 (the dynamic loader")
    assert any(line.startswith("/usr/local/lib/libtca.so.0 (a standard prefix)") for line in tried)
    assert any(line.startswith("/usr/lib/libtca.so.0 (a standard prefix)") for line in tried)
    assert "build/lib" not in message  # no repository path outside the repository
    assert error[-1].startswith("To fix:") and "TCA_LIBRARY" in error[-1]
    assert "make wheel" in error[-1] and "make install" in error[-1]


def test_an_explicit_tca_library_is_the_only_place_tried(tmp_path):
    copy = copy_of_the_package(away_from_the_repository(tmp_path))
    missing = tmp_path / "nowhere" / "libtca.so.0"
    result = run(
        [sys.executable, "-c", "import tca"],
        tmp_path,
        PYTHONPATH=str(copy),
        TCA_LIBRARY=str(missing),
    )
    assert result.returncode != 0
    error = result.stderr.splitlines()
    start = next(i for i, line in enumerate(error) if line.startswith("ImportError"))
    tried = [line for line in error[start + 1:] if line.startswith("  ")]
    assert tried == [f"  {missing} ($TCA_LIBRARY): not found"]


def test_inside_the_repository_an_editable_install_finds_make_lib(tmp_path):
    built = REPOSITORY / "build" / "lib" / "libtca.so.0"
    if not built.exists():
        pytest.skip("no build/lib/libtca.so.0: `make lib` builds it")
    result = run([sys.executable, "-c", DRIVE_THE_COUNTER], tmp_path, PYTHONPATH=str(PACKAGE))
    assert result.returncode == 0, result.stderr
    assert Path(json.loads(result.stdout)["path"]).resolve() == built.resolve()


def test_a_package_without_a_library_finds_one_in_a_standard_prefix(tmp_path):
    """TCA_WHEEL_LIBRARY=system builds a pure-Python wheel; installed, it loads the libtca of a
    standard prefix (here the venv's own lib/, as `make install PREFIX=$VIRTUAL_ENV` puts it)."""
    pytest.importorskip("setuptools", reason="setuptools is installed by `make venv` (tca[test])")
    built = REPOSITORY / "build" / "lib" / "libtca.so.0"
    if not built.exists():
        pytest.skip("no build/lib/libtca.so.0: `make lib` builds it")
    place = away_from_the_repository(tmp_path)
    copy = copy_of_the_package(place)
    wheel = run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--wheel-dir", place / "out", copy],
        place, TCA_WHEEL_LIBRARY="system",
    )
    assert wheel.returncode == 0, wheel.stdout + wheel.stderr
    (pure,) = (place / "out").glob("tca-*.whl")
    assert pure.name.endswith("-py3-none-any.whl")
    venv = place / "venv"
    assert run([sys.executable, "-m", "venv", venv], place).returncode == 0
    python = venv / "bin" / "python"
    installed = run([python, "-m", "pip", "install", "--quiet", "--no-index", pure], place)
    assert installed.returncode == 0, installed.stderr
    shutil.copyfile(built, venv / "lib" / "libtca.so.0")
    result = run([python, "-c", DRIVE_THE_COUNTER], place)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["count"] == 2
    assert Path(report["path"]) == venv / "lib" / "libtca.so.0"
