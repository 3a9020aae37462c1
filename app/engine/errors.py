"""Errors the engine raises. Nothing is ever changed by an action that raises."""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every error raised by the rules engine."""


class InvalidOptionsError(EngineError):
    """A combination of rule options that RULES.md does not define."""


class ActionError(EngineError):
    """An action that cannot be applied."""


class InvalidActionError(ActionError):
    """A malformed action: unknown card code, bad seat, wrong shape or JSON."""


class IllegalActionError(ActionError):
    """A well-formed action that the rules forbid here; `rule` names the rule (e.g. `"R8.4"`)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
