"""An installed copy works anywhere: the wheel carries the rulesets, the schemas and the LICENSE,
and `couillon` runs from a fresh virtualenv and from a `pip install --user`, outside the checkout.

One wheel is built per run (pip, ~15 s); installs use --no-deps and --no-index, and the
dependencies come from the test environment through a `.pth` file (so nothing is downloaded
but the build backend, and the checkout itself is never on the path).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from couillon_dsl.builtin import builtin_names

ROOT = Path(__file__).resolve().parents[1]
BASE_PYTHON = getattr(sys, "_base_executable", sys.executable)


def run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    """Run a command that must succeed; its standard output."""
    done = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={**os.environ, **(env or {})})
    assert done.returncode == 0, f"{args}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel built from a copy of what the package is made of: setuptools writes `build/` into the
    tree it builds, so test processes building at once from the checkout would trip over each other."""
    out = tmp_path_factory.mktemp("wheel")
    source = out / "source"
    shutil.copytree(ROOT / "couillon_dsl", source / "couillon_dsl", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", out, source, cwd=out)
    [built] = out.glob("couillon_dsl-*.whl")
    return built


def dependencies_pth(site_packages: Path) -> None:
    """Make this environment's dependencies importable there, without this checkout."""
    site_packages.mkdir(parents=True, exist_ok=True)
    (site_packages / "test-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")


def check_commands(couillon: list[str | Path], cwd: Path, env: dict[str, str] | None = None) -> None:
    """The commands a newcomer types first, run from an installed copy."""
    listed = run(*couillon, "rulesets", cwd=cwd, env=env)
    assert [line.split()[0] for line in listed.splitlines()] == builtin_names()
    assert str(ROOT) not in listed  # the installed copy's files, not the checkout's
    assert run(*couillon, "validate", "couillon", "mit", cwd=cwd, env=env).count(": ok") == 2
    assert "Couillon" in run(*couillon, "explain", "couillon", cwd=cwd, env=env)
    # the Python engine: a fresh install would first compile the kernel, a minute the checkout's tests already spend
    report = run(*couillon, "simulate", "mit", "--games", "20", "--workers", "1", "--engine", "python", "--format", "json",
                 cwd=cwd, env=env)
    assert '"games": 20' in report


def test_the_wheel_carries_the_package_data(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {f"couillon_dsl/rulesets/{name}.yaml" for name in builtin_names()} <= names
    assert {"couillon_dsl/schemas/ruleset.schema.json", "couillon_dsl/schemas/variant.schema.json"} <= names
    license_file = next(n for n in names if n.endswith("/LICENSE"))
    assert "MIT License" in zipfile.ZipFile(wheel).read(license_file).decode()
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("/METADATA"))).decode()
    assert "License-Expression: MIT" in metadata


def test_the_wheel_works_in_a_fresh_virtualenv(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "env"
    run(BASE_PYTHON, "-m", "venv", "--without-pip", env_dir, cwd=tmp_path)
    python = env_dir / "bin" / "python"
    purelib = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=tmp_path).strip())
    dependencies_pth(purelib)
    run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", "--no-index", wheel, cwd=tmp_path)
    check_commands([env_dir / "bin" / "couillon"], tmp_path)


def test_a_user_install_finds_the_builtin_rulesets(wheel: Path, tmp_path: Path) -> None:
    env = {"PYTHONUSERBASE": str(tmp_path / "userbase")}
    user_site = Path(run(BASE_PYTHON, "-c", "import site; print(site.getusersitepackages())", cwd=tmp_path, env=env).strip())
    dependencies_pth(user_site)
    run(BASE_PYTHON, "-m", "pip", "install", "-q", "--user", "--no-deps", "--no-index", "--no-warn-script-location",
        wheel, cwd=tmp_path, env=env)
    check_commands([BASE_PYTHON, "-m", "couillon_dsl"], tmp_path, env)
