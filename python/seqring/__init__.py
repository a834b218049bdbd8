# SPDX-License-Identifier: GPL-2.0
"""seqring: push readings into a seqring ring and read them back.

A pure-Python client of the device /dev/seqring (and /dev/seqring-NAME,
rings a driver created), through the ioctls and the stream of
<linux/seqring.h>; the same things libseqring does for C:

    import seqring
    with seqring.Ring() as ring:               # /dev/seqring; Ring("timerlat")
        ring.push(21, channel=3, label="kitchen")
        ring.push_batch([(1, 0, "a"), (2, 0, "b")])
        print(ring.stats().count)
        for rec in ring.readings():            # those held, oldest first
            print(rec.seq, rec.value, rec.label)
        for rec in ring.follow(timeout=5.0, cursor_file="/var/tmp/cursor"):
            ...                                # new ones; stops after 5 s without

A label is text: push() takes a str (or bytes), at most 15 bytes in
UTF-8, and Record.label is a str. A label that is not valid UTF-8 (a C
producer may push any bytes) is decoded as os.fsdecode() decodes a file
name, each byte that is not UTF-8 a lone surrogate (errors=
"surrogateescape"): nothing is lost, Record.label_bytes gives the bytes
back, and push() takes such a str and stores those bytes again.

Arguments are checked before anything is sent: a number out of its range
raises OverflowError, a wrong type TypeError, a label too long ValueError,
each naming the argument ("channel -1 is out of range 0..4294967295").

It reads the stream (read() and poll() on the device), never the mapping:
the mapping's consumer protocol (the UAPI header's DOC: mapping,
libseqring's srl_map_*) needs atomic loads and fences that Python does
not have, and a Python consumer gains nothing from skipping read().

The layouts below are checked against the UAPI header by
tests/packages/26-python.sh, which compiles the header and compares every
size, offset and ioctl number with LAYOUTS and IOCTLS.
"""

import errno
import fcntl
import os
import select
import struct
from collections import namedtuple

__all__ = ["Ring", "Reading", "Record", "Stats", "LABEL_LEN", "BATCH_MAX"]

LABEL_LEN = 16            # SEQRING_LABEL_LEN, with the terminating NUL
BATCH_MAX = 65536         # SEQRING_BATCH_MAX
DEFAULT_DEVICE = "/dev/seqring"

# Fixed-size fields, no padding: "=" (native order, standard sizes).
_READING = struct.Struct("=QqII16s")     # timestamp_ns value channel flags label
_RECORD = struct.Struct("=Q" + _READING.format[1:])   # seq, then the reading
_STATS = struct.Struct("=8Q")
_BATCH = struct.Struct("=QII")           # readings (pointer) count flags
_U32 = struct.Struct("=I")

# struct: (size, {member: offset}); compared with the C header's by the test.
LAYOUTS = {
    "seqring_reading": (_READING.size, {
        "timestamp_ns": 0, "value": 8, "channel": 16, "flags": 20,
        "label": 24}),
    "seqring_record": (_RECORD.size, {"seq": 0, "reading": 8}),
    "seqring_stats": (_STATS.size, {
        "capacity": 0, "count": 8, "total": 16, "dropped": 24,
        "cleared": 32, "oldest_seq": 40, "newest_seq": 48, "lost": 56}),
    "seqring_batch": (_BATCH.size, {"readings": 0, "count": 8, "flags": 12}),
}


def _ioc(direction, nr, size):
    """asm-generic/ioctl.h's _IOC() (amd64, arm64, riscv64)."""
    return (direction << 30) | (size << 16) | (0xB9 << 8) | nr


_W, _R = 1, 2
IOCTLS = {
    "SEQRING_IOC_PUSH": _ioc(_W, 0x01, _READING.size),
    "SEQRING_IOC_PUSH_BATCH": _ioc(_W, 0x02, _BATCH.size),
    "SEQRING_IOC_GET_STATS": _ioc(_R, 0x03, _STATS.size),
    "SEQRING_IOC_CLEAR": _ioc(0, 0x04, 0),
    "SEQRING_IOC_SET_WAKEUP": _ioc(_W, 0x05, 4),
    "SEQRING_IOC_SET_CAPACITY": _ioc(_W, 0x06, 4),
    "SEQRING_IOC_SET_CURSOR": _ioc(_W, 0x07, 8),
}

Reading = namedtuple("Reading", "value channel label timestamp_ns",
                     defaults=(0, "", 0))
Stats = namedtuple("Stats", "capacity count total dropped cleared "
                   "oldest_seq newest_seq lost")


class Record(namedtuple("Record", "seq timestamp_ns value channel label")):
    """A reading read back: its label a str (see the module's help)."""
    __slots__ = ()

    @property
    def label_bytes(self):
        """The label's bytes, as the ring holds them."""
        return self.label.encode("utf-8", "surrogateescape")


# The range of each field of struct seqring_reading, for the messages.
_RANGES = {
    "value": (-2**63, 2**63 - 1),
    "channel": (0, 2**32 - 1),
    "timestamp_ns": (0, 2**64 - 1),
    "capacity": (0, 2**32 - 1),
}


def _number(name, v):
    """@v checked for the field @name: an int within its range."""
    if not isinstance(v, int):
        raise TypeError(f"{name} must be an int, not {type(v).__name__}")
    lo, hi = _RANGES[name]
    if not lo <= v <= hi:
        raise OverflowError(f"{name} {v} is out of range {lo}..{hi}")
    return v


