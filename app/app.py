"""Assembles the workbench: the navbar of pages and, per browser session, the services they share."""

from __future__ import annotations

import threading
from contextlib import asynccontextmanager
from pathlib import Path

from shiny import App, reactive, ui
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Mount, Route

from app.config import AppConfig
from app.images import PageImageCache, PageImageService
from app.pages.chat import chat_server, chat_ui_page
from app.pages.inspect import inspect_server, inspect_ui
from app.pages.library import library_server, library_ui
from app.pages.metadata import metadata_server, metadata_ui
from app.pages.pipeline import pipeline_server, pipeline_ui
from app.pages.settings import settings_server, settings_ui
from app.pages.structure import structure_server, structure_ui
from app.renderer import RenderPool
from app.runner import IngestRunner
from app.security import SecurityMiddleware, SecurityPolicy, shiny_script_hashes
from app.state import Focus, OpenRequest, usable
from app.upload_limit import UploadBudget, UploadLimitMiddleware
from app.uploads import sweep_staging
from app.workspaces import SessionLimitReached, WorkspaceProvider

WWW = Path(__file__).parent / "www"


def app_ui(config: AppConfig):
    return ui.page_navbar(
        ui.nav_panel("Library", library_ui("library", config.max_upload_mb), value="library"),
        ui.nav_panel("Pipeline", pipeline_ui("pipeline"), value="pipeline"),
        ui.nav_panel("Inspect", inspect_ui("inspect"), value="inspect"),
        ui.nav_panel("Metadata", metadata_ui("metadata"), value="metadata"),
        ui.nav_panel("Structure", structure_ui("structure"), value="structure"),
        ui.nav_panel("Chat", chat_ui_page("chat"), value="chat"),
        ui.nav_panel("Settings", settings_ui("settings", config), value="settings"),
        id="nav",
        title="pdfrag",
        window_title="pdfrag workbench",
        fillable=False,
        header=ui.head_content(
            ui.include_css(WWW / "app.css"),
            ui.include_js(WWW / "app.js", method="inline"),
            ui.include_js(WWW / "charts.js", method="link"),  # draws app/charts.py's figures with plotly.js
        ),
    )


def create_app(config: AppConfig | None = None) -> Starlette:
    """The workbench for `config` (default: read from the environment): the Shiny app and the page images."""
    config = config or AppConfig.from_env()
    workspaces = WorkspaceProvider(config.data_dir, config.samples_dir, session_workspaces=config.session_workspaces,
                                   max_sessions=config.max_sessions)
    images = PageImageService(PageImageCache(drawer=RenderPool(timeout=config.render_timeout_s,
                                                               memory_mb=config.render_memory_mb)))
    uploads = UploadBudget(config.max_upload_bytes,
                           config.session_storage_bytes if config.session_workspaces else None)
    workspaces.start()
    sweep_staging()  # uploads a killed server left behind

    def server(input, output, session):
        try:
            space = workspaces.open()
        except SessionLimitReached as full:  # hosted mode: say so, and open nothing for this session
            ui.modal_show(ui.modal(str(full), title="The workbench is full", footer=None))
            return
        account = uploads.open_session(session.id, space.stored_bytes if space.private else None)
        token = images.register()
        images.cache.warm()
        runner = IngestRunner(space.workspace, max_bytes=config.max_upload_bytes)

        def _end() -> None:  # off the event loop: wait for a running ingest to stop, then drop the workspace
            images.revoke(token)
            uploads.close_session(session.id)

            def close() -> None:
                runner.close()
                space.close()

            threading.Thread(target=close, name="pdfrag-session-end", daemon=True).start()

        session.on_ended(_end)

        version = reactive.value(0)
        focus = Focus()

        def corpus_changed() -> None:
            with reactive.isolate():
                version.set(version() + 1)

        @reactive.calc
        def records():
            version()
            return space.workspace.records()

        @reactive.effect
        def _keep_focus_valid():
            recs = records()
            with reactive.isolate():
                current = focus.doc()
            if any(r.doc_id == current for r in recs):
                return
            first = next((r for r in recs if usable(r)), None)
            focus.set(first.doc_id if first else None, 1)

        settings = settings_server("settings", config=config, private_workspace=space.private)
        run_rows = reactive.value[dict[str, str]]({})  # the current run's documents, for the Library's table
        ingest, library_open = library_server(
            "library", space=space, records=records, corpus_changed=corpus_changed,
            sample_files=workspaces.sample_files(), max_upload_bytes=config.max_upload_bytes, uploads=account,
            run_rows=run_rows,
        )
        pipeline_server("pipeline", space=space, runner=runner, records=records, ingest=ingest, settings=settings,
                        corpus_changed=corpus_changed, run_rows=run_rows)
        inspect_server("inspect", space=space, records=records, focus=focus, images=images, token=token)
        metadata_server("metadata", records=records, focus=focus)
        structure_open = structure_server("structure", records=records, focus=focus)
        chat_open = chat_server("chat", space=space, records=records, settings=settings)

        def open_in_inspect(request: reactive.Value[OpenRequest | None]) -> None:
            @reactive.effect
            def _open():
                wanted = request()
                if wanted is None:
                    return
                focus.set(wanted.doc, wanted.page, wanted.highlight)
                ui.update_navset("nav", selected="inspect")

        for request in (library_open, structure_open, chat_open):
            open_in_inspect(request)

    shiny_app = App(app_ui(config), server)
    policy = SecurityPolicy.from_env(script_hashes=shiny_script_hashes(shiny_app), bind_host=config.bind_host)

    @asynccontextmanager
    async def lifespan(_app):
        yield
        images.close()  # the server's end: no render process outlives it

    return Starlette(routes=[Route(PageImageService.route, images.endpoint),
                             Mount("/", app=UploadLimitMiddleware(shiny_app, uploads))], lifespan=lifespan,
                     middleware=[Middleware(SecurityMiddleware, policy=policy)])
