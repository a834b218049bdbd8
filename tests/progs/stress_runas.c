// SPDX-License-Identifier: GPL-2.0
/*
 * stress_runas - run a program as another user
 *
 * Usage: stress_runas UID GID[,SUPPLEMENTARY_GID...] PROG [ARG...]
 *
 * Sets exactly the listed supplementary groups, then the GID and the UID
 * (which drops every capability when UID is not 0), and executes PROG
 * (looked up in PATH). Exit status: PROG's, or 127 if the identity could not
 * be changed or PROG not run, 2 on misuse.
 */
#include "identity.h"
#include "tap.h"

int main(int argc, char **argv)
{
	int ret;

	if (argc < 4) {
		fprintf(stderr, "usage: stress_runas UID GID[,GID...] PROG [ARG...]\n");
		return 2;
	}
	ret = become(argv[1], argv[2]);
	if (ret == -2)
		return 2;
	if (ret) {
		fprintf(stderr, "stress_runas: cannot change identity: %s\n",
			errname(errno));
		return 127;
	}
	execvp(argv[3], argv + 3);
	fprintf(stderr, "stress_runas: %s: %s\n", argv[3], errname(errno));
	return 127;
}
