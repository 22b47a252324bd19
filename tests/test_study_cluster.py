"""``zrec study --cluster``: the games played by the workers of a Dask cluster give the
same bytes as one process, and what goes wrong is said in words.

The cluster is started with Dask's own commands (tests/dask_cluster.py), on free ports
of this machine: one scheduler and two worker processes (the fixture ``two_workers``).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from dask_cluster import WORKER, scheduler, start, stop, wait_for_workers
from zrec.cli import app
from zrec.research import cluster
from zrec.research.study_runs import GAMES_PER_PIECE

runner = CliRunner()
def study(*args: str) -> Any:
    return runner.invoke(app, ["study", "--quiet", *args])


def outputs(*args: str) -> list[str]:
    """The study's JSON and table."""
    done = []
    for fmt in ("json", "table"):
        result = study(*args, "--format", fmt)
        assert result.exit_code == 0, result.output
        done.append(result.stdout)
    return done


@pytest.mark.parametrize(
    "args",
    [
        # two readings, several pieces of work each, the last cut short
        ["--game", "mosona", "-O", "Jumps=line", "-O", "Jumps=bent", "--seed", "5",
         "--games", str(2 * GAMES_PER_PIECE + 17)],
        # three seats: two shepherd players and the wolves
        ["--game", "awethi", "--seats", "2", "--seed", "3", "--max-plies", "24",
         "--games", str(GAMES_PER_PIECE + 10)],
    ],
    ids=["mosona", "awethi-3-seats"],
)  # fmt: skip
def test_a_cluster_of_two_workers_gives_the_bytes_of_one_process(
    two_workers: str, args: list[str]
) -> None:
    alone = outputs(*args, "--jobs", "1")
    assert outputs(*args, "--cluster", two_workers) == alone
    data = json.loads(alone[0])
    assert [d["games"] for d in data] == [int(args[-1])] * len(data)
    if "awethi" in args:
        assert list(data[0]["scores"]) == ["Shepherd1", "Shepherd2", "Wolves"]


def error(*args: str) -> str:
    result = study("--game", "mosona", "--games", "3", *args)
    assert result.exit_code == 2, result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)
    lines: list[str] = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_an_address_no_scheduler_answers_times_out_in_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1)
    address = f"tcp://127.0.0.1:{free_port()}"
    line = error("--cluster", address)
    assert line.startswith(f"zrec: --cluster {address}: no Dask scheduler answered within 1 s (")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--cluster", "127.0.0.1:8786"], "zrec: --cluster 127.0.0.1:8786: not a Dask "
         "scheduler's address; write tcp://HOST:PORT (as `dask scheduler` prints it)"),
        (["--cluster", "tcp://host:99999"], "not a Dask scheduler's address"),
        (["--cluster", "tcp://127.0.0.1:8786", "--jobs", "2"],
         "zrec: --cluster and --jobs: give one (the cluster's workers play the games)"),
    ],
)  # fmt: skip
def test_a_bad_address_and_jobs_with_a_cluster_are_refused(args: list[str], message: str) -> None:
    assert message in error(*args)


def test_without_dask_the_cluster_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    assert error("--cluster", "tcp://127.0.0.1:8786") == (
        "zrec: --cluster needs Dask's distributed package: install zrec's cluster extra "
        "(pip install '.[cluster]' in the project's folder)"
    )


def test_a_scheduler_without_workers_then_a_worker_without_zrec(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1)
    address, boss = scheduler(tmp_path)
    worker = None
    try:
        assert error("--cluster", address) == (
            f"zrec: --cluster {address}: the scheduler has no worker (waited 1 s); "
            f"start one with `dask worker {address}`"
        )
        # -S: no site-packages' .pth files, so not the editable zrec; Dask from PYTHONPATH
        import distributed

        env = dict(os.environ, PYTHONPATH=str(Path(distributed.__file__).parents[1]))
        worker = start(
            [sys.executable, "-S", *WORKER[1:], address, "--nthreads", "1", "--no-dashboard"],
            tmp_path / "worker.log",
            env,
        )
        wait_for_workers(address, 1)
        line = error("--cluster", address)
        assert line.startswith(f"zrec: --cluster {address}: the worker tcp://127.0.0.1:")
        assert line.endswith(
            " cannot import zrec (No module named 'zrec'); install the same zrec on every "
            "worker's machine"
        )
    finally:
        if worker is not None:
            stop(worker)
        stop(boss)


def test_a_worker_with_another_version_of_zrec(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import distributed

    import zrec

    # a worker whose zrec says it is version 0.0.1: its metadata first on its path
    other = tmp_path / "other"
    (other / "zrec-0.0.1.dist-info").mkdir(parents=True)
    (other / "zrec-0.0.1.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: zrec\nVersion: 0.0.1\n"
    )
    path = [other, Path(zrec.__file__).parents[1], Path(distributed.__file__).parents[1]]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(map(str, path)))
    address, boss = scheduler(tmp_path)
    worker = start(
        [sys.executable, "-S", *WORKER[1:], address, "--nthreads", "1", "--no-dashboard"],
        tmp_path / "worker.log",
        env,
    )
    try:
        wait_for_workers(address, 1)
        line = error("--cluster", address)
        assert line.startswith(f"zrec: --cluster {address}: worker tcp://127.0.0.1:")
        assert line.endswith(
            f" has zrec 0.0.1, this machine zrec {zrec.__version__}; the workers need the "
            "same zrec"
        )
    finally:
        stop(worker)
        stop(boss)


def test_a_study_without_cluster_does_not_import_dask(tmp_path: Path) -> None:
    code = (
        "import sys; from zrec.cli import main\n"
        "sys.argv = ['zrec', 'study', '--game', 'mosona', '--games', '2', '-q', '-o', 'out']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'dask', 'distributed'}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert done.stdout == "[]\n"
    assert (tmp_path / "out").read_text().startswith("reading ")
