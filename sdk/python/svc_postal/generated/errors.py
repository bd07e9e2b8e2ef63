"""Contains shared errors types that can be raised from API functions"""

from collections.abc import Mapping


class UnexpectedStatus(Exception):
    """Raised by api functions when the response status an undocumented status and Client.raise_on_unexpected_status is True"""

    def __init__(self, status_code: int, content: bytes):
        self.status_code = status_code
        self.content = content

        super().__init__(
            f"Unexpected status code: {status_code}\n\nResponse content:\n{content.decode(errors='ignore')}"
        )


class UnknownKeyError(TypeError):
    """A request model's ``from_dict`` was given a key the API does not know: refused rather than dropped,
    since a dropped key (``send_at`` for ``sendAt``) would send a different request than the one written.

    ``model`` is the model's class name, ``key`` the first unknown key, ``expected`` the API's spelling
    when ``key`` is the Python (snake_case) name of a known key, else None.
    """

    def __init__(self, model: str, key: str, expected: str | None):
        self.model = model
        self.key = key
        self.expected = expected
        hint = f": the API spells it {expected!r}" if expected else ""
        super().__init__(f"{model} has no key {key!r}{hint}")


def refuse_unknown_keys(
    model: str, rest: Mapping[str, object], known: Mapping[str, str]
) -> None:
    """Raises UnknownKeyError for the first key of ``rest`` (what from_dict did not take); ``known`` maps
    each Python attribute name to the API's key."""
    for key in rest:
        raise UnknownKeyError(model, key, known.get(key))


__all__ = ["UnexpectedStatus", "UnknownKeyError", "refuse_unknown_keys"]
