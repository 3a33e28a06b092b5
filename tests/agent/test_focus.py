"""Whether a question asks for a list."""

from __future__ import annotations

import pytest

from engine.agent.focus import asks_for_list


@pytest.mark.parametrize(("question", "expected"), [
    ("Which four vulnerabilities does the staff assess?", True),
    ("Around which core functional areas do the Reserve Banks structure their budgets?", True),
    ("What practices does the proposal suggest?", True),
    ("What is the largest dataset used?", False),
    ("How many checks were processed?", False),
    ("What were Disney's total assets at December 28, 2024?", False),  # a possessive phrase is not a list
])
def test_asks_for_list(question, expected):
    assert asks_for_list(question) is expected
