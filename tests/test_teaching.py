"""reteval.teaching: the chapter's code on display, and the exercise checker."""

import pytest

from reteval.errors import InputError
from reteval.teaching import mrr, show_source
from reteval.teaching.exercises import check


def test_show_source_gives_the_code_as_written():
    source = show_source(mrr)
    assert repr(source).startswith("def mrr(retrieved_docs, relevant_docs):")
    assert source._repr_markdown_().startswith("```python\ndef mrr(")


def test_unknown_exercise_or_language_is_an_input_error():
    with pytest.raises(InputError, match="no exercise '99.1'"):
        check("99.1", 0)
    with pytest.raises(InputError, match="lang must be 'zh' or 'en'"):
        check("99.1", 0, lang="fr")
