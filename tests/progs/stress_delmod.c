// SPDX-License-Identifier: GPL-2.0
/*
 * stress_delmod - unload a module with the delete_module() system call
 *
 * Usage: stress_delmod [-n TRIES] [-w USEC] NAME
 *
 * Calls delete_module(NAME, O_NONBLOCK) directly, as rmmod does, but
 * without kmod's own checks first: kmod's rmmod refuses a module whose use
 * count is not zero by itself, so the kernel's check (and its race with
 * opens) would never be exercised. While the module is in use the call
 * fails with EAGAIN (EWOULDBLOCK); with -n it is tried up to TRIES times
 * (default 1), USEC microseconds apart (default 1000), as long as it fails
 * that way.
 *
 * Prints "ok" or the errno name of the last failure, then how many times
 * the call failed with EAGAIN, e.g. "ok 17" or "EAGAIN 1". Exit status 0
 * if the module was unloaded, 1 if not, 2 on misuse.
 */
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "opts.h"
#include "tap.h"

int main(int argc, char **argv)
{
	static const char usage[] = "stress_delmod [-n TRIES] [-w USEC] NAME";
	unsigned long tries = 1, usec = 1000, refused = 0;
	const struct opt opts[] = {
		{ 'n', OPT_UL, &tries }, { 'w', OPT_UL, &usec },
	};
	int name, e = 0;

	name = opts_parse(argc, argv, opts, OPTS_NR(opts), usage);
	if (name + 1 != argc || !tries)
		opts_usage(usage);
	while (tries--) {
		if (!syscall(SYS_delete_module, argv[name], O_NONBLOCK)) {
			printf("ok %lu\n", refused);
			return 0;
		}
		e = errno;
		if (e != EAGAIN)
			break;
		refused++;
		if (tries)
			usleep(usec);
	}
	printf("%s %lu\n", errname(e), refused);
	return 1;
}
