"""One app server for the whole session, shared by the browser tests and the fault tests;
the suite's split over pytest-xdist workers (`-n auto --dist loadfile`, pyproject.toml)."""

from __future__ import annotations

import os

# One BLAS thread per process, set before NumPy loads (the workers and the servers they start
# inherit it): the suite already runs a process per core, and OpenBLAS's threads spin while
# they wait for a core, so two of them per process made the decoder's tests 2.5 to 4 times
# slower under the suite's load (tests/core/pretrained/test_smollm.py, docs/architecture.md).
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import tempfile  # noqa: E402

# The class store's SQLite file (attn_class): a folder of this run's own, never the data/ of
# a maintainer's checkout; the app servers the tests start inherit it.
os.environ.setdefault("ATTN_DATA_DIR", tempfile.mkdtemp(prefix="attn-data-"))
os.chmod(os.environ["ATTN_DATA_DIR"], 0o755)  # `make class`'s PostgreSQL (user postgres) in it

import functools  # noqa: E402

import pytest  # noqa: E402
from streamlit.components.v2 import manifest_scanner  # noqa: E402

from tests.support.browser import ROOT  # noqa: E402
from tests.support.server import serving  # noqa: E402

LOGS = ROOT / "artifacts" / "logs"

# --- AppTest's own cost (docs/architecture.md "Where the time goes") ---------------------
# Every new AppTest scans the metadata of every installed package for Streamlit components
# (a server does it once, at its start): about 25 ms a test. The installed packages do not
# change during a run, so the tests' process scans once.
manifest_scanner.scan_component_manifests = functools.cache(
    manifest_scanner.scan_component_manifests
)


@pytest.fixture(scope="session")
def app_url():
    """`python serve.py app.py` on a free loopback port; its log is kept for a look."""
    LOGS.mkdir(parents=True, exist_ok=True)
    with serving(log_dir=LOGS) as (url, _):
        yield url


# The order files are handed out in (`--dist loadfile`: a worker takes the next file when it
# is free): the longest first, then the other browser and fault files (6 to 45 s each under
# the suite), then the other files of 5 s or more, then the rest (most under 2 s), which
# share out the end. With the browser files last, one worker started a 26 s file when the
# other had 1 s left; with the worksheets' 16 s file among the rest, one worker ran it alone
# for the run's last 18 s (2026-11-28).
LONGEST = (
    "tests/e2e/test_accessibility.py",
    "tests/e2e/test_languages.py",
    "tests/faults/test_failover.py",
)
LONG = ("tests/e2e/", "tests/faults/")
# the files of 5 s or more outside them (summed test times of one run, -n 2, 2026-11-28)
LONGER = (
    "tests/app/test_bad_sentences.py",  # 37 s
    "tests/test_worksheets.py",  # 16 s
    "tests/app/test_generate.py",  # 14 s
    "tests/core/pretrained/test_smollm.py",  # 14 s
    "tests/app/test_decoder_worker.py",  # 9 s
    "tests/core/pretrained/test_batching.py",  # 6 s
    "tests/store/test_store_concurrency.py",  # 5 s
)
MAX_WORKERS = 4  # each worker starts its own app server and browser: about 1.5 GB


def pytest_xdist_auto_num_workers(config):
    """`-n auto`: one worker per core, at most MAX_WORKERS."""
    return max(1, min(MAX_WORKERS, len(os.sched_getaffinity(0))))


def pytest_collection_modifyitems(config, items):
    """`--dist loadfile` hands each file to one worker (its module fixtures are computed
    once) in this order: the longest files first, then the long ones, the longer of the
    others, then the rest."""

    def rank(item) -> int:
        path = item.nodeid.split("::")[0]
        if path in LONGEST:
            return 0
        return 1 if path.startswith(LONG) else 2 if path in LONGER else 3

    items.sort(key=rank)  # stable: within a rank, files keep the collection's order
