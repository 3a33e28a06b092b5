"""py3langid's language identifier, loaded from an unpacked copy of its model.

py3langid ships its model LZMA-compressed (a 68 MB npz in 30 MB) and unpacks it in every process that
identifies a language: about 0.6-1 s, paid by every ingest worker. The first process to need it unpacks the
arrays once into MODEL_CACHE (one .npy file each, written to a temporary folder and renamed into place, so
processes racing to write it never read half a copy); every later process maps them from there in a tenth of
the time. The identifier is py3langid's own class over py3langid's own arrays: the languages it finds are the
library's. Anything unexpected (a py3langid whose model or class looks different, a cache folder that cannot
be written, a damaged copy) falls back to py3langid's own loader.
"""

from __future__ import annotations

import logging
import lzma
import shutil
import tempfile
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from engine.settings import EnvSettings

log = logging.getLogger(__name__)

ARRAYS = ("ptc", "pc", "classes", "nextmove", "nextmove_row", "out_feat")


def cache_root(env: Mapping[str, str] | None = None) -> Path:
    """Where unpacked models are kept: PDFRAG_MODEL_CACHE, else pdfrag/ under XDG_CACHE_HOME or ~/.cache."""
    settings = EnvSettings.from_env(env)
    return settings.model_cache or (settings.xdg_cache_home or Path.home() / ".cache") / "pdfrag"


def classify(text: str) -> str:
    """The ISO 639-1 code py3langid gives the text."""
    return str(identifier().classify(text)[0])


@lru_cache(maxsize=1)
def identifier() -> Any:
    """The process's identifier (loaded on first use, from cache_root())."""
    return load_identifier(cache_root())


def load_identifier(root: Path) -> Any:
    """Something with py3langid's `classify`: its identifier over the model unpacked under `root`, else the
    library itself (which unpacks its model in memory)."""
    for _ in range(2):
        folder = None
        try:
            folder = _unpacked(root)
            found = _from_unpacked(folder)
            found.classify("a sentence to try the model on")
            return found
        except Exception as exc:  # noqa: BLE001 - any surprise: unpack once more, then the library's own loader
            log.debug("unpacked py3langid model unusable (%s: %s)", type(exc).__name__, exc)
            if folder is None:  # it could not be unpacked here
                break
            shutil.rmtree(folder, ignore_errors=True)  # a damaged copy (processes that map it keep theirs)
    from py3langid import langid

    return langid


def _model_file() -> Path:
    from py3langid import langid

    return Path(langid.MODEL_DIR) / langid.MODEL_FILE


def _unpacked(root: Path) -> Path:
    """The folder of the model's arrays, unpacked now if no process has yet (its name changes with the model)."""
    import importlib.metadata

    import numpy as np

    source = _model_file()
    folder = root / f"py3langid-{importlib.metadata.version('py3langid')}-{source.stat().st_size}"
    if all((folder / f"{name}.npy").is_file() for name in ARRAYS):
        return folder
    root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=root, prefix=".unpacking-"))
    try:
        with lzma.open(source) as packed, tempfile.TemporaryFile(dir=staging) as plain:
            shutil.copyfileobj(packed, plain, length=1 << 20)
            plain.seek(0)
            with np.load(plain, allow_pickle=False) as data:
                for name in ARRAYS:
                    np.save(staging / f"{name}.npy", data[name], allow_pickle=False)
        try:
            staging.rename(folder)
        except OSError:  # another process was first: its copy is as good
            if not folder.is_dir():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return folder


def _from_unpacked(folder: Path) -> Any:
    import numpy as np
    from py3langid import langid
    from py3langid.modelio import _to_array

    data = {name: np.load(folder / f"{name}.npy", mmap_mode="r", allow_pickle=False) for name in ARRAYS}
    return langid.LanguageIdentifier(
        np.asarray(data["ptc"]), np.asarray(data["pc"]), data["classes"].tolist(), _to_array(data["nextmove"]),
        np.asarray(data["out_feat"]).tolist(), tk_row=_to_array(data["nextmove_row"]))
