// SPDX-License-Identifier: GPL-2.0
/*
 * map_unit - TAP unit test of libseqring's mapping consumer (srl_map_*),
 * without the driver
 *
 * Usage: map_unit [READINGS]
 *
 * The mapping is faked: a memfd laid out as the driver lays out its mapping
 * (<linux/seqring.h>: the meta page, then the slots), written through a
 * second, writable mapping by a producer that keeps the driver's protocol
 * (driver/ring.c's ordering comment, 1.-4.): raise oldest_seq, claim the
 * slot with a fully ordered exchange to SEQ | SEQRING_SEQ_BUSY, store the
 * reading word by word, release the slot's seq, publish next_seq. The
 * library maps the memfd read-only as it maps a device. Each test builds
 * the state it needs and says what it expected and what it got.
 *
 * The last test runs that producer in a thread against the consumer, on a
 * ring of 16 slots so that it is overrun all the time: every reading read
 * must be the one pushed with its sequence number (each word of it derived
 * from the number: a torn copy shows), in order, and what it skips must be
 * what srl_map_lost() counts, until it has read READINGS (default 1000000). Built
 * also as map_unit32 (-m32): the 32-bit library's 64-bit loads. Runs on
 * the host (make check-lib) and in the VM (tests/check/96-mmap.sh).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/seqring.h>

#include "../../tools/lib/libseqring.h"
#include "tap.h"

#define UNIT_CAPACITY	16
#define READ_BATCH	64

struct fake {
	int fd;
	size_t len;
	struct seqring_mmap_meta *meta;
	atomic_ullong *next_seq, *oldest_seq, *flags;
	unsigned char *slots;
	__u32 capacity;
};

static atomic_ullong *fake_seq(struct fake *f, __u64 s)
{
	return (atomic_ullong *)(f->slots + (s % f->capacity) *
				 sizeof(struct seqring_mmap_slot));
}

/* Reading @s as the producers push it: every word derived from @s. */
static void make_reading(struct seqring_reading *r, __u64 s)
{
	memset(r, 0, sizeof(*r));
	r->timestamp_ns = s * 3;
	r->value = -(__s64)s;
	r->channel = (__u32)s;
	snprintf(r->label, sizeof(r->label), "r%llu", (unsigned long long)s);
}

static bool reading_is(const struct seqring_reading *r, __u64 s)
{
	struct seqring_reading want;

	make_reading(&want, s);
	return !memcmp(r, &want, sizeof(want));
}

/* A new ring of @capacity slots, empty, sequence numbers from 1. */
static void fake_init(struct fake *f, __u32 capacity)
{
	long page = sysconf(_SC_PAGESIZE);

	memset(f, 0, sizeof(*f));
	f->capacity = capacity;
	f->len = page + capacity * sizeof(struct seqring_mmap_slot);
	f->fd = memfd_create("map_unit", MFD_CLOEXEC);
	if (f->fd < 0 || ftruncate(f->fd, f->len))
		tap_bail("memfd: %s", strerror(errno));
	f->meta = mmap(NULL, f->len, PROT_READ | PROT_WRITE, MAP_SHARED,
		       f->fd, 0);
	if (f->meta == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));
	f->meta->version = SEQRING_MMAP_VERSION;
	f->meta->meta_size = page;
	f->meta->slot_size = sizeof(struct seqring_mmap_slot);
	f->meta->capacity = capacity;
	f->meta->slots_offset = page;
	f->next_seq = (atomic_ullong *)&f->meta->next_seq;
	f->oldest_seq = (atomic_ullong *)&f->meta->oldest_seq;
	f->flags = (atomic_ullong *)&f->meta->flags;
	atomic_store(f->next_seq, 1);
	atomic_store(f->oldest_seq, 1);
	f->slots = (unsigned char *)f->meta + page;
}

static void fake_free(struct fake *f)
{
	munmap(f->meta, f->len);
	close(f->fd);
}

/*
 * Store reading @s as the driver does (one producer at a time here): 1.
 * oldest_seq past what it overwrites, 2. a fully ordered claim, 3. the
 * words, then the release of seq. Not published yet.
 */
static void fake_store(struct fake *f, __u64 s)
{
	atomic_ullong *seq = fake_seq(f, s);
	atomic_ullong *word = seq + 1;
	struct seqring_reading r;
	__u64 w[sizeof(r) / sizeof(__u64)];
	size_t i;

	if (s > f->capacity)
		atomic_store_explicit(f->oldest_seq, s - f->capacity + 1,
				      memory_order_relaxed);
	atomic_exchange(seq, s | SEQRING_SEQ_BUSY);
	make_reading(&r, s);
	memcpy(w, &r, sizeof(w));
	for (i = 0; i < ARRAY_SIZE(w); i++)
		atomic_store_explicit(&word[i], w[i], memory_order_relaxed);
	atomic_store_explicit(seq, s, memory_order_release);
}

