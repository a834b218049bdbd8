// SPDX-License-Identifier: GPL-2.0
/*
 * hold_mem - keep memory in use, as a bystander process does
 *
 * Usage: hold_mem MIB
 *
 * Maps MIB MiB of anonymous memory, writes to every page so that it is
 * really in use, prints "ready" and then waits for a signal. Exit status
 * 1 if the memory cannot be had, 2 on misuse.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "tap.h"

int main(int argc, char **argv)
{
	unsigned long mib;
	size_t size;
	char *p, *end;

	mib = argc == 2 ? strtoul(argv[1], &end, 10) : 0;
	if (!mib || *end) {
		fprintf(stderr, "usage: hold_mem MIB\n");
		return 2;
	}
	size = mib << 20;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "hold_mem: mmap %lu MiB: %s\n", mib,
			errname(errno));
		return 1;
	}
	memset(p, 0xa5, size);
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
