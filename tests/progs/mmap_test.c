// SPDX-License-Identifier: GPL-2.0
/*
 * mmap_test - the read-only mapping of a ring (doc/seqring.4, "Mapping";
 * the UAPI header's "mapping" section), as TAP
 *
 * usage: mmap_test [DEVICE]
 *	the table of cases below on DEVICE (default /dev/seqring), a ring
 *	loaded fresh with a capacity of at least 100; needs root (resize,
 *	sysfs, dropping to uid 65534)
 * usage: mmap_test hold DEVICE
 *	map DEVICE, check it against read(), say "ready" and wait for
 *	SIGUSR1 (the ring is destroyed meanwhile), then check that the
 *	mapping says SEQRING_MMAP_GONE and still holds the same readings
 * usage: mmap_test errno-map-fd FD
 *	print the errno name of mmap() of the whole of FD's ring ("0" if it
 *	maps)
 *
 * Built 64-bit and, as mmap_test32, i386 (the same layout, 64-bit words
 * read with single loads). A minimal consumer of the mapping is here
 * (consume()); the library is userspace's (libseqring).
 */
#define _GNU_SOURCE
/* pread() of /proc/PID/mem at addresses above 2 GiB, in i386 builds too. */
#define _FILE_OFFSET_BITS 64
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stddef.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/seqring.h>

#include "identity.h"
#include "tap.h"

static const char *dev = "/dev/seqring";
static long page;

