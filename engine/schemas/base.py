"""Shared base model and small enumerations used across the schemas."""

from __future__ import annotations

from enum import Enum

from pydantic import BaseModel, ConfigDict


class Model(BaseModel):
    """Base for every schema: unknown fields are rejected."""

    model_config = ConfigDict(extra="forbid")


class Provenance(str, Enum):
    """Where a metadata value came from."""

    PDF_INFO = "pdf-info"
    LAYOUT = "layout"
    HEURISTIC = "heuristic"
    LLM = "llm"


class Provider(str, Enum):
    OFFLINE = "offline"
    GEMINI = "gemini"
    MISTRAL = "mistral"


class Status(str, Enum):
    PENDING = "pending"
    OK = "ok"
    PARTIAL = "partial"
    FAILED = "failed"
