"""Host types from a feature's schema: `python -m tca types FEATURE --lang LANGUAGE`.

    from tca.typegen import generate
    text = generate(tca.schema("counter"), "rust")

One module per language (python, typescript, csharp, rust, cpp), each writing the file of one
feature from `model.read_feature`'s reading of the schema document (docs/schema.md). The package
imports nothing of `tca` but its own modules: it runs on a document from anywhere.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Mapping, Optional

from . import cpp, csharp, python, rust, typescript
from .model import Feature, SchemaError, read_feature

__all__ = ["LANGUAGES", "SchemaError", "generate", "read_feature"]

LANGUAGES: Dict[str, Callable[[Feature, str], str]] = {
    "python": python.generate,
    "typescript": typescript.generate,
    "csharp": csharp.generate,
    "rust": rust.generate,
    "cpp": cpp.generate,
}
"""Each language's generator: (feature, the command that wrote it) → the file's text."""


def generate(
    document: Mapping[str, Any], language: str, command: Optional[str] = None
) -> str:
    """The host types of the feature `document` describes, in `language` (a key of
    `LANGUAGES`). Raises `SchemaError` for a document it cannot read, `ValueError` for an
    unknown language."""
    try:
        writer = LANGUAGES[language]
    except KeyError:
        raise ValueError(
            f"no generator for {language!r}: one of {', '.join(LANGUAGES)}"
        ) from None
    feature = read_feature(document)
    return writer(feature, command or f"python -m tca types {feature.name} --lang {language}")