/* One 64-bit load, also on i386 (no cmpxchg8b: the page is read-only). */
static __u64 load_acquire(const __u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static __u64 load_relaxed(const __u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static int open_dev(int flags)
{
	int fd = open(dev, flags | O_CLOEXEC);

	if (fd < 0)
		tap_bail("open %s: %s", dev, strerror(errno));
	return fd;
}

static struct seqring_stats stats(int fd)
{
	struct seqring_stats st;

	memset(&st, 0, sizeof(st));
	if (ioctl(fd, SEQRING_IOC_GET_STATS, &st))
		tap_bail("GET_STATS: %s", strerror(errno));
	return st;
}

/* The whole mapping's length, from GET_STATS' capacity. */
static size_t map_len(int fd)
{
	size_t slots = stats(fd).capacity * sizeof(struct seqring_mmap_slot);

	return page + (slots + page - 1) / page * page;
}

static void *map(int fd, size_t len)
{
	void *m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);

	if (m == MAP_FAILED)
		tap_bail("mmap %zu bytes of %s: %s", len, dev, strerror(errno));
	return m;
}

/* Reading @i of a test: values, channels and labels that tell them apart. */
static void make_reading(struct seqring_reading *r, unsigned int i)
{
	memset(r, 0, sizeof(*r));
	r->value = -1000000007LL * (i + 1);
	r->channel = 7 * i + 3;
	snprintf(r->label, sizeof(r->label), "m%u", i);
	if (i % 3 == 0)
		r->timestamp_ns = 1000000000ULL + i;	/* else stamped */
}

/* Readings @from to @from + @n - 1, in batches of at most the maximum. */
static void push(int fd, unsigned int from, unsigned int n)
{
	struct seqring_reading *r = calloc(n, sizeof(*r));
	struct seqring_batch b = { 0 };
	unsigned int i;

	if (!r)
		tap_bail("out of memory");
	for (i = 0; i < n; i++)
		make_reading(&r[i], from + i);
	for (i = 0; i < n; i += b.count) {
		b.count = n - i < SEQRING_BATCH_MAX ? n - i : SEQRING_BATCH_MAX;
		b.readings = (unsigned long)&r[i];
		if (ioctl(fd, SEQRING_IOC_PUSH_BATCH, &b))
			tap_bail("PUSH_BATCH: %s", strerror(errno));
	}
	free(r);
}

/*
 * The consumer protocol of the UAPI header, from *@cursor: copy what is
 * published into @out (at most @max), count what was lost. Returns the
 * number copied.
 */
static unsigned int consume(const void *m, __u64 *cursor,
			    struct seqring_record *out, unsigned int max,
			    __u64 *lost)
{
	const struct seqring_mmap_meta *meta = m;
	const struct seqring_mmap_slot *slot;
	unsigned int got = 0;
	__u64 n, o, s, w;

again:
	n = load_acquire(&meta->next_seq);
	o = load_relaxed(&meta->oldest_seq);
	if (*cursor < o) {
		*lost += o - *cursor;
		*cursor = o;
	}
	for (s = *cursor; s < n && got < max; s++) {
		slot = (const void *)((const char *)m + meta->slots_offset +
				      (s % meta->capacity) * meta->slot_size);
		w = load_acquire(&slot->seq);
		if (w != s)
			goto again;
		memcpy(&out[got].reading, &slot->reading,
		       sizeof(slot->reading));
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (load_relaxed(&slot->seq) != s)
			goto again;
		out[got++].seq = s;
		*cursor = s + 1;
	}
	return got;
}

/* Read every record read() gives from the oldest held (O_NONBLOCK). */
static unsigned int read_all(struct seqring_record *out, unsigned int max)
{
	int fd = open_dev(O_RDONLY | O_NONBLOCK);
	unsigned int got = 0;
	ssize_t n;

	while (got < max) {
		n = read(fd, &out[got], (max - got) * sizeof(*out));
		if (n <= 0)
			break;
		got += n / sizeof(*out);
	}
	close(fd);
	return got;
}

/* ---- the cases ---- */

static void t_meta(void)
{
	int fd = open_dev(O_RDONLY);
	size_t len = map_len(fd);
	const struct seqring_mmap_meta *meta = map(fd, len);
	struct seqring_stats st = stats(fd);
	char why[256] = "";
	unsigned int i;

	if (meta->version != SEQRING_MMAP_VERSION)
		snprintf(why, sizeof(why), "version: expected %u, got %u",
			 SEQRING_MMAP_VERSION, meta->version);
	else if ((long)meta->meta_size != page ||
		 meta->slots_offset != (__u64)page)
		snprintf(why, sizeof(why),
			 "meta_size, slots_offset: expected %ld, got %u, %llu",
			 page, meta->meta_size, (__u64)meta->slots_offset);
	else if (meta->slot_size != sizeof(struct seqring_mmap_slot))
		snprintf(why, sizeof(why), "slot_size: expected %zu, got %u",
			 sizeof(struct seqring_mmap_slot), meta->slot_size);
	else if (meta->capacity != st.capacity)
		snprintf(why, sizeof(why), "capacity: expected %llu (GET_STATS), got %u",
			 (__u64)st.capacity, meta->capacity);
	else if (meta->slots_offset + meta->slots_size != len)
		snprintf(why, sizeof(why), "slots_offset + slots_size: expected %zu, got %llu",
			 len, (__u64)(meta->slots_offset + meta->slots_size));
	else if (meta->flags)
		snprintf(why, sizeof(why), "flags: expected 0, got %#llx",
			 (__u64)meta->flags);
	for (i = 0; !*why && i < ARRAY_SIZE(meta->reserved0); i++)
		if (meta->reserved0[i] || meta->reserved1[i] || meta->reserved2[i])
			snprintf(why, sizeof(why), "reserved word %u is not zero", i);
	/* Nothing after the struct in the meta page either. */
	for (i = sizeof(*meta); !*why && i < (unsigned int)page; i++)
		if (((const char *)meta)[i])
			snprintf(why, sizeof(why), "meta page byte %u is not zero", i);
	if (!tap_result(!*why,
			"meta page: version, sizes, offsets, capacity (GET_STATS), zeros"))
		tap_diag("%s", why);
	munmap((void *)meta, len);
	close(fd);
}

static void t_counters(void)
{
	int fd = open_dev(O_RDWR);
	size_t len = map_len(fd);
	const struct seqring_mmap_meta *meta = map(fd, len);
	struct seqring_stats st;
	__u64 next, oldest;

	push(fd, 0, 10);
	st = stats(fd);
	next = load_acquire(&meta->next_seq);
	oldest = load_relaxed(&meta->oldest_seq);
	if (!tap_result(next == st.total + 1 && oldest == st.oldest_seq,
			"meta next_seq and oldest_seq agree with GET_STATS"))
		tap_diag("expected next_seq %llu, oldest_seq %llu, got %llu, %llu",
			 (__u64)st.total + 1, (__u64)st.oldest_seq, next, oldest);
	munmap((void *)meta, len);
	close(fd);
}

/* The readings in the mapping, as read() gives them, and as pushed. */
static void t_readings(void)
{
	int fd = open_dev(O_RDWR);
	size_t len = map_len(fd);
	const void *m = map(fd, len);
	unsigned int cap = stats(fd).capacity, n, k, i;
	struct seqring_record *a = calloc(cap, sizeof(*a));
	struct seqring_record *b = calloc(cap, sizeof(*b));
	struct seqring_reading want;
	__u64 cursor = 0, lost = 0;
	char why[256] = "";

	if (!a || !b)
		tap_bail("out of memory");
	/* More than fit: the slots wrap, the oldest are lost. */
	push(fd, 100, cap + cap / 2);
	n = consume(m, &cursor, a, cap, &lost);
	k = read_all(b, cap);
	if (n != cap || k != cap)
		snprintf(why, sizeof(why),
			 "expected %u readings from the mapping and from read(), got %u and %u",
			 cap, n, k);
	for (i = 0; !*why && i < n; i++) {
		if (memcmp(&a[i], &b[i], sizeof(a[i])))
			snprintf(why, sizeof(why),
				 "record %u (seq %llu): mapping and read() differ",
				 i, (__u64)a[i].seq);
		make_reading(&want, 100 + cap / 2 + i);
		if (!want.timestamp_ns)
			want.timestamp_ns = a[i].reading.timestamp_ns;
		if (!*why && (!a[i].reading.timestamp_ns ||
			      memcmp(&want, &a[i].reading, sizeof(want))))
			snprintf(why, sizeof(why),
				 "seq %llu: expected value %lld channel %u label %s, got %lld %u %.16s",
				 (__u64)a[i].seq, (long long)want.value,
				 want.channel, want.label,
				 (long long)a[i].reading.value,
				 a[i].reading.channel, a[i].reading.label);
	}
	if (!tap_result(!*why,
			"the mapping holds what was pushed, as read() returns it"))
		tap_diag("%s", why);
	munmap((void *)m, len);
	free(a);
	free(b);
	close(fd);
}

/* mmap() refusals: a table. */
struct refusal {
	const char *desc;
	int open_flags;
	int prot;
	int flags;
	long offset;		/* in pages */
	long extra;		/* pages past the whole length */
	int err;
};

static const struct refusal refusals[] = {
	{ "PROT_WRITE on a file open read-write", O_RDWR, PROT_READ | PROT_WRITE,
	  MAP_SHARED, 0, 0, EPERM },
	{ "PROT_EXEC", O_RDONLY, PROT_READ | PROT_EXEC, MAP_SHARED, 0, 0, EPERM },
	{ "PROT_EXEC on a file open read-write", O_RDWR, PROT_READ | PROT_EXEC,
	  MAP_SHARED, 0, 0, EPERM },
	/* The VFS refuses it first, before the driver sees the mapping. */
	{ "PROT_WRITE on a file open read-only", O_RDONLY, PROT_READ | PROT_WRITE,
	  MAP_SHARED, 0, 0, EACCES },
	{ "PROT_WRITE, MAP_PRIVATE, a file open read-only", O_RDONLY,
	  PROT_READ | PROT_WRITE, MAP_PRIVATE, 0, 0, EPERM },
	{ "PROT_WRITE, MAP_PRIVATE, a file open read-write", O_RDWR,
	  PROT_READ | PROT_WRITE, MAP_PRIVATE, 0, 0, EPERM },
	{ "MAP_PRIVATE", O_RDONLY, PROT_READ, MAP_PRIVATE, 0, 0, EINVAL },
	{ "offset of one page", O_RDONLY, PROT_READ, MAP_SHARED, 1, -1, EINVAL },
	{ "one page past the end", O_RDONLY, PROT_READ, MAP_SHARED, 0, 1, EINVAL },
	{ "a file open write-only", O_WRONLY, PROT_READ, MAP_SHARED, 0, 0, EACCES },
};

static void t_refusals(void)
{
	const struct refusal *r;
	size_t len;
	void *m;
	int fd, e;

	for (r = refusals; r < refusals + ARRAY_SIZE(refusals); r++) {
		fd = open_dev(r->open_flags);
		len = map_len(fd) + r->extra * page;
		m = mmap(NULL, len, r->prot, r->flags, fd, r->offset * page);
		e = m == MAP_FAILED ? errno : 0;
		if (!tap_result(e == r->err, "mmap %s: %s", r->desc, errname(r->err)))
			tap_diag("expected %s, got %s", errname(r->err), errname(e));
		if (m != MAP_FAILED)
			munmap(m, len);
		close(fd);
	}
}

/* What the mapping cannot become, and what the core says about it. */
static void t_vma(void)
{
	int fd = open_dev(O_RDWR);
	size_t len = map_len(fd);
	void *m = map(fd, len), *g;
	char line[512], want[64], *flags = NULL;
	FILE *f = fopen("/proc/self/smaps", "r");
	int e;

	e = mprotect(m, len, PROT_READ | PROT_WRITE) ? errno : 0;
	if (!tap_result(e == EACCES, "mprotect() to PROT_WRITE: EACCES"))
		tap_diag("expected EACCES, got %s", errname(e));
	e = mprotect(m, len, PROT_READ | PROT_EXEC) ? errno : 0;
	if (!tap_result(e == EACCES, "mprotect() to PROT_EXEC: EACCES"))
		tap_diag("expected EACCES, got %s", errname(e));
	g = mremap(m, len, len + page, MREMAP_MAYMOVE);
	e = g == MAP_FAILED ? errno : 0;
	if (!tap_result(e == EFAULT, "mremap() to grow: EFAULT"))
		tap_diag("expected EFAULT, got %s", errname(e));
	if (g != MAP_FAILED)
		m = g;

	/* VmFlags of the mapping in smaps: dc de dd, no mw me io. */
	snprintf(want, sizeof(want), "%lx-", (unsigned long)m);
	while (f && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, want, strlen(want))) {
			flags = "";
		} else if (flags && !strncmp(line, "VmFlags:", 8)) {
			flags = strdup(line + 8);
			break;
		}
	}
	if (f)
		fclose(f);
	if (!tap_result(flags && strstr(flags, " dc") && strstr(flags, " de") &&
			strstr(flags, " dd") && !strstr(flags, " mw") &&
			!strstr(flags, " me") && !strstr(flags, " io") &&
			!strstr(flags, " wr") && !strstr(flags, " ex"),
			"VmFlags (file open read-write): dc de dd; no mw me io"))
		tap_diag("expected rd sh mr ms dc de dd (and mm), got %s",
			 flags ? flags : "no mapping in smaps");
	munmap(m, len);
	close(fd);
}

