"""pytest configuration: `slow` marks the real-model tests (check-mirage
runs them; check-mirage-quick passes -m "not slow")."""

import numpy as np
import pytest


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: real models at full depth (seconds to minutes)")


@pytest.fixture
def rng():
    return np.random.default_rng(7)


def rel_error(out, ref):
    """Largest error over the largest reference magnitude."""
    ref = np.asarray(ref, dtype=np.float64)
    return float(np.abs(np.asarray(out) - ref).max() / max(np.abs(ref).max(), 1e-300))
