"""A llama-index function-calling LLM over Gemini (google-genai async client), for the agents.

Imported only in gemini mode. Calls go through `GeminiToolClient` (the project's Gemini client with
retries, usage counting and scrubbed errors) and carry the agents' tools as function declarations;
function calls come back as tool-call blocks, tool results go out as function responses, and the model's
turns go back exactly as they came (thought signatures included). The maintained
`llama-index-llms-google-genai` (0.11.3) requires google-genai < 3, so this project keeps its own.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from typing import Any

from llama_index.core.base.llms.types import (
    ChatMessage, ChatResponse, CompletionResponse, LLMMetadata, MessageRole, TextBlock, ToolCallBlock,
)
from llama_index.core.llms.function_calling import FunctionCallingLLM
from llama_index.core.llms.llm import ToolSelection
from pydantic import PrivateAttr

from engine.llm.gemini import GeminiClient

_ids = itertools.count(1)
# Where an assistant message keeps the model's turn exactly as Gemini returned it. Gemini 3 puts a
# `thoughtSignature` on function-call parts and refuses (400) a later request whose history lacks it; the
# llama-index message blocks cannot hold it, so the whole Content is kept and sent back as it came.
CONTENT_KEY = "gemini_content"
STOPPED_PREFIX = "Gemini stopped without an answer"  # how a turn Gemini stopped reads (see `stopped_text`)
TRUNCATED_NOTE = "(The answer was cut off at Gemini's output limit.)"
RETRY_ONCE = {"MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL"}  # worth asking again (sampling differs)


class GeminiToolClient(GeminiClient):
    """The Gemini client, plus one generateContent call with function declarations and a history."""

    async def chat(self, contents: list[Any], *, system: str | None, declarations: list[dict[str, Any]]) -> Any:
        types = self._types
        tools = [types.Tool(function_declarations=[
            types.FunctionDeclaration(name=d["name"], description=d["description"],
                                      parameters_json_schema=d["parameters"]) for d in declarations
        ])] if declarations else None
        config = self.config(
            "agent", system_instruction=system, tools=tools,
            automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True) if tools else None,
        )
        response = await self.generate_content(contents, config)
        usage = response.usage_metadata
        if usage:
            thoughts = usage.thoughts_token_count or 0
            self.usage.add(input_tokens=usage.prompt_token_count or 0,
                           output_tokens=(usage.candidates_token_count or 0) + thoughts, thought_tokens=thoughts)
        return response


def declaration(tool: Any) -> dict[str, Any]:
    """A llama-index tool as a Gemini function declaration (JSON schema parameters)."""
    meta = tool.metadata
    parameters = meta.get_parameters_dict()
    parameters = {k: v for k, v in parameters.items() if k not in ("title", "additionalProperties", "$defs")}
    return {"name": meta.name, "description": meta.description, "parameters": parameters}


class GeminiAgentLLM(FunctionCallingLLM):
    """What the FunctionAgents talk to: async chat with tools over `GeminiToolClient`."""

    model: str = "gemini"
    _client: GeminiToolClient = PrivateAttr()

    def __init__(self, client: GeminiToolClient, **kwargs: Any) -> None:
        super().__init__(model=client.model, **kwargs)
        self._client = client

    @classmethod
    def class_name(cls) -> str:
        return "GeminiAgentLLM"

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(context_window=1_000_000, num_output=8192, is_chat_model=True,
                           is_function_calling_model=True, model_name=self.model)

    # -- the async chat the agents use ---------------------------------------------------------------

    async def achat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        """One turn. A malformed function call is asked again once; a turn Gemini stopped for any reason
        but STOP becomes a plain statement of why (STOPPED_PREFIX), with no tool call, which ends that agent."""
        contents, system = self._contents(messages)
        declarations = kwargs.get("declarations") or []
        response = await self._client.chat(contents, system=system, declarations=declarations)
        if finish_reason(response) in RETRY_ONCE:
            response = await self._client.chat(contents, system=system, declarations=declarations)
        return ChatResponse(message=_message(response), raw={"model": self.model})

    async def astream_chat(self, messages: Sequence[ChatMessage], **kwargs: Any):
        response = await self.achat(messages, **kwargs)

        async def one():
            yield ChatResponse(message=response.message, delta=response.message.content or "", raw=response.raw)

        return one()

    async def acomplete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        response = await self.achat([ChatMessage(role=MessageRole.USER, content=prompt)])
        return CompletionResponse(text=response.message.content or "")

    async def astream_complete(self, prompt: str, formatted: bool = False, **kwargs: Any):
        response = await self.acomplete(prompt)

        async def one():
            yield CompletionResponse(text=response.text, delta=response.text)

        return one()

    def chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        raise NotImplementedError("GeminiAgentLLM is asynchronous: use achat")

    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        raise NotImplementedError("GeminiAgentLLM is asynchronous: use acomplete")

    def stream_chat(self, messages: Sequence[ChatMessage], **kwargs: Any):
        raise NotImplementedError("GeminiAgentLLM is asynchronous: use astream_chat")

    def stream_complete(self, prompt: str, formatted: bool = False, **kwargs: Any):
        raise NotImplementedError("GeminiAgentLLM is asynchronous: use astream_complete")

    # -- tools -----------------------------------------------------------------------------------------

    def _prepare_chat_with_tools(self, tools: Sequence[Any], user_msg: str | ChatMessage | None = None,
                                 chat_history: list[ChatMessage] | None = None, verbose: bool = False,
                                 allow_parallel_tool_calls: bool = False, tool_required: bool = False,
                                 **kwargs: Any) -> dict[str, Any]:
        messages = list(chat_history or [])
        if user_msg is not None:
            messages.append(user_msg if isinstance(user_msg, ChatMessage)
                            else ChatMessage(role=MessageRole.USER, content=user_msg))
        return {"messages": messages, "declarations": [declaration(tool) for tool in tools]}

    def get_tool_calls_from_response(self, response: ChatResponse, error_on_no_tool_call: bool = True,
                                     **kwargs: Any) -> list[ToolSelection]:
        calls = [ToolSelection(tool_id=block.tool_call_id or f"call-{next(_ids)}", tool_name=block.tool_name,
                               tool_kwargs=block.tool_kwargs if isinstance(block.tool_kwargs, dict) else {})
                 for block in response.message.blocks if isinstance(block, ToolCallBlock)]
        if not calls and error_on_no_tool_call:
            raise ValueError("the model called no tool")
        return calls

    # -- conversions -----------------------------------------------------------------------------------

    def _contents(self, messages: Sequence[ChatMessage]) -> tuple[list[Any], str | None]:
        """llama-index messages as Gemini contents: the system prompt apart, tool results as function
        responses (named after the call they answer), consecutive ones in one turn."""
        types = self._client._types
        names: dict[str, str] = {}
        system: list[str] = []
        contents: list[Any] = []
        tool_turn = False  # the last content holds function responses
        for message in messages:
            role = message.role.value if hasattr(message.role, "value") else str(message.role)
            if role == "system":
                system.append(message.content or "")
                continue
            returned = message.additional_kwargs.get(CONTENT_KEY) if role == "assistant" else None
            if returned:  # the model's own turn, sent back as it came: thought signatures and every other field
                contents.append(types.Content.model_validate(returned))
                tool_turn = False
                for block in message.blocks:
                    if isinstance(block, ToolCallBlock):
                        names[block.tool_call_id or ""] = block.tool_name
                continue
            if role == "tool":
                call_id = str(message.additional_kwargs.get("tool_call_id", ""))
                name = names.get(call_id, call_id.split(":")[0] or "tool")
                part = types.Part(function_response=types.FunctionResponse(
                    name=name, response={"result": message.content or ""}))
                if contents and tool_turn:
                    contents[-1].parts.append(part)
                else:
                    contents.append(types.Content(role="user", parts=[part]))
                tool_turn = True
                continue
            parts = []
            for block in message.blocks:
                if isinstance(block, TextBlock) and block.text:
                    parts.append(types.Part(text=block.text))
                elif isinstance(block, ToolCallBlock):
                    args = block.tool_kwargs if isinstance(block.tool_kwargs, dict) else _json(block.tool_kwargs)
                    names[block.tool_call_id or ""] = block.tool_name
                    parts.append(types.Part(function_call=types.FunctionCall(name=block.tool_name, args=args)))
            if parts:
                contents.append(types.Content(role="model" if role == "assistant" else "user", parts=parts))
                tool_turn = False
        return contents, "\n\n".join(s for s in system if s) or None


def _json(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def finish_reason(response: Any) -> str:
    """The first candidate's finish reason ("STOP" when none is given), or BLOCKED:<reason> for a prompt
    Gemini refused (no candidate)."""
    if not response.candidates:
        feedback = response.prompt_feedback
        reason = getattr(feedback, "block_reason", None) if feedback else None
        return f"BLOCKED:{getattr(reason, 'value', reason) or 'no candidate'}"
    reason = response.candidates[0].finish_reason
    return str(getattr(reason, "value", reason) or "STOP")


def stopped_text(reason: str) -> str:
    """What an agent says when Gemini stopped it: why, in words, after STOPPED_PREFIX."""
    kind = reason.split(":")[0]
    why = {
        "SAFETY": "its safety filters blocked the answer",
        "PROHIBITED_CONTENT": "its content policy blocked the answer",
        "BLOCKLIST": "the answer contained blocked terms", "SPII": "the answer contained sensitive personal data",
        "BLOCKED": "it refused the question itself", "IMAGE_SAFETY": "its safety filters blocked the answer",
        "RECITATION": "the answer would have recited a source word for word",
        "MALFORMED_FUNCTION_CALL": "it produced a malformed tool call twice",
        "UNEXPECTED_TOOL_CALL": "it called a tool that was not offered",
        "MAX_TOKENS": "it ran out of output tokens before answering",
    }.get(kind, "of an unexpected stop")
    return f"{STOPPED_PREFIX} ({reason}): {why}. No answer was given; rephrasing the question may help."


def _message(response: Any) -> ChatMessage:
    """A GenerateContentResponse as an assistant message with text and tool-call blocks; the candidate's
    content itself (as JSON) rides along in `additional_kwargs[CONTENT_KEY]`, to be sent back unchanged.

    A turn that stopped for anything but STOP (or MAX_TOKENS with text to keep) is replaced by
    `stopped_text`: no tool call, no partial text ("From the library:"), nothing of it sent back later."""
    reason = finish_reason(response)
    candidate = response.candidates[0] if response.candidates else None
    parts = candidate.content.parts if candidate and candidate.content and candidate.content.parts else []
    text = "".join(part.text for part in parts if part.text and not part.thought).strip()
    calls = [part for part in parts if part.function_call is not None]
    if reason == "MAX_TOKENS" and text and not calls:
        return ChatMessage(role=MessageRole.ASSISTANT, content=f"{text}\n\n{TRUNCATED_NOTE}",
                           additional_kwargs={"finish_reason": reason})
    if reason != "STOP" or not (text or calls):
        said = stopped_text(reason) if reason != "STOP" else \
            f"{STOPPED_PREFIX} (empty answer): it returned nothing. No answer was given."
        return ChatMessage(role=MessageRole.ASSISTANT, content=said, additional_kwargs={"finish_reason": reason})
    assert candidate is not None and candidate.content is not None  # the text or calls came from its parts
    blocks: list[Any] = []
    extra: dict[str, Any] = {"finish_reason": reason, CONTENT_KEY: candidate.content.model_dump(mode="json",
                                                                                             exclude_none=True)}
    for part in parts:
        if part.function_call is not None:
            call = part.function_call
            blocks.append(ToolCallBlock(tool_call_id=call.id or f"{call.name}:{next(_ids)}", tool_name=call.name,
                                        tool_kwargs=dict(call.args or {})))
        elif part.text and not part.thought:
            blocks.append(TextBlock(text=part.text))
    return ChatMessage(role=MessageRole.ASSISTANT, blocks=blocks or [TextBlock(text="")], additional_kwargs=extra)
