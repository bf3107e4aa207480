"""ctypes bindings of libfricbench's client calls (include/fricbench/fricbench.h).

The functions below are the ones the command line uses for `run --metrics`, `list --json`
and `compare`, so the package's numbers are the CLI's to the last bit.  The library is
found, in order, at $FRICBENCH_LIBRARY, next to the package's install (the path meson
wrote into _config.py), then by the loader's search (ctypes.util.find_library).
"""
import ctypes
import ctypes.util
import os

try:
    from . import _config  # written by meson at install
except ImportError:  # the source tree (the tests set FRICBENCH_LIBRARY)
    _config = None

FB_ERR_LEN = 512


class Error(Exception):
    """A fricbench failure: the library's one-line message (and its status code)."""

    def __init__(self, message, status=None):
        super().__init__(message)
        self.message = message
        self.status = status


class _Err(ctypes.Structure):
    _fields_ = [("msg", ctypes.c_char * FB_ERR_LEN)]

    def text(self):
        return self.msg.decode("utf-8", "replace")


class CaseSummary(ctypes.Structure):
    """fb_case_summary of fricbench.h."""
    _fields_ = [("status", ctypes.c_int),
                ("message", ctypes.c_char * FB_ERR_LEN),
                ("t_reached", ctypes.c_double),
                ("nsteps", ctypes.c_ulong), ("nrejected", ctypes.c_ulong),
                ("nfe", ctypes.c_ulong), ("njac", ctypes.c_ulong),
                ("wall_s", ctypes.c_double)]


class CompareOpts(ctypes.Structure):
    """fb_compare_opts of fricbench.h."""
    _fields_ = [("rtol", ctypes.c_double), ("time_rtol", ctypes.c_double),
                ("json", ctypes.c_int)]


def _candidates():
    env = os.environ.get("FRICBENCH_LIBRARY")
    if env:
        yield env
        return
    if _config is not None and _config.LIBRARY:
        yield _config.LIBRARY
    found = ctypes.util.find_library("fricbench")
    if found:
        yield found


_handle = None  # the loaded library (one per process, as the loader keeps it anyway)


def lib():
    """The loaded libfricbench, its client calls typed."""
    global _handle
    if _handle is not None:
        return _handle
    tried = []
    for path in _candidates():
        try:
            h = ctypes.CDLL(path)
            break
        except OSError as e:
            tried.append(f"{path} ({e})")
    else:
        raise Error("libfricbench not found: set FRICBENCH_LIBRARY to its path"
                    + (f"; tried {', '.join(tried)}" if tried else ""))
    vp, cp, dbl = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_double
    errp = ctypes.POINTER(_Err)
    sig = {
        "fb_version": (cp, []),
        "fb_catalog_json": (ctypes.c_int, [vp, errp]),
        "fb_case_integrator_for": (ctypes.c_int, [cp, cp, cp, ctypes.c_int,
                                                  ctypes.POINTER(cp),
                                                  ctypes.POINTER(ctypes.c_int), errp]),
        "fb_case_open": (vp, [cp, cp, cp, errp]),
        "fb_case_assign": (ctypes.c_int, [vp, cp, errp]),
        "fb_case_stepping": (ctypes.c_int, [vp, dbl, dbl, dbl, errp]),
        "fb_case_execute_metrics": (ctypes.c_int, [vp, ctypes.c_size_t, vp, vp,
                                                   ctypes.POINTER(CaseSummary), errp]),
        "fb_case_close": (None, [vp]),
        "fb_compare_dirs": (ctypes.c_int, [cp, cp, ctypes.POINTER(CompareOpts), vp,
                                           ctypes.POINTER(ctypes.c_int), errp]),
        "fb_plugin_load": (ctypes.c_int, [cp, errp]),
    }
    for name, (res, args) in sig.items():
        f = getattr(h, name)
        f.restype, f.argtypes = res, args
    _handle = h
    return h


class CFile:
    """A C stream (FILE *) on a path, for the library's output; closed on exit."""
    _libc = None

    def __init__(self, path, mode="w"):
        if CFile._libc is None:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
            libc.fopen.restype, libc.fopen.argtypes = ctypes.c_void_p, [ctypes.c_char_p,
                                                                        ctypes.c_char_p]
            libc.fclose.restype, libc.fclose.argtypes = ctypes.c_int, [ctypes.c_void_p]
            CFile._libc = libc
        self.fp = CFile._libc.fopen(os.fsencode(path), mode.encode())
        if not self.fp:
            raise Error(f"cannot open {path} for writing")

    def __enter__(self):
        return self.fp

    def __exit__(self, *exc):
        if self.fp and CFile._libc.fclose(self.fp) != 0 and exc[0] is None:
            raise Error("closing an output stream failed")
        self.fp = None


def new_err():
    return _Err()


def check(status, err):
    """Raise Error with the library's message when status is not FB_OK (0)."""
    if status != 0:
        raise Error(err.text() or f"fricbench status {status}", status)
