"""Settings page: provider, API keys for this browser session only, workers, model names, retrieval."""

from __future__ import annotations

from shiny import module, reactive, render, ui

from app.config import AppConfig, available_providers, key_fields
from app.settings_model import OFFLINE_METHODS, METHOD_LABELS, SessionSettings, available_methods, embeddings_setting
from engine.config import Settings

LABELS = {"offline": "Offline (no network, no keys)", "gemini": "Gemini", "mistral": "Mistral"}
OFFLINE_CAN = ("Offline, with no key and nothing sent anywhere, pdfrag reads each PDF's text layer, recovers its "
               "structure from the page layout (and from the PDF's outline or printed contents page when it has one), "
               "fills the metadata from the PDF and text heuristics, and answers questions with sentences quoted from "
               "the pages (extractive answers, each with its page and the quote highlighted). It cannot read scanned "
               "pages (no OCR), write an answer in its own words, or search by meaning (no vectors).")
GEMINI_ADDS = ("Gemini adds: pages read from their images (scans, complex layouts), metadata and contents written by "
               "the model, answering agents that write the answer from the pages they read, and, with "
               "PDFRAG_EMBEDDINGS=gemini, vector search. It needs a GEMINI_API_KEY (here or in the server's "
               "environment); pages and questions are then sent to Google.")


@module.ui
def settings_ui(config: AppConfig):
    providers = available_providers()
    keys = key_fields()
    unavailable = [p for p in ("gemini",) if p not in providers]
    provider_note = (ui.p(f"{', '.join(p.capitalize() for p in unavailable)} is not available in this build of the "
                          "engine; only the offline provider can run.", class_="text-muted small")
                     if unavailable else None)
    key_inputs = [ui.input_password(f"key_{p}", label, placeholder="paste a key for this session", width="100%")
                  for p, label in keys.items()]
    key_card = ui.card(
        ui.card_header("API keys"),
        *key_inputs,
        ui.p("Keys live in this browser session's memory only: they are never written to disk, never shown again "
             "and gone when you close the tab.", class_="text-muted small"),
        ui.input_action_button("check", "Check keys and models", class_="btn-outline-secondary btn-sm"),
        ui.output_ui("check_result"),
    ) if keys else ui.card(
        ui.card_header("API keys"),
        ui.p("No provider in this build needs a key.", class_="text-muted mb-0"),
    )
    model_inputs = [ui.input_text("model", "Gemini model", placeholder="engine default (PDFRAG_GEMINI_MODEL)",
                                  width="100%")
                    ] if keys else []
    default = config.provider if config.provider in providers else "offline"
    return ui.div(
        ui.layout_columns(
            ui.card(
                ui.card_header("Provider"),
                ui.input_radio_buttons("provider", None, {p: LABELS.get(p, p) for p in providers}, selected=default),
                provider_note,
                *model_inputs,
                ui.p(OFFLINE_CAN, class_="small mb-1 pdfrag-offline-note"),
                ui.p(GEMINI_ADDS, class_="small text-muted mb-0 pdfrag-gemini-note") if "gemini" in providers else None,
            ),
            key_card,
            ui.card(
                ui.card_header("Processing"),
                ui.input_numeric("workers", "Documents processed in parallel", value=config.workers, min=1, max=8),
                ui.p(f"Uploads are limited to {config.max_upload_mb} MB per file (PDFRAG_MAX_UPLOAD_MB).",
                     class_="text-muted small"),
                ui.output_ui("workspace_note"),
            ),
            ui.card(
                ui.card_header("Chat retrieval"),
                ui.input_select("method", "Retrieval method", {m: METHOD_LABELS[m] for m in OFFLINE_METHODS},
                                selected="hybrid", width="100%"),
                ui.output_ui("method_note"),
                ui.input_numeric("k", "Pages retrieved per question", value=5, min=1, max=20),
            ),
            col_widths=(6, 6, 6, 6),
        ),
        class_="pdfrag-page",
    )


