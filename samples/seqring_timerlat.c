// SPDX-License-Identifier: GPL-2.0
/*
 * seqring_timerlat - a timer's wake-up latency, pushed from hard interrupt
 * context into the seqring ring "timerlat"
 *
 * A high-resolution timer fires every period_us microseconds. It is armed in
 * HRTIMER_MODE_ABS_HARD, so its callback runs in hard interrupt context on
 * every kernel, PREEMPT_RT included (where a timer without _HARD runs in a
 * softirq thread and its latency would be the thread's). Each time it runs,
 * the callback pushes how late it is, the time now minus the expiry it was
 * programmed for, in nanoseconds, on channel `channel` with the label
 * "timerlat". Read it like any ring:
 *
 *	modprobe seqring_timerlat period_us=500
 *	seqringctl -d /dev/seqring-timerlat watch
 *
 * This file is also the example of seqring's kernel API (<linux/seqring.h>)
 * for driver authors: create the ring in process context, push from any
 * context, stop every pusher before destroying it.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/seqring.h>

#define TIMERLAT_PERIOD_MIN_US	100
#define TIMERLAT_PERIOD_MAX_US	1000000

static unsigned int period_us = 1000;
module_param(period_us, uint, 0444);
MODULE_PARM_DESC(period_us, "Timer period in microseconds, "
		 __stringify(TIMERLAT_PERIOD_MIN_US) " to "
		 __stringify(TIMERLAT_PERIOD_MAX_US) " (default 1000)");

static unsigned int channel;
module_param(channel, uint, 0444);
MODULE_PARM_DESC(channel, "Channel of the readings (default 0)");

static unsigned int capacity = 4096;
module_param(capacity, uint, 0444);
MODULE_PARM_DESC(capacity, "Readings the ring holds, 1 to "
		 __stringify(SEQRING_CAPACITY_MAX) " (default 4096)");

static struct seqring *timerlat_ring;
static struct hrtimer timerlat_timer;
static ktime_t timerlat_period;

/*
 * hrtimer_setup() came with 6.13 and replaced hrtimer_init(), which 6.15
 * removed. Kbuild tells which one the kernel has.
 */
#ifndef SEQRING_HAVE_HRTIMER_SETUP
static void hrtimer_setup(struct hrtimer *timer,
			  enum hrtimer_restart (*function)(struct hrtimer *),
			  clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
}
#endif

/*
 * Hard interrupt context. The expiry is where the timer was programmed to
 * fire, and the timer is never run before it, so the latency is never
 * negative. When the timer ran more than a period late, the periods it
 * missed are skipped (hrtimer_forward()): one reading per run.
 */
static enum hrtimer_restart timerlat_fire(struct hrtimer *timer)
{
	ktime_t now = ktime_get();

	seqring_push(timerlat_ring, channel,
		     ktime_to_ns(ktime_sub(now, hrtimer_get_expires(timer))),
		     "timerlat");
	hrtimer_forward(timer, now, timerlat_period);
	return HRTIMER_RESTART;
}

static int __init timerlat_init(void)
{
	if (period_us < TIMERLAT_PERIOD_MIN_US ||
	    period_us > TIMERLAT_PERIOD_MAX_US) {
		pr_err("period_us=%u is out of range (%u to %u)\n", period_us,
		       TIMERLAT_PERIOD_MIN_US, TIMERLAT_PERIOD_MAX_US);
		return -EINVAL;
	}
	timerlat_period = ns_to_ktime((u64)period_us * NSEC_PER_USEC);

	timerlat_ring = seqring_create("timerlat", capacity);
	if (IS_ERR(timerlat_ring)) {
		pr_err("cannot create ring timerlat (capacity %u): %pe\n",
		       capacity, timerlat_ring);
		return PTR_ERR(timerlat_ring);
	}

	hrtimer_setup(&timerlat_timer, timerlat_fire, CLOCK_MONOTONIC,
		      HRTIMER_MODE_ABS_HARD);
	hrtimer_start(&timerlat_timer, ktime_add(ktime_get(), timerlat_period),
		      HRTIMER_MODE_ABS_HARD);
	return 0;
}

/*
 * seqring_destroy() requires that no push is running or can start:
 * hrtimer_cancel() returns only once the timer is neither queued nor
 * running, so the callback that re-arms it has run for the last time.
 */
static void __exit timerlat_exit(void)
{
	hrtimer_cancel(&timerlat_timer);
	seqring_destroy(timerlat_ring);
}

module_init(timerlat_init);
module_exit(timerlat_exit);

MODULE_DESCRIPTION("seqring sample: wake-up latency of a hard interrupt timer, in ring timerlat");
MODULE_LICENSE("GPL");
MODULE_VERSION(SEQRING_VERSION);
