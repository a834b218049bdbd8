// SPDX-License-Identifier: GPL-2.0
/*
 * seqring_panicpush - a push into the persistent ring after panic stopped
 * a CPU in the middle of a store (tests/crash/60-panic-push.sh)
 *
 *   insmod seqring_panicpush.ko [stop_cpu=1] [count=N]
 *
 * Then:
 *  - open /dev/seqring once (any command of seqringctl): a kprobe on the
 *    driver's open takes the default ring (captured becomes Y);
 *  - echo 1 >/sys/module/seqring_panicpush/parameters/armed, and push one
 *    reading into the persistent ring from CPU stop_cpu: that push stops
 *    for good in the middle of its store, its slot marked BUSY, the
 *    reading copied, not committed (a kprobe on seqring_persist_crc(),
 *    which the writer calls for a persistent ring between the two), with
 *    preemption off; stopped becomes its sequence number;
 *  - panic from another CPU (sysrq c). panic() stops the other CPUs
 *    (an IPI, then an NMI on x86 where the IPI does not stop them; a CPU
 *    that takes neither spins on, which is the same to the others), then runs the panic notifiers:
 *    this module's, before the driver's write-back, pushes count readings
 *    (channel 7, values 1..count, label "panic") into the ring with
 *    seqring_push(), on the panicking CPU. A writer that waits for the
 *    stopped store spins there for ever; the machine never reboots.
 *
 * The next boot's /dev/seqring.prev shows what the region holds. The
 * kernel log (the console, for the host) gets one line of what the
 * pushes returned.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/kprobes.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/notifier.h>
#include <linux/ptrace.h>
#include <linux/seqring.h>
#include <linux/smp.h>

#include "compat.h"
#include "seqring.h"

static int stop_cpu = 1;
module_param(stop_cpu, int, 0444);
MODULE_PARM_DESC(stop_cpu, "the CPU whose push stops in the middle of its store (default 1)");

static unsigned int count = 100;
module_param(count, uint, 0444);
MODULE_PARM_DESC(count, "readings pushed after the panic (default 100)");

static bool armed;
module_param(armed, bool, 0644);
MODULE_PARM_DESC(armed, "stop the next push of stop_cpu in its store");

static bool captured;
module_param(captured, bool, 0444);
MODULE_PARM_DESC(captured, "the default ring was found (an open of /dev/seqring)");

static unsigned long long stopped;
module_param(stopped, ullong, 0444);
MODULE_PARM_DESC(stopped, "sequence number of the push stopped in its store, 0 before");

/*
 * regs_get_kernel_argument() is there where the architecture selects
 * HAVE_FUNCTION_ARG_ACCESS_API (x86 and arm64 in 6.1; arm64 not in every
 * 5.10): elsewhere the module refuses to load, saying why.
 */
#ifdef CONFIG_HAVE_FUNCTION_ARG_ACCESS_API
#define PANICPUSH_ARGS	true
#define kp_arg(regs, n)	regs_get_kernel_argument(regs, n)
#else
#define PANICPUSH_ARGS	false
#define kp_arg(regs, n)	0UL
#endif

/* The default ring: its struct seqring, from the first open of it. */
static struct seqring *ring;

/* seqring_open(inode, file): misc_open() pointed file->private_data at the misc device. */
static int open_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct file *file = (struct file *)kp_arg(regs, 1);
	struct seqring *sr;

	if (!file)
		return 0;
	sr = container_of(file->private_data, struct seqring, misc);
	if (!READ_ONCE(ring) && !sr->name[0]) {
		WRITE_ONCE(ring, sr);
		WRITE_ONCE(captured, true);
	}
	return 0;
}

static struct kprobe open_kp = {
	.symbol_name	= "seqring_open",
	.pre_handler	= open_pre,
};

/* seqring_persist_crc(seq, reading): in a store, between mark and commit. */
static int store_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (!READ_ONCE(armed) || smp_processor_id() != stop_cpu)
		return 0;
	WRITE_ONCE(armed, false);
	WRITE_ONCE(stopped, kp_arg(regs, 0));
	/* Interrupts are off (a push's section): nothing runs here again. */
	for (;;)
		cpu_relax();
	return 0;
}

static struct kprobe store_kp = {
	.symbol_name	= "seqring_persist_crc",
	.pre_handler	= store_pre,
};

static int panicpush_notify(struct notifier_block *nb, unsigned long event,
			    void *data)
{
	unsigned int i, stored = 0, failed = 0;
	int err, last = 0;

	if (!READ_ONCE(ring) || !READ_ONCE(stopped))
		return NOTIFY_DONE;
	pr_emerg("pushing %u readings after the panic, CPU %d stopped in the store of %llu\n",
		 count, stop_cpu, stopped);
	for (i = 1; i <= count; i++) {
		err = seqring_push(ring, 7, i, "panic");
		if (err) {
			failed++;
			last = err;
		} else {
			stored++;
		}
	}
	pr_emerg("%u pushes after the panic returned: %u 0, %u an error (last %d)\n",
		 count, stored, failed, last);
	return NOTIFY_DONE;
}

/* Before the driver's own, which writes the region back (priority 0). */
static struct notifier_block panicpush_nb = {
	.notifier_call	= panicpush_notify,
	.priority	= 1,
};

static int __init panicpush_init(void)
{
	int err;

	if (!PANICPUSH_ARGS) {
		pr_err("no regs_get_kernel_argument() on this architecture\n");
		return -EOPNOTSUPP;
	}
	if (stop_cpu < 0 || stop_cpu >= nr_cpu_ids || !cpu_online(stop_cpu))
		return -EINVAL;
	err = register_kprobe(&open_kp);
	if (err)
		return err;
	err = register_kprobe(&store_kp);
	if (err) {
		unregister_kprobe(&open_kp);
		return err;
	}
	atomic_notifier_chain_register(&panic_notifier_list, &panicpush_nb);
	return 0;
}

static void __exit panicpush_exit(void)
{
	atomic_notifier_chain_unregister(&panic_notifier_list, &panicpush_nb);
	unregister_kprobe(&store_kp);
	unregister_kprobe(&open_kp);
}

module_init(panicpush_init);
module_exit(panicpush_exit);

MODULE_DESCRIPTION("seqring test: a push after panic stopped a CPU in the middle of a store");
MODULE_LICENSE("GPL");