static int set_capacity(int fd, __u32 n)
{
	return ioctl(fd, SEQRING_IOC_SET_CAPACITY, &n) ? errno : 0;
}

/* Write the sysfs capacity of the default ring; returns the errno. */
static int sysfs_capacity(__u32 n)
{
	int fd = open("/sys/class/misc/seqring/capacity", O_WRONLY);
	char buf[16];
	int e = 0;

	if (fd < 0)
		return errno;
	snprintf(buf, sizeof(buf), "%u", n);
	if (write(fd, buf, strlen(buf)) < 0)
		e = errno;
	close(fd);
	return e;
}

static void t_resize(void)
{
	int fd = open_dev(O_RDONLY);
	__u32 cap = stats(fd).capacity;
	size_t len = map_len(fd);
	void *m = map(fd, len), *s;
	const struct seqring_mmap_meta *meta;
	int e;

	e = set_capacity(fd, cap + 100);
	if (!tap_result(e == EBUSY, "SET_CAPACITY while mapped: EBUSY"))
		tap_diag("expected EBUSY, got %s", errname(e));
	e = sysfs_capacity(cap + 100);
	if (!tap_result(e == EBUSY, "sysfs capacity while mapped: EBUSY"))
		tap_diag("expected EBUSY, got %s", errname(e));
	/* A split mapping (mremap() shrinking it) still counts. */
	s = mremap(m, len, page, 0);
	e = s == MAP_FAILED ? errno : set_capacity(fd, cap + 100);
	if (!tap_result(e == EBUSY, "SET_CAPACITY while a shrunk mapping is left: EBUSY"))
		tap_diag("expected EBUSY, got %s", errname(e));
	munmap(m, s == MAP_FAILED ? len : (size_t)page);
	e = set_capacity(fd, cap + 100);
	if (!tap_result(e == 0, "SET_CAPACITY after munmap(): done"))
		tap_diag("expected 0, got %s", errname(e));
	len = map_len(fd);
	meta = map(fd, len);
	if (!tap_result(meta->capacity == cap + 100 &&
			meta->slots_offset + meta->slots_size == len,
			"a new mapping shows the new capacity"))
		tap_diag("expected capacity %u and length %zu, got %u and %llu",
			 cap + 100, len, meta->capacity,
			 (__u64)(meta->slots_offset + meta->slots_size));
	munmap((void *)meta, len);
	e = set_capacity(fd, cap);
	if (!tap_result(e == 0 && sysfs_capacity(cap) == 0, "resize back through ioctl and sysfs"))
		tap_diag("expected 0, got %s", errname(e));
	close(fd);
}