/* 4.: publish everything below @next (fully ordered, as the cmpxchg). */
static void fake_publish(struct fake *f, __u64 next)
{
	atomic_store(f->next_seq, next);
}

static void fake_push(struct fake *f, __u64 s)
{
	fake_store(f, s);
	fake_publish(f, s + 1);
}

static struct srl_map *map_fake(struct fake *f)
{
	struct srl_map *map = NULL;
	int ret;

	ret = srl_map_open(f->fd, &map);
	if (ret)
		tap_bail("srl_map_open: expected 0, got %s", errname(-ret));
	return map;
}

/* A meta page this library must refuse. */
static void test_refuse(const char *what, void (*spoil)(struct fake *))
{
	struct srl_map *map = NULL;
	struct fake f;
	int ret;

	fake_init(&f, 4);
	spoil(&f);
	ret = srl_map_open(f.fd, &map);
	if (!tap_result(ret == -EPROTONOSUPPORT, "refused: %s", what))
		tap_diag("expected EPROTONOSUPPORT, got %s",
			 ret ? errname(-ret) : "a mapping");
	if (!ret)
		srl_map_close(map);
	fake_free(&f);
}

static void spoil_version(struct fake *f)
{
	f->meta->version = SEQRING_MMAP_VERSION + 1;
}

static void spoil_slot_size(struct fake *f)
{
	f->meta->slot_size = sizeof(struct seqring_reading);
}

static void spoil_offset(struct fake *f)
{
	f->meta->slots_offset = 4;
}

static void spoil_capacity(struct fake *f)
{
	f->meta->capacity = 0;
}

static void test_refusals(void)
{
	test_refuse("a version it does not know", spoil_version);
	test_refuse("slots of another size", spoil_slot_size);
	test_refuse("slots that overlap the meta fields", spoil_offset);
	test_refuse("capacity 0", spoil_capacity);
}

static void test_empty(void)
{
	struct seqring_record rec[4];
	struct srl_map *map;
	struct fake f;
	ssize_t n;

	fake_init(&f, 4);
	map = map_fake(&f);
	n = srl_map_read(map, rec, ARRAY_SIZE(rec));
	if (!tap_result(n == -EAGAIN && srl_map_cursor(map) == 1,
			"an empty ring: -EAGAIN, cursor at 1"))
		tap_diag("expected -EAGAIN and 1, got %zd and %llu", n,
			 (unsigned long long)srl_map_cursor(map));
	srl_map_close(map);
	fake_free(&f);
}

/* Readings 1..3 pushed, then read 2 and 1 at a time. */
static void test_in_order(void)
{
	struct seqring_record rec[4];
	struct srl_map *map;
	ssize_t n1, n2, n3;
	struct fake f;
	bool ok;

	fake_init(&f, 4);
	map = map_fake(&f);
	fake_push(&f, 1);
	fake_push(&f, 2);
	fake_push(&f, 3);
	n1 = srl_map_read(map, rec, 2);
	ok = n1 == 2 && rec[0].seq == 1 && reading_is(&rec[0].reading, 1) &&
	     rec[1].seq == 2 && reading_is(&rec[1].reading, 2);
	n2 = srl_map_read(map, rec, 4);
	ok = ok && n2 == 1 && rec[0].seq == 3 &&
	     reading_is(&rec[0].reading, 3);
	n3 = srl_map_read(map, rec, 4);
	if (!tap_result(ok && n3 == -EAGAIN && !srl_map_lost(map),
			"readings in order, whole, at most COUNT a call"))
		tap_diag("expected 2, 1, -EAGAIN, seqs 1-3, lost 0; got %zd, %zd, %zd, lost %llu",
			 n1, n2, n3, (unsigned long long)srl_map_lost(map));
	srl_map_close(map);
	fake_free(&f);
}

