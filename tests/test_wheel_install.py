"""The built wheel installs into a fresh virtual environment and `stateledger demo` runs
from it: packaging carries every file the engine needs (models, static pages)."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_wheel_installs_and_the_demo_runs(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(dist), str(ROOT)], check=True, timeout=600,
                   cwd=tmp_path)  # fmt: skip
    (wheel,) = dist.glob("stateledger-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    py = venv / "bin" / "python"
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()"
                           "['purelib'])"], capture_output=True, text=True, check=True
                          ).stdout.strip()  # fmt: skip
    # The dependencies (torch alone is ~750 MB) come from this environment instead of a
    # second download; the fresh venv's own site-packages, where the wheel goes, comes
    # first on sys.path, so stateledger itself is imported from the wheel.
    deps = sysconfig.get_paths()["purelib"]
    Path(site, "zz_test_deps.pth").write_text(deps + "\n")
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                    str(wheel)], check=True, timeout=600)  # fmt: skip
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    where = subprocess.run([str(py), "-c", "import stateledger; print(stateledger.__file__)"],
                           capture_output=True, text=True, check=True, env=env,
                           cwd=tmp_path).stdout.strip()  # fmt: skip
    assert where.startswith(str(venv)), where  # the wheel's copy, not the checkout's
    demo = subprocess.run([str(venv / "bin" / "stateledger"), "demo"], capture_output=True,
                          text=True, timeout=900, env=env, cwd=tmp_path)  # fmt: skip
    assert demo.returncode == 0, demo.stderr[-3000:]
    assert "11/11" in demo.stdout, demo.stdout[-2000:]