static void t_clear(void)
{
	int fd = open_dev(O_RDWR);
	size_t len = map_len(fd);
	const struct seqring_mmap_meta *meta = map(fd, len);
	__u64 next, oldest;
	int e;

	push(fd, 0, 5);
	e = ioctl(fd, SEQRING_IOC_CLEAR) ? errno : 0;
	next = load_acquire(&meta->next_seq);
	oldest = load_relaxed(&meta->oldest_seq);
	if (!tap_result(!e && oldest == next && stats(fd).count == 0,
			"CLEAR while mapped: oldest_seq moves up to next_seq"))
		tap_diag("expected CLEAR 0 and oldest_seq == next_seq %llu, got %s and %llu",
			 next, errname(e), oldest);
	munmap((void *)meta, len);
	close(fd);
}

static void t_fork(void)
{
	int fd = open_dev(O_RDONLY);
	size_t len = map_len(fd);
	const struct seqring_mmap_meta *meta = map(fd, len);
	int status = 0;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		/* No mapping here: this faults, unless the bug is there. */
		_exit(__atomic_load_n(&meta->version, __ATOMIC_RELAXED) ==
		      SEQRING_MMAP_VERSION ? 0 : 2);
	}
	waitpid(pid, &status, 0);
	if (!tap_result(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV &&
			meta->version == SEQRING_MMAP_VERSION,
			"fork(): the child has no mapping (SIGSEGV), the parent keeps it"))
		tap_diag("expected the child killed by SIGSEGV, got status %#x", status);
	munmap((void *)meta, len);
	close(fd);
}

