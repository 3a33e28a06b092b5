"""Context metadata of a document, with the provenance of every value."""

from __future__ import annotations

from pydantic import Field

from engine.schemas.base import Model, Provenance


class Theme(Model):
    name: str
    description: str = ""


class Entity(Model):
    name: str
    role: str = ""


class TimePeriod(Model):
    start_date: str | None = Field(default=None, description="YYYY-MM-DD")
    end_date: str | None = Field(default=None, description="YYYY-MM-DD")
    period_description: str = ""
    is_approximate: bool = False


class ContextMetadata(Model):
    title: str = ""
    author: str = ""
    publication_date: str = Field(default="", description="YYYY-MM-DD or empty")
    language: str = Field(default="", description="ISO 639-1")
    document_type: str = ""
    themes: list[Theme] = Field(default_factory=list)
    entities: list[Entity] = Field(default_factory=list)
    time_periods: list[TimePeriod] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    summary: str = ""
    provenance: dict[str, Provenance] = Field(
        default_factory=dict, description="field name -> where its value came from; absent when empty"
    )
