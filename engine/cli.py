"""The `pdfrag` command line: ingest, list, show and serve (stdout carries results, stderr logs and progress)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine import logs
from engine.config import ConfigError, Settings, debug_enabled, resolve_provider
from engine.schemas import DocumentRecord, Provider, Status
from engine.workspace import DamagedRecordError, Workspace, json_stamps

log = logging.getLogger(__name__)

WHAT = ("record", "metadata", "markdown", "toc", "structure", "tree", "headings")
VERBOSE_HELP = ("log on stderr each document's stages (doc id, stage, seconds); -vv also each LLM call "
                "(default: $PDFRAG_LOG_LEVEL or warning)")
EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """Bad input from the user: reported on stderr, exit code 2."""


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return int(exc.code or 0)
    if args.command != "serve":  # SIGTERM ends a command like Ctrl-C: one line, and the run resumes later
        signal.signal(signal.SIGTERM, _interrupt)
    try:
        settings = Settings.from_env()
        logs.configure(logs.level_for(args.verbose, settings.log_level))
        workspace = Workspace(Path(args.data_dir) if args.data_dir else settings.data_dir)
        log.debug("%s: workspace %s, provider setting %s, %d worker(s)", args.command, workspace.root,
                  settings.provider, settings.workers)
        return args.handler(args, settings, workspace)
    except (ConfigError, UsageError) as exc:
        _err(str(exc))
        return EXIT_USAGE
    except DamagedRecordError as exc:
        _err(str(exc))
        return EXIT_FAILED
    except KeyboardInterrupt:
        _err("interrupted; run the same command again to resume")
        return 130
    except BrokenPipeError:
        return EXIT_FAILED
    except Exception as exc:  # a bug or an environment problem: one line, the traceback only when asked
        if debug_enabled():
            raise
        log.debug("unexpected error", exc_info=True)
        _err(f"unexpected error: {type(exc).__name__}: {' '.join(str(exc).split())[:300]} "
             "(PDFRAG_DEBUG=1 shows the traceback)")
        return EXIT_FAILED


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--data-dir", metavar="DIR", default=argparse.SUPPRESS,
                        help="workspace folder (default: $PDFRAG_DATA_DIR or ./data/workspace)")
    common.add_argument("-v", "--verbose", action="count", default=argparse.SUPPRESS, help=VERBOSE_HELP)
    parser = argparse.ArgumentParser(
        prog="pdfrag", description="Turn PDFs into page-marked Markdown, metadata, tables of contents and a tree.",
    )
    parser.add_argument("--data-dir", metavar="DIR", default=None,
                        help="workspace folder (also accepted after the command)")
    parser.add_argument("-v", "--verbose", action="count", default=0, help=VERBOSE_HELP)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for register in COMMANDS:
        register(commands, common)
    return parser


def _add_ingest(commands: Any, common: argparse.ArgumentParser) -> None:
    sub = commands.add_parser("ingest", parents=[common], help="add PDFs to the workspace and run every stage")
    sub.add_argument("paths", nargs="+", metavar="PATH", help="PDF files or folders (recursive)")
    sub.add_argument("--provider", choices=("offline", "gemini", "auto"), default=None,
                     help="default: $PDFRAG_PROVIDER or offline")
    sub.add_argument("--workers", type=_positive_int, default=None,
                     help="documents processed in parallel (default: $PDFRAG_WORKERS or min(4, CPUs)); with "
                          "gemini also the pages sent at once (default: $PDFRAG_WORKERS or 4)")
    sub.add_argument("--force", action="store_true", help="rerun every stage even when cached")
    sub.add_argument("--json", action="store_true", help="one JSON object per document on stdout")
    sub.add_argument("--dry-run", action="store_true",
                     help="with gemini: print the calls, tokens and cost a run would take, send and write nothing")
    sub.set_defaults(handler=_ingest)


def _add_list(commands: Any, common: argparse.ArgumentParser) -> None:
    sub = commands.add_parser("list", parents=[common], help="documents in the workspace")
    sub.add_argument("--json", action="store_true", help='{"documents": [...]} on stdout')
    sub.set_defaults(handler=_list)


def _add_show(commands: Any, common: argparse.ArgumentParser) -> None:
    sub = commands.add_parser("show", parents=[common], help="one document's record, Markdown, TOC, tree…")
    sub.add_argument("doc", metavar="DOC", help="doc_id, file name or alias")
    sub.add_argument("--what", choices=WHAT, default="record")
    sub.add_argument("--raw", action="store_true", help="with --what markdown: the raw transcription")
    sub.add_argument("--json", action="store_true", help="machine-readable output")
    sub.set_defaults(handler=_show)


def _add_ask(commands: Any, common: argparse.ArgumentParser) -> None:
    sub = commands.add_parser("ask", parents=[common], help="answer a question from the documents, with page citations")
    sub.add_argument("question", metavar="QUESTION")
    sub.add_argument("--doc", action="append", default=None, metavar="DOC",
                     help="only this document (doc_id, file name or alias); repeat for several")
    sub.add_argument("--provider", choices=("offline", "gemini", "auto"), default=None,
                     help="default: $PDFRAG_PROVIDER or offline")
    sub.add_argument("--method", choices=METHODS, default="hybrid", help="retrieval method (default: hybrid)")
    sub.add_argument("--k", type=_positive_int, default=5, help="pages retrieved (default: 5)")
    sub.add_argument("--json", action="store_true", help='{"answer", "citations", "retrieved", "trace"} on stdout')
    sub.set_defaults(handler=_ask)


def _add_eval(commands: Any, common: argparse.ArgumentParser) -> None:
    sub = commands.add_parser("eval", parents=[common], help="score retrieval methods and answers on a QA file")
    sub.add_argument("qa_file", metavar="QA.jsonl", help="one question a line with gold pages and key facts")
    sub.add_argument("--method", action="append", choices=(*METHODS, "agent"), default=None,
                     help="repeat to compare several (default: bm25, hybrid, and vector when configured)")
    sub.add_argument("--k", type=_positive_int, default=5, help="recall@k cut-off (default: 5)")
    sub.add_argument("--json", action="store_true", help="all methods as one JSON object on stdout")
    sub.add_argument("--details", action="store_true",
                     help="also each question's result (with --json) or the questions that fell short")
    sub.set_defaults(handler=_eval)


def _add_serve(commands: Any, common: argparse.ArgumentParser) -> None:
    sub = commands.add_parser("serve", parents=[common], help="start the workbench (the Shiny app)")
    sub.add_argument("--port", type=_port, default=8000, help="default: 8000")
    sub.add_argument("--host", default="127.0.0.1", help="default: 127.0.0.1 (this machine only)")
    sub.set_defaults(handler=_serve)


# The subcommands, in help order.
COMMANDS: list[Callable[[Any, argparse.ArgumentParser], None]] = [
    _add_ingest, _add_list, _add_show, _add_ask, _add_eval, _add_serve,
]
METHODS = ("bm25", "vector", "tree", "hybrid")  # engine.index.METHODS, kept here so --help imports no index code


def _port(text: str) -> int:
    value = _positive_int(text)
    if value > 65535:
        raise argparse.ArgumentTypeError("must be at most 65535")
    return value


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


# -- ingest ----------------------------------------------------------------------------------------


def _ingest(args: argparse.Namespace, settings: Settings, workspace: Workspace) -> int:
    from engine.llm.errors import LlmError
    from engine.pipeline import Pipeline, collect_pdfs
    from engine.progress import ProgressPrinter

    provider, note = resolve_provider(args.provider or settings.provider, gemini_key_set=settings.gemini_key_set)
    if note:
        _err(note)
    workers = args.workers or settings.workers
    llm = _llm_settings(args.workers) if provider is Provider.GEMINI else None
    if args.dry_run and provider is Provider.GEMINI:
        return _print_estimates(_estimates(workspace, args.paths, llm, args.force), args.json)
    if args.dry_run:
        _err("the offline provider makes no calls and costs nothing; --dry-run estimates gemini runs")
        return EXIT_OK
    # with stage lines logged, one line per document instead of a bar redrawn under them
    verbose = logging.getLogger("engine").isEnabledFor(logging.INFO)
    printer = ProgressPrinter(total=len(collect_pdfs(Path(p) for p in args.paths)), tty=False if verbose else None)
    try:
        pipeline = Pipeline(workspace, provider=provider, workers=workers, on_progress=printer,
                            max_bytes=settings.max_upload_bytes, llm=llm)
    except LlmError as exc:  # the check before the first call: refused key, unreachable, model not offered
        printer.close()
        _err(f"{exc}; nothing was processed")
        return EXIT_FAILED
    if provider is Provider.GEMINI:
        whole = _estimate_total(_estimates(workspace, args.paths, llm, args.force))
        if whole.calls:
            _err(f"estimate: {_describe_estimate(whole).split(': ', 1)[1]} (--dry-run for each document)")
    started = time.perf_counter()
    before, indexed_before = json_stamps(workspace.documents), json_stamps(workspace.index / "docs")
    try:
        results = pipeline.ingest([Path(p) for p in args.paths], force=args.force)
    finally:
        printer.close()
    for result in results:
        if result.status is Status.FAILED or result.status is Status.PENDING:
            _err(f"{result.file_name}: {result.error or 'failed'}")
        elif result.status is Status.PARTIAL:
            _err(f"{result.file_name}: partial: {result.error}")
    if provider is Provider.GEMINI:
        _report_usage(workspace, results)
    if args.json:
        for result in results:
            _out(result.model_dump_json())
    if json_stamps(workspace.documents) != before or not (workspace.index / "docs").is_dir():
        _update_index(workspace, indexed_before)
    counts = {s: sum(r.status is s for r in results) for s in (Status.OK, Status.PARTIAL, Status.FAILED)}
    summary = ", ".join(f"{n} {s.value}" for s, n in counts.items() if n)
    print(f"{len(results)} input(s): {summary or 'nothing to do'} ({time.perf_counter() - started:.1f} s) "
          f"in {workspace.root}", file=sys.stderr)
    failed = any(r.status in (Status.FAILED, Status.PENDING) for r in results)
    return EXIT_FAILED if failed else EXIT_OK


def _estimates(workspace: Workspace, paths: list[str], llm: Any, force: bool) -> list[Any]:
    """The estimate of each input PDF; one already processed with these settings costs nothing."""
    from engine.llm.estimate import Estimate, estimate_document
    from engine.pipeline import collect_pdfs, is_up_to_date
    from engine.stages import default_stages
    from engine.workspace import doc_id_for, file_sha256

    stages = default_stages(provider=Provider.GEMINI, llm=llm)
    estimates = []
    for item in collect_pdfs(Path(p) for p in paths):
        if item.error is not None:
            continue
        try:
            record = None if force else workspace.load(doc_id_for(file_sha256(item.path)))
            if record is not None and is_up_to_date(workspace, record, stages, Provider.GEMINI, llm.gemini_model):
                estimates.append(Estimate(item.path.name, pages=record.pages, notes=["already processed"]))
            else:
                estimates.append(estimate_document(item.path, llm))
        except Exception as exc:  # noqa: BLE001 - an unreadable input is reported by the run itself
            estimates.append(Estimate(item.path.name, usd=None, notes=[f"not estimated: {type(exc).__name__}"]))
    return estimates


def _estimate_total(estimates: list[Any]) -> Any:
    from engine.llm.estimate import total

    return total(estimates)


def _describe_estimate(estimate: Any) -> str:
    from engine.llm.estimate import describe

    return describe(estimate) + (f" ({'; '.join(estimate.notes)})" if estimate.notes else "")


def _print_estimates(estimates: list[Any], as_json: bool) -> int:
    from dataclasses import asdict

    from engine.llm.prices import PRICES, PRICES_READ_ON

    whole = _estimate_total(estimates)
    if as_json:
        for estimate in estimates:
            _out(json.dumps(asdict(estimate), ensure_ascii=False))
        _out(json.dumps({**asdict(whole), "prices_usd_per_million": PRICES, "prices_read_on": PRICES_READ_ON}))
        return EXIT_OK
    for estimate in estimates:
        _out(_describe_estimate(estimate))
    _out(_describe_estimate(whole))
    _out(f"prices (USD per million tokens, input / output, read {PRICES_READ_ON}): "
         + ", ".join(f"{model} {i:g} / {o:g}" for model, (i, o) in PRICES.items()))
    return EXIT_OK


def _update_index(workspace: Workspace, before: dict[str, tuple[int, int]]) -> None:
    """The index stage: bring the retrieval index up to date (a failure here never fails the ingest). The
    pipeline indexes each document as it finishes; this builds what it left, drops what was removed and
    reports every index written since `before` (engine.workspace.json_stamps of the index folder)."""
    from engine.index import update_index
    from engine.index.vectors import embedder_from_env

    try:  # with PDFRAG_EMBEDDINGS=gemini the chunk vectors too
        update = update_index(workspace, embedder=embedder_from_env())
    except Exception as exc:  # noqa: BLE001 - reported, and `ask` indexes in memory what is missing
        _err(f"index not updated: {type(exc).__name__}: {exc}")
        return
    written = sum(before.get(name) != stamp for name, stamp in json_stamps(workspace.index / "docs").items())
    if written or update.removed:
        _err(f"index: {written} document(s) indexed, {len(update.removed)} removed")


def _report_usage(workspace: Workspace, results: list[Any]) -> None:
    """Per document: what the LLM calls cost (the per-stage figures are in `show --what record`)."""
    from engine.llm.usage import describe_totals, document_totals

    for result in results:
        record = workspace.load(result.doc_id) if result.doc_id else None
        if record is not None and result.seconds > 0:
            _err(f"{result.file_name}: {describe_totals(document_totals(record.stages.values()))}")


def _llm_settings(workers: int | None) -> Any:
    """LlmSettings from the environment; pages at once: --workers, else $PDFRAG_WORKERS, else 4 (not tied to CPUs)."""
    from engine.llm.settings import LlmSettings, LlmSettingsError

    try:
        return LlmSettings.from_env(page_workers=workers)
    except LlmSettingsError as exc:
        raise ConfigError(str(exc)) from None


# -- serve ---------------------------------------------------------------------------------------


def _serve(args: argparse.Namespace, settings: Settings, workspace: Workspace) -> int:
    try:
        import uvicorn

        from app.startup import load_shiny

        load_shiny()
        from app.app import create_app
        from app.config import AppConfig
    except ImportError as exc:
        raise UsageError(f"the workbench is not installed ({exc.name} is missing); pip install -e . installs it") \
            from None
    config = dataclasses.replace(AppConfig.from_env(data_dir=workspace.root), bind_host=args.host)
    _err(f"workbench on http://{args.host}:{args.port} (workspace {workspace.root}"
         + (", a private workspace per browser session" if config.session_workspaces else "") + ")")
    uvicorn.run(create_app(config), host=args.host, port=args.port, log_level="warning")
    return EXIT_OK


# -- list ------------------------------------------------------------------------------------------


def _list(args: argparse.Namespace, settings: Settings, workspace: Workspace) -> int:
    records, damaged = workspace.scan()
    if args.json:
        documents = [
            {"doc_id": r.doc_id, "file_name": r.file_name, "aliases": r.aliases, "pages": r.pages,
             "format": r.format, "status": r.status.value, "error": r.error}
            for r in records
        ] + [
            {"doc_id": d.doc_id, "file_name": d.file_name, "aliases": [], "pages": 0, "format": None,
             "status": "damaged", "error": d.message}
            for d in damaged
        ]
        _out(json.dumps({"documents": documents}, ensure_ascii=False))
        return EXIT_OK
    if not records and not damaged:
        _err(f"no documents in {workspace.root}")
        return EXIT_OK
    for r in records:
        _out(f"{r.doc_id}  {r.status.value:<8} {r.pages:>5} p  {r.format or '-':<9}  {r.file_name}"
             + (f"  (also: {', '.join(r.aliases)})" if r.aliases else ""))
    for d in damaged:
        _out(f"{d.doc_id}  {'damaged':<8} {'?':>5} p  {'-':<9}  {d.file_name or '?'}  ({d.message})")
    return EXIT_OK


# -- show ------------------------------------------------------------------------------------------


def _ask(args: argparse.Namespace, settings: Settings, workspace: Workspace) -> int:
    from engine.agent import MethodUnavailable, UnknownDocument, ask

    provider, note = resolve_provider(args.provider or settings.provider, gemini_key_set=settings.gemini_key_set)
    if note:
        _err(note)
    docs = None
    if args.doc:
        docs = []
        for name in args.doc:
            record = workspace.find(name)
            if record is None:
                raise UsageError(f"unknown document {name!r} (pdfrag list shows the documents)")
            docs.append(record.file_name)
    if not any(r.status in (Status.OK, Status.PARTIAL) for r in workspace.records()):
        _err(f"no processed documents in {workspace.root}; run pdfrag ingest first")
        return EXIT_FAILED
    from engine.index.vectors import EmbeddingError
    from engine.llm.errors import LlmError

    try:
        answer = ask(workspace, args.question, docs=docs, provider=provider.value, method=args.method, k=args.k)
    except (MethodUnavailable, UnknownDocument, ValueError) as exc:
        raise UsageError(str(exc.args[0] if isinstance(exc, UnknownDocument) else exc)) from None
    except (EmbeddingError, LlmError) as exc:
        _err(str(exc))
        return EXIT_FAILED
    if args.json:
        fields = {"answer", "citations", "passages", "retrieved", "trace"}  # passages: the quotes' context
        _out(json.dumps(answer.model_dump(mode="json", include=fields), ensure_ascii=False))
        return EXIT_OK
    _out(answer.answer)
    if answer.citations:
        _out("")
        _out("Sources:")
        for c in answer.citations:
            quote = " ".join(c.quote.split())
            _out(f"  [{c.doc}, p. {c.page}] \"{quote[:160]}{'…' if len(quote) > 160 else ''}\"")
    return EXIT_OK


def _eval(args: argparse.Namespace, settings: Settings, workspace: Workspace) -> int:
    from engine.evaluate import render_misses, render_table, run_eval, to_json

    if not Path(args.qa_file).is_file():
        raise UsageError(f"no such QA file: {args.qa_file}")
    methods = args.method
    if not methods:
        from engine.index.vectors import embedder_from_env

        methods = ["bm25", "hybrid"] + (["vector"] if embedder_from_env() is not None else [])
    if not any(r.status in (Status.OK, Status.PARTIAL) for r in workspace.records()):
        _err(f"no processed documents in {workspace.root}; run pdfrag ingest first")
        return EXIT_FAILED
    try:
        report = run_eval(workspace, args.qa_file, list(dict.fromkeys(methods)), k=args.k)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        _out(to_json(report, details=args.details))
    else:
        _out(render_table(report) + (f"\n\n{render_misses(report)}" if args.details else ""))
    return EXIT_OK


def _show(args: argparse.Namespace, settings: Settings, workspace: Workspace) -> int:
    if args.raw and args.what != "markdown":
        raise UsageError("--raw applies to --what markdown only")
    record = workspace.find(args.doc)
    if record is None:
        raise UsageError(f"unknown document {args.doc!r} (pdfrag list shows the documents)")
    try:
        text = SHOW[args.what](record, workspace, args)
    except LookupError as exc:
        _err(f"{record.file_name}: {exc.args[0]}")
        return EXIT_FAILED
    _out(text)
    return EXIT_OK


def _show_record(record: DocumentRecord, workspace: Workspace, args: argparse.Namespace) -> str:
    return record.model_dump_json(indent=2)


def _show_metadata(record: DocumentRecord, workspace: Workspace, args: argparse.Namespace) -> str:
    meta = record.metadata
    if args.json:
        return meta.model_dump_json(indent=2)
    lines = []
    for name in ("title", "author", "publication_date", "language", "document_type", "summary"):
        value = getattr(meta, name)
        source = meta.provenance.get(name)
        lines.append(f"{name}: {value}" + (f"  [{source.value}]" if source and value else ""))
    lines.append(f"keywords: {', '.join(meta.keywords)}")
    lines += ["themes:"] + [f"  - {t.name}" + (f": {t.description}" if t.description else "") for t in meta.themes]
    lines += ["entities:"] + [f"  - {e.name}" + (f" ({e.role})" if e.role else "") for e in meta.entities]
    lines += ["time periods:"] + [
        f"  - {p.start_date or '?'} .. {p.end_date or '?'}"
        + (f" {p.period_description}" if p.period_description else "")
        for p in meta.time_periods
    ]
    return "\n".join(lines)


def _show_markdown(record: DocumentRecord, workspace: Workspace, args: argparse.Namespace) -> str:
    path = workspace.raw_markdown_path(record) if args.raw else workspace.reformatted_markdown_path(record)
    if not path.exists():
        kind = "raw" if args.raw else "reformatted"
        raise LookupError(f"no {kind} Markdown yet (status {record.status.value}: {record.error or 'not processed'})")
    text = path.read_text(encoding="utf-8")
    if args.json:
        return json.dumps({"doc_id": record.doc_id, "file_name": record.file_name,
                           "kind": "raw" if args.raw else "reformatted", "markdown": text}, ensure_ascii=False)
    return text.rstrip("\n")


def _show_toc(record: DocumentRecord, workspace: Workspace, args: argparse.Namespace) -> str:
    toc = record.extracted_toc
    if args.json:
        return json.dumps({**toc.model_dump(mode="json"), "created_toc": record.created_toc}, ensure_ascii=False,
                          indent=2)
    pages = ", ".join(map(str, toc.contents_pages))
    lines = [f"Contents page ({'pages ' + pages if pages else 'none found'}): {len(toc.contents)} entries"]
    for entry in toc.contents:
        target = f" -> page {entry.page}" if entry.page else ""
        printed = f" (printed {entry.printed_page})" if entry.printed_page else ""
        lines.append(f"{'  ' * entry.level}{entry.title}{printed}{target}")
    lines += ["", f"PDF outline: {len(toc.outline)} entries"]
    lines += [f"{'  ' * o.level}{o.title}" + (f" -> page {o.page}" if o.page else "") for o in toc.outline]
    lines += ["", "Created TOC:", record.created_toc or "(none)"]
    return "\n".join(lines)


def _show_structure(record: DocumentRecord, workspace: Workspace, args: argparse.Namespace) -> str:
    if not record.structure:
        raise LookupError(f"no structure yet (status {record.status.value}: {record.error or 'not processed'})")
    if args.json:
        return json.dumps({"kind": record.doc_kind, "structure": record.structure,
                           "landscape_pages": record.landscape_pages}, ensure_ascii=False, indent=2)
    return record.structure


def _show_tree(record: DocumentRecord, workspace: Workspace, args: argparse.Namespace) -> str:
    if record.tree is None:
        raise LookupError(f"no tree yet (status {record.status.value}: {record.error or 'not processed'})")
    if args.json:
        return record.tree.model_dump_json(indent=2)
    from engine.structure import render_tree

    return render_tree(record.tree)


def _show_headings(record: DocumentRecord, workspace: Workspace, args: argparse.Namespace) -> str:
    if args.json:
        entries = [{"title": h.title, "level": h.level, "page": h.page} for h in record.headings]
        return json.dumps({"entries": entries}, ensure_ascii=False)
    return "\n".join(f"{'  ' * (h.level - 1)}{h.title} (p. {h.page})" for h in record.headings)


SHOW: dict[str, Callable[[DocumentRecord, Workspace, argparse.Namespace], str]] = {
    "record": _show_record, "metadata": _show_metadata, "markdown": _show_markdown, "toc": _show_toc,
    "structure": _show_structure, "tree": _show_tree, "headings": _show_headings,
}


def _out(text: str) -> None:
    print(text, file=sys.stdout, flush=True)


def _err(text: str) -> None:
    print(f"pdfrag: {text}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