/*
 * madvise(MADV_DOFORK) undoes VM_DONTCOPY: the child then has the mapping,
 * the same read-only pages, and its copy counts as a mapping of its own
 * (vm_ops->open), so a resize waits for it too.
 */
static void t_dofork(void)
{
	int fd = open_dev(O_RDONLY), go[2], ready[2], status = 0, e, busy, done;
	__u32 cap = stats(fd).capacity;
	size_t len = map_len(fd);
	const struct seqring_mmap_meta *meta = map(fd, len);
	__u64 next = load_acquire(&meta->next_seq);
	char c = 0, why[96];
	pid_t pid;

	e = madvise((void *)meta, len, MADV_DOFORK) ? errno : 0;
	/*
	 * 7.2 refuses it for this mapping (EINVAL); the debug kernels, made
	 * from tinyconfig, have no madvise() (no CONFIG_ADVISE_SYSCALLS): no
	 * child ever has the mapping then.
	 */
	if (e) {
		snprintf(why, sizeof(why),
			 "this kernel refuses MADV_DOFORK on the mapping: %s",
			 strerror(e));
		tap_skip(why,
			 "fork() after MADV_DOFORK: the child has the mapping, the same pages");
		tap_skip("no child has a copy",
			 "... and it counts: resize EBUSY while only the child's copy is left");
		munmap((void *)meta, len);
		close(fd);
		return;
	}
	if (pipe(go) || pipe(ready))
		tap_bail("pipe: %s", strerror(errno));
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		/* Faults (and the parent reads nothing) without the mapping. */
		close(ready[0]);
		close(go[1]);
		c = meta->version == SEQRING_MMAP_VERSION &&
		    load_acquire(&meta->next_seq) >= next;
		if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(3);
		_exit(0);
	}
	/*
	 * Only the child holds the ends it writes and the parent reads: a
	 * child that dies (the fault above) ends the parent's read, which
	 * otherwise waited for ever.
	 */
	close(ready[1]);
	close(go[0]);
	if (read(ready[0], &c, 1) != 1)
		c = 0;
	munmap((void *)meta, len);
	busy = set_capacity(fd, cap + 1);
	/* To a child gone already: EPIPE, not SIGPIPE; c says it failed. */
	signal(SIGPIPE, SIG_IGN);
	if (write(go[1], "x", 1) != 1 && c)
		tap_bail("write: %s", strerror(errno));
	signal(SIGPIPE, SIG_DFL);
	waitpid(pid, &status, 0);
	done = set_capacity(fd, cap + 1);
	if (!done)
		set_capacity(fd, cap);
	if (!tap_result(!e && c == 1 && WIFEXITED(status) && !WEXITSTATUS(status),
			"fork() after MADV_DOFORK: the child has the mapping, the same pages"))
		tap_diag("madvise: %s, child read %d, status %#x", errname(e), c,
			 status);
	if (!tap_result(busy == EBUSY && !done,
			"... and it counts: resize EBUSY while only the child's copy is left, %s",
			"done once it exited"))
		tap_diag("expected EBUSY then 0, got %s then %s", errname(busy),
			 errname(done));
	close(go[1]);
	close(ready[0]);
	close(fd);
}

