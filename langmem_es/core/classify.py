"""An optional LLM classifier of statements: update, denial or plain assertion.

The memory core classifies with rules by default
(:func:`langmem_es.core.heuristics.classify_statement`). Where phrasing is too varied for
rules, any LangChain chat model that supports structured output can do it::

    from langchain.chat_models import init_chat_model
    from langmem_es.core.classify import LLMStatementClassifier

    classify = LLMStatementClassifier(init_chat_model("openai:gpt-4o-mini"))
    text = "Honestly, Bristol was never home."
    core.remember(identity, text, reason="...", polarity=classify.polarity(text))

The classifier runs before the write (``polarity=``), so the memory core itself never
calls a model. If the model fails or answers nonsense, the rules answer instead (or the
error is raised with ``strict=True``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

from ..errors import InvalidMemoryError
from .heuristics import Statement, classify_statement
from .validation import clean_text

__all__ = ["LLMStatementClassifier", "StatementLabel", "SYSTEM_PROMPT"]

SYSTEM_PROMPT = """\
You classify one statement a user or agent wants an assistant to remember, by how it \
relates to what the assistant may already believe.

- "update": it states a change or a correction that names the new value, so it replaces \
an older belief. Examples: "I moved to Edinburgh." "I no longer live in Bristol." \
"It's not Bristol, it's Leeds." "From now on, call me Sam."
- "deny": it rejects a claim without giving a replacement value. Examples: "I never \
lived in Bristol." "That's not true, I don't have a dog." "Alice isn't vegetarian."
- "assert": a plain statement of fact or preference, including negative preferences. \
Examples: "I live in Bristol." "I don't eat meat." "My manager is Priya."

Answer with the label only."""


class StatementLabel(BaseModel):
    """How a statement relates to existing beliefs."""

    label: Literal["assert", "update", "deny"] = Field(
        description="update: a change or a correction naming the new value; deny: a claim rejected without a "
        "replacement; assert: a plain statement of fact or preference."
    )


class LLMStatementClassifier:
    """Classify statements with a chat model's structured output; rules as the fallback.

    ``model`` is any LangChain chat model with ``with_structured_output`` (OpenAI,
    Anthropic, Ollama …). ``fallback`` answers when the model raises or returns
    something unusable, unless ``strict``.
    """

    def __init__(
        self,
        model: Any,
        *,
        system_prompt: str = SYSTEM_PROMPT,
        fallback: Callable[[str], Statement] = classify_statement,
        strict: bool = False,
    ) -> None:
        if not hasattr(model, "with_structured_output"):
            raise TypeError(f"{type(model).__name__} is not a LangChain chat model (no with_structured_output)")
        self.model = model
        self.system_prompt = system_prompt
        self.fallback = fallback
        self.strict = strict
        self._runnable = model.with_structured_output(StatementLabel)
        self.fallbacks_used = 0
        """How many answers came from the rules because the model failed (observability)."""

    def _messages(self, content: str) -> Sequence[tuple[str, str]]:
        return [("system", self.system_prompt), ("human", clean_text(content, "statement", limit=4000))]

    def _label(self, content: str, answer: Any) -> Statement:
        label = answer.get("label") if isinstance(answer, dict) else getattr(answer, "label", None)
        if label in ("assert", "update", "deny"):
            return label  # type: ignore[return-value]
        return self._fail(content, ValueError(f"the model returned {answer!r}, not a label"))

    def _fail(self, content: str, exc: Exception) -> Statement:
        if self.strict:
            raise InvalidMemoryError(f"the statement classifier failed: {exc}") from exc
        self.fallbacks_used += 1
        return self.fallback(content)

    def classify(self, content: str) -> Statement:
        """``update``, ``deny`` or ``assert``."""
        messages = self._messages(content)
        try:
            answer = self._runnable.invoke(messages)
        except Exception as exc:  # noqa: BLE001 - any model failure falls back to the rules
            return self._fail(content, exc)
        return self._label(content, answer)

    async def aclassify(self, content: str) -> Statement:
        messages = self._messages(content)
        try:
            answer = await self._runnable.ainvoke(messages)
        except Exception as exc:  # noqa: BLE001
            return self._fail(content, exc)
        return self._label(content, answer)

    def polarity(self, content: str) -> Literal["assert", "deny"]:
        """What ``remember(..., polarity=)`` takes: ``deny`` for a denial, else ``assert``."""
        return "deny" if self.classify(content) == "deny" else "assert"

    async def apolarity(self, content: str) -> Literal["assert", "deny"]:
        return "deny" if await self.aclassify(content) == "deny" else "assert"
