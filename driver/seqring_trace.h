/* SPDX-License-Identifier: GPL-2.0 */
/*
 * seqring - trace events
 *
 * seqring:seqring_push, for every reading a ring stores (ioctls and
 * seqring_push() alike), so that perf, bpftrace and trace-cmd see them.
 * Like every trace event it sits behind a static key: while disabled, a
 * push pays one patched-out branch for it.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM seqring

#if !defined(_SEQRING_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _SEQRING_TRACE_H

#include <linux/string.h>
#include <linux/tracepoint.h>
#include <uapi/linux/seqring.h>

/* "seqring-" and a name of SEQRING_NAME_MAX characters, and the NUL. */
#define SEQRING_TRACE_RING_LEN	24

TRACE_EVENT(seqring_push,

	TP_PROTO(const char *ring, u64 seq, const struct seqring_reading *r),

	TP_ARGS(ring, seq, r),

	TP_STRUCT__entry(
		__array(char,	ring,	SEQRING_TRACE_RING_LEN)
		__field(u64,	seq)
		__field(u32,	channel)
		__field(s64,	value)
		__array(char,	label,	SEQRING_LABEL_LEN)
	),

	TP_fast_assign(
		strscpy(__entry->ring, ring, SEQRING_TRACE_RING_LEN);
		__entry->seq = seq;
		__entry->channel = r->channel;
		__entry->value = r->value;
		memcpy(__entry->label, r->label, SEQRING_LABEL_LEN);
	),

	TP_printk("ring=%s seq=%llu channel=%u value=%lld label=%s",
		  __entry->ring, __entry->seq, __entry->channel,
		  __entry->value, __entry->label)
);

#endif /* _SEQRING_TRACE_H */

/* The header is found through the driver directory's -I in Kbuild. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE seqring_trace
#include <trace/define_trace.h>