/* munmap() while another thread reads: that thread faults, nothing else. */
static sigjmp_buf fault_jmp;
static int reading;	/* __atomic: the reader thread is in its loop */

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(fault_jmp, 1);
}

struct reader_arg {
	const struct seqring_mmap_meta *meta;
	unsigned long loads;
	int faulted;
};

static void *reader(void *p)
{
	struct reader_arg *a = p;

	if (sigsetjmp(fault_jmp, 1)) {
		a->faulted = 1;
		return NULL;
	}
	__atomic_store_n(&reading, 1, __ATOMIC_RELEASE);
	for (;;) {
		load_acquire(&a->meta->next_seq);
		a->loads++;
	}
	return NULL;
}

static void t_munmap_reading(void)
{
	int fd = open_dev(O_RDWR);
	size_t len = map_len(fd);
	/* Static: a reader that never faults outlives this frame. */
	static struct reader_arg a;
	struct sigaction sa = { .sa_handler = on_segv }, old;
	pthread_t t;
	int e, i;

	a.meta = map(fd, len);
	sigaction(SIGSEGV, &sa, &old);
	__atomic_store_n(&reading, 0, __ATOMIC_RELAXED);
	if (pthread_create(&t, NULL, reader, &a))
		tap_bail("pthread_create failed");
	while (!__atomic_load_n(&reading, __ATOMIC_ACQUIRE))
		usleep(1000);
	usleep(20000);
	munmap((void *)a.meta, len);
	/*
	 * Joined without waiting in futex(): an i386 glibc waits with the
	 * 32-bit time futex call, which a kernel without
	 * CONFIG_COMPAT_32BIT_TIME (the debug kernel) fails with ENOSYS, and
	 * glibc aborts. A reader that never faults is left spinning.
	 */
	for (i = 0; i < 5000 && pthread_tryjoin_np(t, NULL) == EBUSY; i++)
		usleep(1000);
	if (i == 5000)
		pthread_detach(t);
	else
		sigaction(SIGSEGV, &old, NULL);
	push(fd, 0, 1);
	e = set_capacity(fd, stats(fd).capacity);
	if (!tap_result(a.faulted && a.loads > 0 && e == 0,
			"munmap() while a thread reads: it faults, no mapping is left"))
		tap_diag("expected a fault, then resize 0, got faulted %d after %lu loads, %s",
			 a.faulted, a.loads, errname(e));
	close(fd);
}

