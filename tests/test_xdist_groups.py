"""Under `pytest -n --dist loadgroup` (the README's test command), a module marked with an
xdist_group runs on one worker: its costly shared fixture (the corpus score, the hostile cases,
the rendered examples, the Dask cluster, Chromium) is made once, not once per worker.

pytest-xdist tells its scheduler the group through a suffix of the node id ("...@group"); with
pytest 9.2 the suffix is lost (pytest-dev/pytest-xdist#1386) and every grouped module silently
ran on both workers: the dev corpus was scored twice at once (80 s each). pyproject.toml keeps
pytest below 9.2 until xdist follows; this test fails if a version pair loses groups again.
"""

from __future__ import annotations

import os

import pytest

pytestmark = pytest.mark.xdist_group("test_xdist_groups")


def test_a_grouped_test_reaches_the_scheduler_with_its_group(
    request: pytest.FixtureRequest,
) -> None:
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        pytest.skip("not run by pytest -n: no workers, no groups")
    if not request.config.getvalue("loadgroup"):
        pytest.skip("run without --dist loadgroup")
    assert request.node.nodeid.endswith("@test_xdist_groups"), request.node.nodeid
