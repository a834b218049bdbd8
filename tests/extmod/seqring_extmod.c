// SPDX-License-Identifier: GPL-2.0
/*
 * seqring_extmod - a module outside the seqring tree that uses its kernel
 * API, built only from <linux/seqring.h> and seqring's Module.symvers, as
 * README tells a driver author to build one (tests/extmod/Makefile).
 *
 * At load it creates the ring "extmod" (capacity 8) and pushes the readings
 * 1, 2, 3 on channel 7 with the labels "one", "two" and NULL (an empty
 * label); a label one byte too long must be refused with -EINVAL and
 * store nothing, else the load fails. The ring goes at unload.
 * tests/check/92-extmod.sh checks what it pushed.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/errno.h>
#include <linux/module.h>
#include <linux/seqring.h>
#include <linux/string.h>

static struct seqring *extmod_ring;

static int __init extmod_init(void)
{
	static const char *const labels[] = { "one", "two", NULL };
	char too_long[SEQRING_LABEL_LEN + 1];
	unsigned int i;
	int ret;

	extmod_ring = seqring_create("extmod", 8);
	if (IS_ERR(extmod_ring))
		return PTR_ERR(extmod_ring);

	memset(too_long, 'x', SEQRING_LABEL_LEN);
	too_long[SEQRING_LABEL_LEN] = '\0';
	ret = seqring_push(extmod_ring, 7, 0, too_long);
	if (ret != -EINVAL) {
		pr_err("a label of %d bytes: expected -EINVAL, got %d\n",
		       SEQRING_LABEL_LEN, ret);
		ret = ret ? ret : -EPROTO;
		goto err_destroy;
	}

	for (i = 0; i < ARRAY_SIZE(labels); i++) {
		ret = seqring_push(extmod_ring, 7, i + 1, labels[i]);
		if (ret) {
			pr_err("push %u: %d\n", i + 1, ret);
			goto err_destroy;
		}
	}
	return 0;

err_destroy:
	seqring_destroy(extmod_ring);
	return ret;
}

static void __exit extmod_exit(void)
{
	seqring_destroy(extmod_ring);
}

module_init(extmod_init);
module_exit(extmod_exit);

MODULE_DESCRIPTION("seqring test: a module built out of tree against the kernel API");
MODULE_LICENSE("GPL");
