"""Writing files so that nothing the user had is lost: a new file appears whole or not at all
(:func:`write_atomic`), an existing one is replaced only when asked, a folder of outputs is
replaced in one rename (:func:`save_folder`); a failed write names the target
(:class:`WriteError`), never a temporary file.
"""

from __future__ import annotations

import errno
import os
from typing import Callable

__all__ = ["WriteError", "save_folder", "write_atomic"]


def write_atomic(path: str, data: bytes, overwrite: bool = False) -> None:
    """Write ``data`` to the file ``path`` through a temporary file in the same directory.

    A crash or Ctrl-C leaves either the old file or the new one, never a mix; the new file
    keeps the old one's permissions.

    Raises:
        FileExistsError: ``path`` exists and ``overwrite`` is false.
        OSError: the file cannot be written.
    """
    if not overwrite and os.path.lexists(path):
        raise FileExistsError(errno.EEXIST, "refusing to overwrite an existing file", path)
    directory = os.path.dirname(os.path.abspath(path))
    try:
        _write_via_temporary(path, directory, data, overwrite)
    except FileExistsError:
        raise
    except OSError as e:  # named by the target, not by the hidden temporary file
        raise WriteError(e.errno, e.strerror or str(e), path) from None


class WriteError(OSError):
    """A file could not be written; ``str()`` is ``PATH: cannot write: REASON``, as every
    writer words it."""

    def __str__(self) -> str:
        return f"{self.filename}: cannot write: {self.strerror}"


def _write_via_temporary(path: str, directory: str, data: bytes, overwrite: bool) -> None:
    import tempfile

    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, _new_file_mode(path))
        if overwrite:
            os.replace(tmp, path)
        else:
            _link_no_clobber(tmp, path)
    finally:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass


def _new_file_mode(path: str) -> int:
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        pass
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _link_no_clobber(tmp: str, path: str) -> None:
    """Move ``tmp`` to ``path`` unless ``path`` exists, atomically where hard links work."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise FileExistsError(errno.EEXIST, "refusing to overwrite an existing file", path) from None
    except OSError:  # no hard links on this file system: check, then rename
        if os.path.lexists(path):
            raise FileExistsError(errno.EEXIST, "refusing to overwrite an existing file", path) from None
        os.replace(tmp, path)


def save_folder(path: str, files: dict[str, bytes], overwrite: bool = False,
                replaceable: Callable[[str], bool] = lambda name: False) -> None:
    """Write ``files`` (name -> content) as a new folder ``path``, all at once.

    The files are written into a temporary folder next to ``path`` which is
    then renamed into place, so ``path`` never holds a partial set.  An
    existing ``path`` is replaced only with ``overwrite`` and only when it is a
    folder whose every entry satisfies ``replaceable`` (a previous output of
    the same kind): a folder with other files is never deleted.

    Raises:
        FileExistsError: ``path`` exists and may not be replaced.
        OSError: the folder cannot be written.
    """
    import shutil
    import tempfile

    if os.path.lexists(path):
        if not overwrite:
            raise FileExistsError(errno.EEXIST, "refusing to overwrite an existing file or folder", path)
        if not os.path.isdir(path) or os.path.islink(path) or not all(replaceable(n) for n in os.listdir(path)):
            raise FileExistsError(errno.EEXIST, "exists and holds other files; not replaced", path)
    parent = os.path.dirname(os.path.abspath(path))
    base = os.path.basename(os.path.abspath(path))
    tmp = tempfile.mkdtemp(dir=parent, prefix=f".{base}.", suffix=".tmp")
    old = None
    try:
        for name, data in files.items():
            with open(os.path.join(tmp, name), "xb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
        os.chmod(tmp, 0o777 & ~_umask())
        if os.path.lexists(path):
            if not overwrite:  # appeared while writing
                raise FileExistsError(errno.EEXIST, "refusing to overwrite an existing file or folder", path)
            old = tempfile.mkdtemp(dir=parent, prefix=f".{base}.", suffix=".old")
            os.rmdir(old)
            os.rename(path, old)
        try:
            os.rename(tmp, path)
        except OSError:
            if old is not None:
                os.rename(old, path)  # put the previous output back
                old = None
            raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
