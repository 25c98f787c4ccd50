"""The one exception raised for wrong input."""

from __future__ import annotations


class SpecError(ValueError):
    """Bad input: the message is one line naming the file, the field and the shapes."""

    def __init__(self, message: str, *, source: str | None = None) -> None:
        self.detail = message
        self.source = source
        super().__init__(f"{source}: {message}" if source else message)

    def located(self, source: str) -> SpecError:
        """The same error, prefixed with the file or origin it came from (once)."""
        return self if self.source else SpecError(self.detail, source=source)
