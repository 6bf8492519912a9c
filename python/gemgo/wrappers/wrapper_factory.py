"""GEM's module path for the wrapper factory (gem.wrappers.wrapper_factory),
so scripts that import from it run with gemgo as gem."""

from . import WRAPPER_FACTORY, get_wrapper_fns

__all__ = ["WRAPPER_FACTORY", "get_wrapper_fns"]
