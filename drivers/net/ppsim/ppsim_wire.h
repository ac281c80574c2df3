/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The frames ppsim's wire generator writes: Ethernet, IPv4, UDP to
 * PPSIM_WIRE_DPORT, then struct ppsim_wire_hdr and a payload whose bytes
 * follow from the sequence number. The receiver recomputes the checksum
 * and checks that the sequence numbers of a queue run without gaps, so a
 * lost, repeated or stale frame (a missing DMA sync) is seen.
 */
#ifndef _PPSIM_WIRE_H
#define _PPSIM_WIRE_H

#include <linux/types.h>

#define PPSIM_WIRE_MAGIC	0x5050534dU	/* "PPSM" */
#define PPSIM_WIRE_SADDR	0xc0000202U	/* 192.0.2.2 */
#define PPSIM_WIRE_DADDR	0xc0000201U	/* 192.0.2.1 */
#define PPSIM_WIRE_SPORT	4000		/* + queue index */
#define PPSIM_WIRE_DPORT	9000
/* Ethernet, IPv4 without options and UDP headers. */
#define PPSIM_WIRE_L4_END	(14 + 20 + 8)

/**
 * struct ppsim_wire_hdr - what follows the UDP header of a wire frame
 * @magic: PPSIM_WIRE_MAGIC
 * @queue: the RX queue the frame was written for
 * @len: the whole frame's length, Ethernet header included
 * @seq: the queue's sequence number, from 0 when the device comes up
 * @csum: ppsim_wire_csum() over @magic..@seq and the payload
 */
struct ppsim_wire_hdr {
	__be32 magic;
	__be16 queue;
	__be16 len;
	__be32 seq;
	__be32 csum;
};

#define PPSIM_WIRE_PAYLOAD	(PPSIM_WIRE_L4_END + sizeof(struct ppsim_wire_hdr))

/* FNV-1a: cheap, and any changed byte changes the result. */
static inline __u32 ppsim_wire_csum(__u32 h, const __u8 *p, __u32 n)
{
	while (n--) {
		h ^= *p++;
		h *= 16777619U;
	}
	return h;
}

#define PPSIM_WIRE_CSUM_SEED	2166136261U

/* Payload byte @i of frame @seq. */
static inline __u8 ppsim_wire_byte(__u32 seq, __u32 i)
{
	return (__u8)(seq * 7 + i);
}

#endif /* _PPSIM_WIRE_H */