@module.server
def settings_server(input, output, session, *, config: AppConfig, private_workspace: bool):
    """Returns a reactive calc of this session's SessionSettings."""
    keys = key_fields()

    @render.ui
    def workspace_note():
        if private_workspace:
            return ui.p("This session has a private workspace: your uploads are deleted when you leave.",
                        class_="text-muted small mb-0")
        return ui.p("All sessions of this server share one workspace.", class_="text-muted small mb-0")

    # (ok, lines) of the last check, this session only
    checked: reactive.Value[tuple[bool | None, list[str]] | None] = reactive.value(None)
    env_key = Settings.from_env().gemini_key_set
    embeddings = embeddings_setting()
    in_build = "gemini" in available_providers()

    @reactive.calc
    def methods() -> dict[str, str]:
        session_key = bool(keys) and bool((input["key_gemini"]() or "").strip())
        return available_methods(input.provider() or "offline", gemini_key=env_key or session_key,
                                 embeddings=embeddings, gemini_in_build=in_build)

    @reactive.effect
    def _offer_methods():
        offered = methods()
        with reactive.isolate():
            chosen = input.method()
        ui.update_select("method", choices=offered, selected=chosen if chosen in offered else next(iter(offered)))

    @render.ui
    def method_note():
        offered = methods()
        missing = []
        if "vector" not in offered and input.provider() != "gemini":
            missing.append("vector (needs PDFRAG_EMBEDDINGS=gemini and a Gemini key)" if in_build else "vector")
        if "agent" not in offered:
            missing.append("agent (needs a Gemini key)" if in_build else "agent")
        if input.provider() == "gemini":
            text = "With the Gemini provider, Chat is answered by the answering agents."
        else:
            text = "Not available in this configuration: " + "; ".join(missing) + "." if missing else ""
        return ui.p(text, class_="text-muted small pdfrag-method-note") if text else None

    @reactive.effect
    @reactive.event(input.check)
    async def _check():
        import asyncio

        checked.set((None, ["Checking…"]))
        checked.set(await asyncio.to_thread(check_llm, current()))

    @render.ui
    def check_result():
        result = checked()
        if result is None:
            return ui.p("Every Gemini run starts with this check (one models list per provider); a refused key or "
                        "a model the provider no longer offers stops it before the first page.",
                        class_="text-muted small mb-0 mt-2")
        ok, lines = result
        style = "text-muted" if ok is None else ("text-success" if ok else "text-danger")
        return ui.div(*[ui.p(line, class_=f"{style} small mb-0") for line in lines], class_="mt-2 pdfrag-check")

    @reactive.calc
    def current() -> SessionSettings:
        def number(value, default: int, low: int, high: int) -> int:
            try:
                return max(low, min(high, int(value)))
            except (TypeError, ValueError):
                return default

        provider = input.provider() or "offline"
        api_keys = {}
        for name in keys:
            value = input[f"key_{name}"]() or ""
            if value.strip():
                api_keys[name] = value.strip()
        return SessionSettings(
            provider=provider,
            workers=number(input.workers(), config.workers, 1, 8),
            model=(input.model() or "").strip() if keys else "",
            method=(input.method() if input.method() in methods() else next(iter(methods()))),
            k=number(input.k(), 5, 1, 20),
            api_keys=api_keys,
        )

    return current


def check_llm(settings: SessionSettings) -> tuple[bool, list[str]]:
    """The engine's check of this session's keys and models (what every gemini run does first), as
    (all ok, one line per provider); never raises, never shows a key."""
    from engine.llm.check import check_providers
    from engine.llm.settings import LlmSettings

    try:
        llm = LlmSettings.from_env(gemini_api_key=settings.api_keys.get("gemini"),
                                   mistral_api_key=settings.api_keys.get("mistral"),
                                   gemini_model=settings.model or None)
        report = check_providers(llm)
    except Exception as exc:  # noqa: BLE001 - a bad setting or key, shown to the user, who can fix it
        return False, [f"check failed: {exc}"]
    return report.ok, report.lines() + ([cost_line(llm)] if report.ok else [])


def cost_line(llm) -> str:
    """What a typical document costs with these settings (engine.llm.estimate; `pdfrag ingest --dry-run`
    gives it for given PDFs)."""
    from engine.llm.estimate import estimate_pages
    from engine.llm.prices import PRICES_READ_ON

    typical = estimate_pages("a 100-page report", [500] * 100, False, llm)
    usd = f"about ${typical.usd:.2f}" if typical.usd is not None else "price not known for this model"
    return (f"A 100-page report (500 tokens of text a page) takes about {typical.calls} calls and "
            f"{typical.input_tokens + typical.output_tokens:,} tokens: {usd} (prices read {PRICES_READ_ON}).")
