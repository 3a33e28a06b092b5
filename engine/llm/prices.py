"""Prices of the models the gemini provider calls, in one place (US dollars per million tokens).

Thinking tokens are billed as output. Sources, read on 2026-12-01: Gemini 3.8 Flash, the Gemini API pricing
page (ai.google.dev/gemini-api/docs/pricing: $0.75 input, $3.75 output, "through December 31, 2026");
Gemini Embedding, Google's launch post ($0.15 input); Mistral Medium 3.5, its model card on docs.mistral.ai
($1.50 input, $7.50 output). A model missing here is estimated in tokens only.
"""

from __future__ import annotations

PRICES: dict[str, tuple[float, float]] = {  # model -> (input, output) USD per 1M tokens
    "gemini-3.8-flash": (0.75, 3.75),
    "gemini-embedding-001": (0.15, 0.0),
    "mistral-medium-3.5": (1.50, 7.50),
}
PRICES_READ_ON = "2026-12-01"


def cost(model: str, input_tokens: int, output_tokens: int) -> float | None:
    """US dollars for these tokens, or None when the model's price is not known here."""
    price = PRICES.get(model)
    if price is None:
        return None
    return (input_tokens * price[0] + output_tokens * price[1]) / 1_000_000
