// SPDX-License-Identifier: GPL-2.0
/*
 * seqring-wakeup - wake-up latency of every task, into a ring of its own
 *
 *   seqring-wakeup [CAPACITY]     (root; Ctrl-C ends it)
 *   seqringctl -d /dev/seqring-wakeup watch
 *
 * (man 8 seqring-wakeup)
 *
 * Loads wakeup.bpf.c (its skeleton, wakeup.skel.h, made by bpftool),
 * creates the ring "wakeup" (default 4096 readings) with a syscall program,
 * attaches the two scheduler programs, and waits for SIGINT or SIGTERM;
 * then it destroys the ring. Each reading: channel = CPU, value = how many
 * nanoseconds the task waited for it after its wake-up, label = its
 * command name. Needs seqring.ko with BTF (README, "From a BPF program").
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "wakeup.skel.h"

struct ring_args {
	__u32 capacity;
	__s32 ret;
};

static sig_atomic_t done;

static void on_signal(int sig)
{
	(void)sig;
	done = 1;
}

/* Runs a syscall program; its answer is in a->ret. */
static int run(struct bpf_program *prog, struct ring_args *a)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = a,
		    .ctx_size_in = sizeof(*a));

	return bpf_prog_test_run_opts(bpf_program__fd(prog), &opts);
}

static void print_usage(FILE *f)
{
	fprintf(f, "usage: seqring-wakeup [CAPACITY]\n"
		"Pushes every task's wake-up latency (ns; channel: the CPU, label:\n"
		"its command) into the ring wakeup, /dev/seqring-wakeup, of CAPACITY\n"
		"readings (4096), from a BPF program, until SIGINT or SIGTERM.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ring_args a = { .capacity = 4096 };
	struct wakeup_bpf *skel;
	char *end;
	int ret = 1, c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c != 'h') {
			print_usage(stderr);
			return 2;
		}
		print_usage(stdout);
		return 0;
	}
	if (optind + 1 == argc) {
		errno = 0;
		a.capacity = strtoul(argv[optind], &end, 0);
		if (errno || *end || end == argv[optind])
			a.capacity = 0;
	}
	if (optind + 1 < argc || !a.capacity) {
		print_usage(stderr);
		return 2;
	}
	skel = wakeup_bpf__open_and_load();
	if (!skel) {
		fprintf(stderr, "seqring-wakeup: cannot load (%s): seqring.ko with BTF?\n",
			strerror(errno));
		return 1;
	}
	if (run(skel->progs.create_ring, &a) || a.ret) {
		fprintf(stderr, "seqring-wakeup: cannot create ring wakeup: %s\n",
			strerror(a.ret ? -a.ret : errno));
		goto out;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (wakeup_bpf__attach(skel)) {
		fprintf(stderr, "seqring-wakeup: cannot attach: %s\n", strerror(errno));
	} else {
		fprintf(stderr, "seqring-wakeup: pushing into /dev/seqring-wakeup; Ctrl-C ends\n");
		while (!done)
			pause();
		ret = 0;
	}
	wakeup_bpf__detach(skel);
	run(skel->progs.destroy_ring, &a);
out:
	wakeup_bpf__destroy(skel);
	return ret;
}
