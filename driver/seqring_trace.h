/* SPDX-License-Identifier: GPL-2.0 */
/*
 * seqring - trace events
 *
 * seqring:seqring_push, for every reading a ring stores (ioctls and
 * seqring_push() alike), so that perf, bpftrace and trace-cmd see them.
 * Like every trace event it sits behind a static key: while disabled, a
 * push pays one patched-out branch for it.
 *
 * Its line is the listing's, field for field:
 *   ring=seqring seq=5 channel=3 value=-7 label=back\040door
 * The label is stored escaped as the listing writes it (seqring_escape():
 * \ooo for every byte outside printable ASCII, "-" for none), so that no
 * consumer of the ring buffer, cat trace, trace-cmd report or a bpftrace
 * str(), gets a newline or a terminal's escape from it. Escaping costs the
 * push only while the event is enabled.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM seqring

#if !defined(_SEQRING_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _SEQRING_TRACE_H

#include <linux/tracepoint.h>
#include <uapi/linux/seqring.h>

#include "compat.h"
#include "seqring.h"

TRACE_EVENT(seqring_push,

	TP_PROTO(const char *ring, u64 seq, const struct seqring_reading *r),

	TP_ARGS(ring, seq, r),

	/*
	 * The label as a string of its escaped length: __string() would copy
	 * its bytes as they are.
	 */
	TP_STRUCT__entry(
		__string(ring,	ring)
		__field(u64,	seq)
		__field(u32,	channel)
		__field(s64,	value)
		__dynamic_array(char, label,
				seqring_escaped_len(r->label, SEQRING_LABEL_LEN))
	),

	TP_fast_assign(
		seqring_assign_str(ring, ring);
		__entry->seq = seq;
		__entry->channel = r->channel;
		__entry->value = r->value;
		seqring_escape(__get_str(label), __get_dynamic_array_len(label),
			       r->label, SEQRING_LABEL_LEN);
	),

	TP_printk("ring=%s seq=%llu channel=%u value=%lld label=%s",
		  __get_str(ring), __entry->seq, __entry->channel,
		  __entry->value, __get_str(label))
);

#endif /* _SEQRING_TRACE_H */

/* The header is found through the driver directory's -I in Kbuild. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE seqring_trace
#include <trace/define_trace.h>
