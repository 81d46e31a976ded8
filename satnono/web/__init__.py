"""The live level editor behind ``satnono edit``.

:mod:`satnono.web.document` validates the page's documents into puzzles;
:mod:`satnono.web.session` holds the library calls the page uses, on plain
JSON-ready documents (testable without HTTP); :mod:`satnono.web.server` is the
Starlette app and the only module that knows HTTP.  The page itself is static
package data under ``static/`` (HTML, CSS, JavaScript modules; no build step).
Nothing here is imported by ``import satnono``.
"""
