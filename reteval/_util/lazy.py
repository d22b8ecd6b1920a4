"""Public names of a package loaded on first use (PEP 562), so that imports stay cheap.

Examples
--------
>>> __getattr__, __dir__ = lazy_names("reteval.io", {"read_run": "reteval.io.named"}, [])
>>> __getattr__("read_run").__name__
'read_run'
"""

import importlib
from types import ModuleType

__all__ = ["LazyModule", "lazy_names"]


class LazyModule:
    """A module imported on first attribute access: ``_st = LazyModule("scipy.stats")``.

    ``import scipy.stats`` takes more than half a second; a module that needs it
    in a few functions binds this instead, so that importing the module (and the
    command lines that use its other functions) does not pay for it.

    Examples
    --------
    >>> special = LazyModule("scipy.special")
    >>> float(special.expit(0.0))
    0.5
    """

    def __init__(self, name: str):
        self._name = name

    def __getattr__(self, attr):
        return getattr(importlib.import_module(self._name), attr)

    def __repr__(self) -> str:
        return f"LazyModule({self._name!r})"


def lazy_names(package: str, homes: dict[str, str], public: list[str]):
    """A package's ``__getattr__`` and ``__dir__``: name -> the module that defines it.

    Parameters
    ----------
    package : str
        The package's name, for the error message.
    homes : dict
        Public name -> full name of the module that defines it, imported on first use.
    public : list of str
        The package's ``__all__``, listed by ``dir()``.
    """

    def __getattr__(name):
        if name not in homes:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = importlib.import_module(package)
        home = importlib.import_module(homes[name])
        value = getattr(home, name)
        setattr(module, name, value)  # later lookups find it directly
        # importing a submodule binds its name in the package: a public name spelled like
        # its module (reteval.comparison.compare) is bound again to what it names
        for other, where in homes.items():
            if where == homes[name] and isinstance(vars(module).get(other), ModuleType):
                setattr(module, other, getattr(home, other))
        return value

    def __dir__():
        return sorted(set(vars(importlib.import_module(package))) | set(public))

    return __getattr__, __dir__
