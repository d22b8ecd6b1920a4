"""Publishing: run the notebooks headless (:mod:`~reteval.book.pipeline`), check the two
language editions (:mod:`~reteval.book.editions`) and build the offline HTML book
(:mod:`~reteval.book.html`, its pages sanitised by :mod:`~reteval.book.sanitise`).

``reteval run``, ``reteval book`` and ``reteval notebooks`` (the notebooks an
installation carries, :mod:`~reteval.book.shipped`) are the command-line faces of this package.
"""

from reteval._util.lazy import lazy_names

_HOMES = {
    "build_book": "html",
    "load_params": "pipeline", "run_pipeline": "pipeline",
    "check_bilingual": "editions", "edition": "editions",
}
__all__ = ["build_book", "check_bilingual", "edition", "load_params",
           "run_pipeline"]
__getattr__, __dir__ = lazy_names(
    __name__, {name: f"reteval.book.{module}" for name, module in _HOMES.items()}, __all__)
