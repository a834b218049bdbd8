/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The benchmark's peer of seqring_push(): a trace event with the fields of
 * a reading (ring name, sequence number, channel, value, label), written
 * into ftrace's ring buffer when enabled through tracefs
 * (events/seqring_kbench/seqring_kbench_reading/enable).
 *
 * The strings are fixed arrays of the sizes seqring keeps, copied whole:
 * no strlen() for a dynamic array, the cheapest event that holds them.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM seqring_kbench

#if !defined(_SEQRING_KBENCH_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _SEQRING_KBENCH_TRACE_H

#include <linux/seqring.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

TRACE_EVENT(seqring_kbench_reading,
	    TP_PROTO(const char *ring, u64 seq, u32 channel, s64 value,
		     const char *label),
	    TP_ARGS(ring, seq, channel, value, label),
	    TP_STRUCT__entry(__array(char, ring, SEQRING_NAME_MAX + 1)
			     __field(u64, seq)
			     __field(u32, channel)
			     __field(s64, value)
			     __array(char, label, SEQRING_LABEL_LEN)),
	    TP_fast_assign(strscpy_pad(__entry->ring, ring,
				       sizeof(__entry->ring));
			   __entry->seq = seq;
			   __entry->channel = channel;
			   __entry->value = value;
			   strscpy_pad(__entry->label, label,
				       sizeof(__entry->label));),
	    TP_printk("ring=%s seq=%llu channel=%u value=%lld label=%s",
		      __entry->ring, __entry->seq, __entry->channel,
		      __entry->value, __entry->label)
);

#endif /* _SEQRING_KBENCH_TRACE_H */

/* Out of the kernel tree: Kbuild puts tests/kmod/ on the include path. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE seqring_kbench_trace
#include <trace/define_trace.h>