def _label(label):
    """A label as the bytes the ring keeps: str as UTF-8, at most 15."""
    if isinstance(label, str):
        label = label.encode("utf-8", "surrogateescape")
    elif not isinstance(label, (bytes, bytearray)):
        raise TypeError(f"label must be a str or bytes, "
                        f"not {type(label).__name__}")
    if len(label) > LABEL_LEN - 1:
        raise ValueError(f"label {label!r} has {len(label)} bytes, "
                         f"at most {LABEL_LEN - 1}")
    return bytes(label)


def _pack(reading):
    r = reading if isinstance(reading, Reading) else Reading(*reading)
    return _READING.pack(_number("timestamp_ns", r.timestamp_ns),
                         _number("value", r.value),
                         _number("channel", r.channel), 0, _label(r.label))


def unpack_records(buf):
    """The records in @buf, whole struct seqring_record each."""
    for off in range(0, len(buf) - len(buf) % _RECORD.size, _RECORD.size):
        seq, ts, value, channel, _flags, label = _RECORD.unpack_from(buf, off)
        yield Record(seq, ts, value, channel,
                     label.split(b"\0", 1)[0].decode("utf-8",
                                                      "surrogateescape"))


def load_cursor(path):
    """The sequence number a cursor file holds, or None if there is none."""
    try:
        with open(path, encoding="ascii") as f:
            text = f.read()
    except FileNotFoundError:
        return None
    if not text.rstrip("\n").isdigit():
        raise ValueError(f"{path}: not a cursor (one sequence number expected)")
    return int(text)


def save_cursor(path, seq):
    """Replace the cursor file whole, as seqringctl does (FILE.tmp renamed)."""
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="ascii") as f:
        f.write(f"{seq}\n")
    os.replace(tmp, path)


class Ring:
    """An open ring: Ring() is /dev/seqring, Ring("NAME") /dev/seqring-NAME,
    Ring(device=PATH) any node. Opened read-write, or read-only with
    write=False (a member of group seqring may do both)."""

    def __init__(self, name=None, device=None, write=True):
        if device is None:
            device = DEFAULT_DEVICE + (f"-{name}" if name else "")
        self.device = device
        flags = (os.O_RDWR if write else os.O_RDONLY) | os.O_NONBLOCK
        self.fd = os.open(device, flags | os.O_CLOEXEC)

    def close(self):
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def push(self, value, channel=0, label="", timestamp_ns=0):
        """One reading; timestamp_ns 0 lets the driver stamp it."""
        fcntl.ioctl(self.fd, IOCTLS["SEQRING_IOC_PUSH"],
                    _pack(Reading(value, channel, label, timestamp_ns)))

    def push_batch(self, readings):
        """Readings (Reading or (value, channel, label[, ts]) tuples), in
        batches of BATCH_MAX, each stored whole or not at all; nothing is
        pushed if one of them is wrong (the error names its index)."""
        packed = []
        for i, r in enumerate(readings):
            try:
                packed.append(_pack(r))
            except (TypeError, ValueError, OverflowError) as e:
                raise type(e)(f"readings[{i}]: {e}") from None
        for i in range(0, len(packed), BATCH_MAX):
            chunk = bytearray(b"".join(packed[i:i + BATCH_MAX]))
            addr = _address(chunk)
            fcntl.ioctl(self.fd, IOCTLS["SEQRING_IOC_PUSH_BATCH"],
                        _BATCH.pack(addr, len(chunk) // _READING.size, 0))

    def stats(self):
        buf = fcntl.ioctl(self.fd, IOCTLS["SEQRING_IOC_GET_STATS"],
                          bytes(_STATS.size))
        return Stats(*_STATS.unpack(buf))

    def clear(self):
        fcntl.ioctl(self.fd, IOCTLS["SEQRING_IOC_CLEAR"])

    def set_capacity(self, capacity):
        fcntl.ioctl(self.fd, IOCTLS["SEQRING_IOC_SET_CAPACITY"],
                    _U32.pack(_number("capacity", capacity)))

    def _read(self):
        """Records from this file's cursor; [] when there are none yet.
        Readings overwritten before they were read are skipped (EPIPE)."""
        while True:
            try:
                return list(unpack_records(os.read(self.fd,
                                                   256 * _RECORD.size)))
            except BlockingIOError:
                return []
            except OSError as e:
                if e.errno != errno.EPIPE:
                    raise

    def readings(self, after=0):
        """The readings held now, oldest first, after sequence number
        @after; then the iteration ends. Each call starts again at the
        oldest held (the file's cursor goes back there: follow() goes on
        from where the readings left it)."""
        os.lseek(self.fd, 0, os.SEEK_SET)
        end = self.stats().total
        while True:
            recs = self._read()
            for rec in recs:
                if rec.seq > end:
                    return
                if rec.seq > after:
                    yield rec
            if not recs:
                return

    def follow(self, timeout=None, after=None, cursor_file=None):
        """The readings held and then each new one as it comes, after
        sequence number @after (or the one @cursor_file holds, saved there
        as they are yielded). Ends when @timeout seconds pass without one
        (None: never)."""
        if after is None and cursor_file:
            after = load_cursor(cursor_file)
        after = after or 0
        poller = select.poll()
        poller.register(self.fd, select.POLLIN)
        while True:
            recs = self._read()
            for rec in recs:
                if rec.seq <= after:
                    continue
                yield rec
                after = rec.seq
                if cursor_file:
                    save_cursor(cursor_file, after)
            if recs:
                continue
            ms = None if timeout is None else int(timeout * 1000)
            if not poller.poll(ms):
                return


def _address(buf):
    """The address of a bytearray's data, for struct seqring_batch."""
    import ctypes
    return ctypes.addressof(ctypes.c_char.from_buffer(buf))