/* Capacity 4, 10 pushed behind the reader's back: 1-6 are gone. */
static void test_overrun(void)
{
	struct seqring_record rec[8];
	struct srl_map *map;
	ssize_t n1, n2, n3;
	struct fake f;
	__u64 s;

	fake_init(&f, 4);
	map = map_fake(&f);
	for (s = 1; s <= 10; s++)
		fake_push(&f, s);
	n1 = srl_map_read(map, rec, 8);
	n2 = srl_map_read(map, rec, 8);
	if (!tap_result(n1 == -EPIPE && n2 == 4 && rec[0].seq == 7 &&
			reading_is(&rec[3].reading, 10) &&
			srl_map_lost(map) == 6,
			"overrun: -EPIPE once, the lost counted, then from the oldest"))
		tap_diag("expected -EPIPE, 4 from seq 7, lost 6; got %zd, %zd from %llu, lost %llu",
			 n1, n2, (unsigned long long)rec[0].seq,
			 (unsigned long long)srl_map_lost(map));
	n3 = srl_map_read(map, rec, 8);
	if (!tap_result(n3 == -EAGAIN, "... and -EPIPE only once"))
		tap_diag("expected -EAGAIN, got %zd", n3);
	srl_map_close(map);
	fake_free(&f);
}

/* A CLEAR: oldest_seq raised to next_seq, the slots left as they are. */
static void test_clear(void)
{
	struct seqring_record rec[8];
	struct srl_map *map;
	struct fake f;
	ssize_t n1, n2;

	fake_init(&f, 8);
	map = map_fake(&f);
	fake_push(&f, 1);
	fake_push(&f, 2);
	fake_push(&f, 3);
	atomic_store(f.oldest_seq, 4);
	fake_push(&f, 4);
	n1 = srl_map_read(map, rec, 8);
	n2 = srl_map_read(map, rec, 8);
	if (!tap_result(n1 == -EPIPE && n2 == 1 && rec[0].seq == 4 &&
			srl_map_lost(map) == 3,
			"CLEAR: the cleared readings counted lost"))
		tap_diag("expected -EPIPE, 1 (seq 4), lost 3; got %zd, %zd (seq %llu), lost %llu",
			 n1, n2, (unsigned long long)rec[0].seq,
			 (unsigned long long)srl_map_lost(map));
	srl_map_close(map);
	fake_free(&f);
}

/* A slot that lost its reading while oldest_seq says it is held. */
static void test_broken(void)
{
	struct seqring_record rec[4];
	struct srl_map *map;
	struct fake f;
	ssize_t n;

	fake_init(&f, 4);
	map = map_fake(&f);
	fake_push(&f, 1);
	atomic_store(fake_seq(&f, 1), 5);
	n = srl_map_read(map, rec, 4);
	if (!tap_result(n == -EIO && srl_map_cursor(map) == 1,
			"a slot overwritten without oldest_seq raised: -EIO, nothing read"))
		tap_diag("expected -EIO at cursor 1, got %zd at %llu", n,
			 (unsigned long long)srl_map_cursor(map));
	srl_map_close(map);
	fake_free(&f);
}

static void test_gone(void)
{
	struct seqring_record rec[4];
	struct srl_map *map;
	ssize_t n1, n2;
	struct fake f;

	fake_init(&f, 4);
	map = map_fake(&f);
	fake_push(&f, 1);
	fake_push(&f, 2);
	atomic_store(f.flags, SEQRING_MMAP_GONE);
	n1 = srl_map_read(map, rec, 4);
	n2 = srl_map_read(map, rec, 4);
	if (!tap_result(n1 == 2 && n2 == 0,
			"GONE: the readings left, then 0 (end of file)"))
		tap_diag("expected 2 then 0, got %zd then %zd", n1, n2);
	srl_map_close(map);
	fake_free(&f);
}

static void test_seek(void)
{
	struct srl_map *map;
	__u64 end, start;
	struct fake f;
	__u64 s;

	fake_init(&f, 4);
	for (s = 1; s <= 6; s++)
		fake_push(&f, s);
	map = map_fake(&f);
	start = srl_map_cursor(map);
	srl_map_seek(map, UINT64_MAX);
	end = srl_map_cursor(map);
	srl_map_seek(map, 0);
	if (!tap_result(start == 3 && end == 7 && srl_map_cursor(map) == 3,
			"cursor from the oldest held; seek clamped to [oldest, next]"))
		tap_diag("expected 3, 7, 3; got %llu, %llu, %llu",
			 (unsigned long long)start, (unsigned long long)end,
			 (unsigned long long)srl_map_cursor(map));
	srl_map_close(map);
	fake_free(&f);
}

/*
 * A memfd has no SEQRING_IOC_SET_CURSOR: srl_map_wait() returns at once
 * when there is something to read, and asks the driver otherwise.
 */
static void test_wait(void)
{
	struct srl_map *map;
	struct fake f;
	int w1, w2;

	fake_init(&f, 4);
	map = map_fake(&f);
	w1 = srl_map_wait(map, 0);
	fake_push(&f, 1);
	w2 = srl_map_wait(map, 0);
	if (!tap_result(w1 == -ENOTTY && w2 == 1,
			"wait: SET_CURSOR when nothing is there, at once when something is"))
		tap_diag("expected -ENOTTY then 1, got %d then %d", w1, w2);
	srl_map_close(map);
	fake_free(&f);
}