/* SET_CURSOR: poll() and the threshold work for a mapping consumer. */
static void t_cursor(void)
{
	int fd = open_dev(O_RDONLY), w = open_dev(O_WRONLY);
	size_t len = map_len(fd);
	const struct seqring_mmap_meta *meta = map(fd, len);
	struct pollfd p = { .fd = fd, .events = POLLIN };
	struct seqring_record rec;
	__u64 c, next;
	int n0, n1, n2, e;
	pid_t pid;

	push(w, 0, 3);
	c = load_acquire(&meta->next_seq);
	e = ioctl(fd, SEQRING_IOC_SET_CURSOR, &c) ? errno : 0;
	n0 = poll(&p, 1, 0);
	c -= 2;
	ioctl(fd, SEQRING_IOC_SET_CURSOR, &c);
	n1 = poll(&p, 1, 0);
	if (!tap_result(!e && n0 == 0 && n1 == 1 && (p.revents & POLLIN),
			"SET_CURSOR to next_seq: poll() has nothing; 2 back: POLLIN"))
		tap_diag("expected SET_CURSOR 0, poll 0 then 1 POLLIN, got %s, %d, %d %#x",
			 errname(e), n0, n1, p.revents);

	/* A consumer caught up sleeps in poll() until a push. */
	c = load_acquire(&meta->next_seq);
	ioctl(fd, SEQRING_IOC_SET_CURSOR, &c);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		usleep(200000);
		push(w, 50, 1);
		_exit(0);
	}
	p.revents = 0;
	n2 = poll(&p, 1, 5000);
	waitpid(pid, NULL, 0);
	next = load_acquire(&meta->next_seq);
	if (!tap_result(n2 == 1 && (p.revents & POLLIN) && next == c + 1,
			"poll() after SET_CURSOR wakes on a push; the reading is mapped"))
		tap_diag("expected poll 1 POLLIN and next_seq %llu, got %d %#x and %llu",
			 c + 1, n2, p.revents, next);

	/* Clamped: below the oldest is the oldest; past next_seq is next_seq. */
	c = 0;
	ioctl(fd, SEQRING_IOC_SET_CURSOR, &c);
	n0 = read(fd, &rec, sizeof(rec));
	c = ~0ULL;
	ioctl(fd, SEQRING_IOC_SET_CURSOR, &c);
	fcntl(fd, F_SETFL, O_NONBLOCK);
	n1 = read(fd, &rec, sizeof(rec));
	e = n1 < 0 ? errno : 0;
	if (!tap_result(n0 == (int)sizeof(rec) && e == EAGAIN,
			"SET_CURSOR clamps: 0 is the oldest (no EPIPE), ~0 next_seq (EAGAIN)"))
		tap_diag("expected read %zu then EAGAIN, got %d then %d %s",
			 sizeof(rec), n0, n1, errname(e));
	e = ioctl(w, SEQRING_IOC_SET_CURSOR, &c) ? errno : 0;
	if (!tap_result(e == EBADF, "SET_CURSOR on a file open write-only: EBADF"))
		tap_diag("expected EBADF, got %s", errname(e));
	munmap((void *)meta, len);
	close(w);
	close(fd);
}

/* A debugger reads the mapping through /proc/PID/mem (no VM_IO). */
static void t_proc_mem(void)
{
	int fd = open_dev(O_RDONLY);
	size_t len = map_len(fd);
	const struct seqring_mmap_meta *meta = map(fd, len);
	struct seqring_mmap_meta copy;
	char path[64];
	ssize_t n = -1;
	int status = 0, mem, p[2];
	pid_t pid;

	/*
	 * Another process, as gdb is: a child reads its parent's memory
	 * (it has no mapping of its own: VM_DONTCOPY) and sends it back.
	 */
	if (pipe(p))
		tap_bail("pipe: %s", strerror(errno));
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		snprintf(path, sizeof(path), "/proc/%d/mem", (int)getppid());
		mem = open(path, O_RDONLY);
		if (mem < 0)
			_exit(3);
		n = pread(mem, &copy, sizeof(copy), (off_t)(unsigned long)meta);
		if (n != (ssize_t)sizeof(copy))
			_exit(4);
		_exit(write(p[1], &copy, sizeof(copy)) == sizeof(copy) ? 0 : 5);
	}
	close(p[1]);
	memset(&copy, 0, sizeof(copy));
	n = read(p[0], &copy, sizeof(copy));
	close(p[0]);
	waitpid(pid, &status, 0);
	if (!tap_result(WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
			n == (ssize_t)sizeof(copy) &&
			!memcmp(&copy, meta, offsetof(struct seqring_mmap_meta, next_seq)),
			"/proc/PID/mem of the mapping reads the meta page (ptrace, gdb)"))
		tap_diag("expected the child to read it (exit 0), got status %#x %s, %zd bytes",
			 status, "(3: open, 4: pread, 5: write)", n);
	munmap((void *)meta, len);
	close(fd);
}

/* A user who may not read the device maps nothing. */
static void t_unprivileged(void)
{
	int fd = open_dev(O_WRONLY), status = 0, e;
	size_t len = map_len(fd);
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (become("65534", "65534"))
			_exit(10);
		e = open(dev, O_RDONLY) < 0 ? errno : 0;
		if (e != EACCES)
			_exit(11);
		_exit(mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0) == MAP_FAILED &&
		      errno == EACCES ? 0 : 12);
	}
	waitpid(pid, &status, 0);
	if (!tap_result(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			"uid 65534: open for reading EACCES, mmap of a write-only file EACCES"))
		tap_diag("expected exit 0, got status %#x (10: setuid, 11: open, 12: mmap)",
			 status);
	close(fd);
}

