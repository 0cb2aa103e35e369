"""Shared helpers of the environment tests."""

import warnings

import numpy as np
import pytest

import cardsim.envs  # noqa: F401  (registers the environments)


@pytest.fixture(autouse=True)
def _quiet_gym_warnings():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", module="gymnasium")
        warnings.filterwarnings("ignore", category=UserWarning)
        yield