static struct fake race;
static __u64 race_want;
static atomic_bool race_stop;
static __u64 race_pushed;

/* Pushes until told to stop: the consumer decides how long the race is. */
static void *race_producer(void *arg)
{
	unsigned int pause;
	__u64 s;

	(void)arg;
	for (s = 1; !atomic_load_explicit(&race_stop, memory_order_relaxed);
	     s++) {
		fake_push(&race, s);
		/*
		 * Now and then a pause of about a ring's worth of pushes, so
		 * that the consumer catches up and is overrun again, copying
		 * while the producer overwrites.
		 */
		if (!(s % UNIT_CAPACITY))
			for (pause = 0; pause < 200; pause++)
				atomic_signal_fence(memory_order_seq_cst);
	}
	race_pushed = s - 1;
	return NULL;
}

/*
 * Reads until it has read race_want readings (or 10 s passed, on a host
 * too busy to run both threads at once), then stops the producer and
 * reads what is left: read + lost must be what was pushed.
 */
/*
 * pthread_join() without waiting in futex(): an i386 glibc waits with the
 * 32-bit time futex call, which a kernel without CONFIG_COMPAT_32BIT_TIME
 * (the debug kernel) fails with ENOSYS, and glibc aborts. The producer
 * returns as soon as race_stop is set.
 */
static void join_polling(pthread_t thread)
{
	while (pthread_tryjoin_np(thread, NULL) == EBUSY)
		usleep(1000);
}

static void test_race(void)
{
	__u64 expect = 1, read = 0, torn = 0, wrong = 0, pipes = 0, lost;
	struct seqring_record rec[READ_BATCH];
	time_t end = time(NULL) + 10;
	struct srl_map *map;
	bool stopped = false;
	pthread_t thread;
	ssize_t n, i;
	int err = 0;

	fake_init(&race, UNIT_CAPACITY);
	map = map_fake(&race);
	if (pthread_create(&thread, NULL, race_producer, NULL))
		tap_bail("pthread_create failed");
	for (;;) {
		if (!stopped && (read >= race_want || time(NULL) > end)) {
			atomic_store(&race_stop, true);
			join_polling(thread);
			stopped = true;
		}
		n = srl_map_read(map, rec, ARRAY_SIZE(rec));
		if (n == -EAGAIN) {
			if (stopped)
				break;
			continue;
		}
		if (n == -EPIPE) {
			pipes++;
			expect = srl_map_cursor(map);
			continue;
		}
		if (n <= 0) {
			err = (int)-n;
			break;
		}
		for (i = 0; i < n; i++) {
			if (rec[i].seq != expect)
				wrong++;
			else if (!reading_is(&rec[i].reading, rec[i].seq))
				torn++;
			expect = rec[i].seq + 1;
		}
		read += n;
	}
	if (!stopped) {
		atomic_store(&race_stop, true);
		join_polling(thread);
	}
	lost = srl_map_lost(map);
	if (!tap_result(!err && !torn && !wrong && read + lost == race_pushed,
			"racing a producer: nothing torn, out of order or missed but the lost"))
		tap_diag("want 0 torn, reordered, %llu read+lost; got %s, %llu, %llu, %llu+%llu",
			 (unsigned long long)race_pushed, errname(err),
			 (unsigned long long)torn, (unsigned long long)wrong,
			 (unsigned long long)read, (unsigned long long)lost);
	tap_diag("%llu read, %llu lost in %llu overruns",
		 (unsigned long long)read, (unsigned long long)lost,
		 (unsigned long long)pipes);
	srl_map_close(map);
	fake_free(&race);
}

static const struct tap_test tests[] = {
	{ test_refusals, 4 },
	TAP_TEST(test_empty),
	TAP_TEST(test_in_order),
	{ test_overrun, 2 },
	TAP_TEST(test_clear),
	TAP_TEST(test_broken),
	TAP_TEST(test_gone),
	TAP_TEST(test_seek),
	TAP_TEST(test_wait),
	TAP_TEST(test_race),
};

int main(int argc, char **argv)
{
	size_t i;

	race_want = 1000000;
	if (argc > 1 && (srl_parse_u64(argv[1], &race_want) || !race_want))
		tap_bail("usage: map_unit [READINGS]");
	tap_plan_tests(tests, ARRAY_SIZE(tests));
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		tests[i].run();
	return tap_finish();
}
