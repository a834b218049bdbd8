# SPDX-License-Identifier: GPL-2.0
"""The module seqring against the real driver, one behaviour per test.

Run by tests/check/68-python.sh in the test VM, with seqring.ko loaded
(capacity=64) and /dev/seqring there; as root, or as a member of group
seqring. Each test starts with the ring cleared (sequence numbers go on,
so each test compares against the counters it finds).
"""

import os
import threading
import time

import pytest

import seqring

DEVICE = os.environ.get("SEQRING_DEVICE", "/dev/seqring")


@pytest.fixture
def ring():
    with seqring.Ring(device=DEVICE) as r:
        r.clear()
        yield r


def test_push_one_reading(ring):
    before = ring.stats().total
    ring.push(21, channel=3, label="kitchen")
    recs = list(ring.readings())
    assert [(r.seq, r.value, r.channel, r.label) for r in recs] == \
        [(before + 1, 21, 3, "kitchen")]


def test_push_stamps_with_the_drivers_time(ring):
    t0 = time.time_ns()
    ring.push(1)
    ring.push(2, timestamp_ns=1234)
    a, b = list(ring.readings())
    assert t0 <= a.timestamp_ns <= time.time_ns()
    assert b.timestamp_ns == 1234


def test_push_batch_in_order(ring):
    batch = [(i, i % 3, f"l{i}") for i in range(50)]
    ring.push_batch(batch)
    recs = list(ring.readings())
    assert [(r.value, r.channel, r.label) for r in recs] == \
        [(v, c, lab) for v, c, lab in batch]
    assert [r.seq for r in recs] == list(range(recs[0].seq, recs[0].seq + 50))


def test_batch_is_all_or_nothing(ring):
    total = ring.stats().total
    with pytest.raises(ValueError):
        ring.push_batch([(1, 0, "ok"), (2, 0, "sixteen bytes!!!")])
    assert ring.stats().total == total


def test_stats_add_up(ring):
    ring.push_batch([(i, 0, "") for i in range(100)])     # capacity 64
    s = ring.stats()
    assert (s.capacity, s.count) == (64, 64)
    assert s.total == s.count + s.dropped + s.cleared
    assert s.newest_seq == s.total
    assert s.oldest_seq == s.total - 63


def test_clear_counts_and_keeps_sequence_numbers(ring):
    ring.push_batch([(i, 0, "") for i in range(5)])
    before = ring.stats()
    ring.clear()
    after = ring.stats()
    assert (after.count, after.cleared, after.total) == \
        (0, before.cleared + 5, before.total)
    ring.push(7)
    assert [r.seq for r in ring.readings()] == [before.total + 1]


def test_readings_ends_and_skips_what_was_overwritten(ring):
    ring.push_batch([(i, 0, "") for i in range(100)])     # 36 overwritten
    values = [r.value for r in ring.readings()]
    assert values == list(range(36, 100))


def test_readings_after_a_sequence_number(ring):
    ring.push_batch([(i, 0, "") for i in range(10)])
    recs = list(ring.readings())
    assert [r.value for r in ring.readings(after=recs[6].seq)] == [7, 8, 9]


def test_follow_ends_after_its_timeout(ring):
    ring.push(1)
    t0 = time.monotonic()
    got = [r.value for r in ring.follow(timeout=0.3)]
    waited = time.monotonic() - t0
    assert got == [1]
    assert 0.25 <= waited < 3, f"follow(timeout=0.3) returned after {waited:.2f} s"


def test_follow_yields_a_reading_pushed_later(ring):
    def later():
        time.sleep(0.2)
        with seqring.Ring(device=DEVICE) as w:
            w.push(42, label="late")
    t = threading.Thread(target=later)
    t.start()
    got = [(r.value, r.label) for r in ring.follow(timeout=2)]
    t.join()
    assert got == [(42, "late")]


def test_follow_resumes_from_a_cursor_file(ring, tmp_path):
    cursor = str(tmp_path / "cursor")
    ring.push_batch([(i, 0, "") for i in range(3)])
    with seqring.Ring(device=DEVICE, write=False) as r:
        first = [rec.value for rec in r.follow(timeout=0.1, cursor_file=cursor)]
    ring.push_batch([(i, 0, "") for i in range(3, 5)])
    with seqring.Ring(device=DEVICE, write=False) as r:
        second = [rec.value for rec in r.follow(timeout=0.1, cursor_file=cursor)]
    assert (first, second) == ([0, 1, 2], [3, 4])
    assert seqring.load_cursor(cursor) == ring.stats().total


def test_cursor_file_is_seqringctls(ring, tmp_path):
    ring.push(5)
    cursor = str(tmp_path / "cursor")
    list(ring.follow(timeout=0.1, cursor_file=cursor))
    with open(cursor) as f:
        assert f.read() == f"{ring.stats().total}\n"


def test_label_too_long_pushes_nothing(ring):
    total = ring.stats().total
    with pytest.raises(ValueError):
        ring.push(1, label="sixteen bytes!!!")
    assert ring.stats().total == total


def test_labels_are_text_and_any_bytes_come_back(ring):
    ring.push(1, label="café")
    ring.push(2, label=b"caf\xe9")                     # not UTF-8
    a, b = list(ring.readings())
    assert (a.label, a.label_bytes) == ("café", "café".encode())
    assert (b.label, b.label_bytes) == ("caf\udce9", b"caf\xe9")
    ring.push(3, label=b.label)                        # the str goes back
    assert list(ring.readings())[-1].label_bytes == b"caf\xe9"


def test_bad_arguments_name_the_argument(ring):
    total = ring.stats().total
    for args, error, name in [
            (dict(value=2**63), OverflowError, "value"),
            (dict(value=-2**63 - 1), OverflowError, "value"),
            (dict(value=1, channel=-1), OverflowError, "channel"),
            (dict(value=1, channel=2**32), OverflowError, "channel"),
            (dict(value=1, timestamp_ns=-1), OverflowError, "timestamp_ns"),
            (dict(value="1"), TypeError, "value"),
            (dict(value=1, label=7), TypeError, "label")]:
        with pytest.raises(error, match=f"^{name} "):
            ring.push(**args)
    assert ring.stats().total == total


def test_bad_reading_in_a_batch_names_its_index(ring):
    total = ring.stats().total
    with pytest.raises(OverflowError, match=r"^readings\[1\]: channel "):
        ring.push_batch([(1, 0, ""), (2, -1, "")])
    assert ring.stats().total == total


def test_read_only_ring_cannot_push(ring):
    with seqring.Ring(device=DEVICE, write=False) as r:
        with pytest.raises(OSError):
            r.push(1)