static void t_prefix(void)
{
	int fd = open_dev(O_RDONLY);
	const struct seqring_mmap_meta *meta;
	void *m = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
	int e = m == MAP_FAILED ? errno : 0;

	meta = m;
	if (!tap_result(!e && meta->version == SEQRING_MMAP_VERSION,
			"a mapping of the meta page alone"))
		tap_diag("expected 0, got %s", errname(e));
	if (!e)
		munmap(m, page);
	close(fd);
}

static const struct tap_test tests[] = {
	TAP_TEST(t_meta),
	TAP_TEST(t_counters),
	TAP_TEST(t_readings),
	{ t_refusals, ARRAY_SIZE(refusals) },
	{ t_vma, 4 },
	{ t_resize, 6 },
	TAP_TEST(t_clear),
	TAP_TEST(t_fork),
	{ t_dofork, 2 },
	TAP_TEST(t_munmap_reading),
	{ t_cursor, 4 },
	TAP_TEST(t_proc_mem),
	TAP_TEST(t_unprivileged),
	TAP_TEST(t_prefix),
};

/* ---- hold: the ring is destroyed while mapped ---- */

static int usr1;	/* __atomic: SIGUSR1 came */

static void on_usr1(int sig)
{
	(void)sig;
	__atomic_store_n(&usr1, 1, __ATOMIC_RELAXED);
}

static int hold(void)
{
	int fd = open_dev(O_RDONLY);
	size_t len = map_len(fd);
	const struct seqring_mmap_meta *meta = map(fd, len);
	unsigned int cap = meta->capacity, n, k, n2;
	struct seqring_record *a = calloc(cap, sizeof(*a));
	struct seqring_record *b = calloc(cap, sizeof(*b));
	struct seqring_record *c = calloc(cap, sizeof(*c));
	__u64 cursor = 0, lost = 0, next;
	sigset_t set, old;

	if (!a || !b || !c)
		tap_bail("out of memory");
	signal(SIGUSR1, on_usr1);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	tap_plan(3);
	n = consume(meta, &cursor, a, cap, &lost);
	k = read_all(b, cap);
	if (!tap_result(n && n == k && !memcmp(a, b, n * sizeof(*a)),
			"before: the mapping holds what read() returns"))
		tap_diag("expected %u readings from both, the same, got %u and %u",
			 k, n, k);
	next = load_acquire(&meta->next_seq);
	printf("ready\n");
	fflush(stdout);
	while (!__atomic_load_n(&usr1, __ATOMIC_RELAXED))
		sigsuspend(&old);

	if (!tap_result(load_acquire(&meta->flags) == SEQRING_MMAP_GONE,
			"after the destroy: flags say SEQRING_MMAP_GONE"))
		tap_diag("expected flags %#llx, got %#llx",
			 SEQRING_MMAP_GONE, load_acquire(&meta->flags));
	cursor = 0;
	n2 = consume(meta, &cursor, c, cap, &lost);
	if (!tap_result(n2 == n && !memcmp(a, c, n * sizeof(*a)) &&
			load_acquire(&meta->next_seq) == next,
			"after the destroy: the mapping still reads, the same readings"))
		tap_diag("expected %u readings up to %llu, got %u up to %llu",
			 n, next, n2, load_acquire(&meta->next_seq));
	munmap((void *)meta, len);
	close(fd);
	return tap_finish();
}

int main(int argc, char **argv)
{
	size_t i;

	page = sysconf(_SC_PAGESIZE);
	if (argc > 1 && !strcmp(argv[1], "--help")) {
		printf("usage: %s [DEVICE] | hold DEVICE | errno-map-fd FD\n",
		       argv[0]);
		return 0;
	}
	if (argc > 2 && !strcmp(argv[1], "errno-map-fd")) {
		int fd = atoi(argv[2]);
		void *m = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);

		puts(errname(m == MAP_FAILED ? errno : 0));
		return 0;
	}
	if (argc > 2 && !strcmp(argv[1], "hold")) {
		dev = argv[2];
		return hold();
	}
	if (argc > 1)
		dev = argv[1];
	tap_plan_tests(tests, ARRAY_SIZE(tests));
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		tests[i].run();
	return tap_finish();
}
