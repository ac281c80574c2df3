// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit cases for the checksum mlx4_en reports on received frames, one
 * frame kind at a time, #included at the end of en_rx_test.c, whose
 * ring they build on.
 *
 * The device checks TCP and UDP checksums itself, and for any IP frame
 * leaves in the CQE the 16-bit sum of its L4 bytes: with the pseudo
 * header for IPv4, and with the IPv6 header but its first four bytes,
 * next header and hop limit for IPv6. The cases play that device for
 * frames they build, and check what the stack gets: CHECKSUM_UNNECESSARY
 * where the device vouched for the L4 checksum, CHECKSUM_COMPLETE with a
 * skb->csum that sums the frame from its IP header on, or CHECKSUM_NONE.
 */
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/if_arp.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <net/ip.h>
#include <net/ipv6.h>

enum mlx4_rxt_frame {
	MLX4_RXT_TCP4,
	MLX4_RXT_UDP4_BAD,
	MLX4_RXT_FRAG4,
	MLX4_RXT_ICMP4,
	MLX4_RXT_ICMP4_PADDED,
	MLX4_RXT_ICMP4_TRAILER,
	MLX4_RXT_ICMP4_FCS,
	MLX4_RXT_ICMP6,
	MLX4_RXT_FRAG6,
	MLX4_RXT_ARP,
};

#define MLX4_RXT_L4_LEN		200
#define MLX4_RXT_IP4		(MLX4_CQE_STATUS_IPV4 | MLX4_CQE_STATUS_IPOK)
#define MLX4_RXT_IP6		(MLX4_CQE_STATUS_IPV6 | MLX4_CQE_STATUS_IPOK)

struct mlx4_rxt_csum_case {
	const char *what;
	enum mlx4_rxt_frame frame;
	/* The CQE status bits the device sets for the frame. */
	u16 status;
	netdev_features_t features;
	/* MLX4_EN_FLAG_RX_CSUM_NON_TCP_UDP: a device that sums any IP frame. */
	bool any_ip;
	bool xdp;
	u8 ip_summed;
};

static const struct mlx4_rxt_csum_case mlx4_rxt_csum_cases[] = {
	{ "TCP, checked by the device", MLX4_RXT_TCP4,
	  MLX4_RXT_IP4 | MLX4_CQE_STATUS_TCP, NETIF_F_RXCSUM, true, false,
	  CHECKSUM_UNNECESSARY },
	{ "UDP with a bad checksum", MLX4_RXT_UDP4_BAD,
	  MLX4_RXT_IP4 | MLX4_CQE_STATUS_UDP, NETIF_F_RXCSUM, true, false,
	  CHECKSUM_COMPLETE },
	{ "IPv4 fragment", MLX4_RXT_FRAG4,
	  MLX4_RXT_IP4 | MLX4_CQE_STATUS_IPV4F, NETIF_F_RXCSUM, true, false,
	  CHECKSUM_COMPLETE },
	{ "ICMP", MLX4_RXT_ICMP4, MLX4_RXT_IP4, NETIF_F_RXCSUM, true, false,
	  CHECKSUM_COMPLETE },
	{ "ICMPv6", MLX4_RXT_ICMP6, MLX4_RXT_IP6, NETIF_F_RXCSUM, true, false,
	  CHECKSUM_COMPLETE },
	{ "IPv6 fragment", MLX4_RXT_FRAG6, MLX4_RXT_IP6, NETIF_F_RXCSUM, true,
	  false, CHECKSUM_NONE },
	{ "ARP", MLX4_RXT_ARP, 0, NETIF_F_RXCSUM, true, false, CHECKSUM_NONE },
	{ "ICMP padded to 60 bytes", MLX4_RXT_ICMP4_PADDED, MLX4_RXT_IP4,
	  NETIF_F_RXCSUM, true, false, CHECKSUM_NONE },
	{ "ICMP with a trailer", MLX4_RXT_ICMP4_TRAILER, MLX4_RXT_IP4,
	  NETIF_F_RXCSUM, true, false, CHECKSUM_NONE },
	{ "ICMP, device sums TCP and UDP only", MLX4_RXT_ICMP4, MLX4_RXT_IP4,
	  NETIF_F_RXCSUM, false, false, CHECKSUM_NONE },
	{ "ICMP, rx-checksumming off", MLX4_RXT_ICMP4, MLX4_RXT_IP4, 0, true,
	  false, CHECKSUM_NONE },
	{ "ICMP, FCS kept", MLX4_RXT_ICMP4_FCS, MLX4_RXT_IP4,
	  NETIF_F_RXCSUM | NETIF_F_RXFCS, true, false, CHECKSUM_NONE },
	{ "ICMP, XDP program attached", MLX4_RXT_ICMP4, MLX4_RXT_IP4,
	  NETIF_F_RXCSUM, true, true, CHECKSUM_NONE },
};

static void mlx4_rxt_csum_desc(const struct mlx4_rxt_csum_case *c, char *desc)
{
	strscpy(desc, c->what, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mlx4_rxt_csum, mlx4_rxt_csum_cases, mlx4_rxt_csum_desc);

/* A sum as the device leaves it in the CQE: folded, not inverted. */
static __be16 mlx4_rxt_cqe_sum(__wsum sum)
{
	return (__force __be16)(u16)~(__force u16)csum_fold(sum);
}

/* The device's sum of an IPv4 frame's L4 bytes and pseudo header. */
static __wsum mlx4_rxt_hw_sum4(const struct iphdr *iph)
{
	unsigned int len = ntohs(iph->tot_len) - iph->ihl * 4;

	return csum_partial((const u8 *)iph + iph->ihl * 4, len,
			    csum_tcpudp_nofold(iph->saddr, iph->daddr, len,
					       iph->protocol, 0));
}

/* The device's sum of an IPv6 frame: all but 6 bytes of the header. */
static __wsum mlx4_rxt_hw_sum6(const struct ipv6hdr *ip6)
{
	__wsum sum = csum_partial(&ip6->payload_len, 2, 0);

	sum = csum_partial(&ip6->saddr, 2 * sizeof(ip6->saddr), sum);
	return csum_partial(ip6 + 1, ntohs(ip6->payload_len), sum);
}

static unsigned int mlx4_rxt_frame4(u8 *buf, u8 proto, unsigned int l4_len)
{
	struct iphdr *iph = (struct iphdr *)(buf + ETH_HLEN);

	((struct ethhdr *)buf)->h_proto = htons(ETH_P_IP);
	iph->version = 4;
	iph->ihl = 5;
	iph->ttl = 64;
	iph->protocol = proto;
	iph->tot_len = htons(sizeof(*iph) + l4_len);
	iph->saddr = htonl(0x0a000001);
	iph->daddr = htonl(0x0a000002);
	return ETH_HLEN + sizeof(*iph) + l4_len;
}

/* Builds the frame of @kind in @buf, and returns its length and, in
 * @sum, what the device leaves in the CQE's checksum field.
 */
static unsigned int mlx4_rxt_build(u8 *buf, enum mlx4_rxt_frame kind,
				   __be16 *sum)
{
	struct iphdr *iph = (struct iphdr *)(buf + ETH_HLEN);
	struct ipv6hdr *ip6 = (struct ipv6hdr *)(buf + ETH_HLEN);
	u8 *l4 = (u8 *)(iph + 1);
	unsigned int len, i;

	memset(buf, 0, ETH_FRAME_LEN);
	for (i = 0; i < ETH_ALEN; i++)
		buf[i] = 0x02 + i;
	switch (kind) {
	case MLX4_RXT_TCP4:
	case MLX4_RXT_UDP4_BAD:
	case MLX4_RXT_FRAG4:
	case MLX4_RXT_ICMP4:
		len = mlx4_rxt_frame4(buf, kind == MLX4_RXT_TCP4 ? IPPROTO_TCP :
				      kind == MLX4_RXT_ICMP4 ? IPPROTO_ICMP :
				      IPPROTO_UDP, MLX4_RXT_L4_LEN);
		for (i = 20; i < MLX4_RXT_L4_LEN; i++)
			l4[i] = i * 13;
		if (kind == MLX4_RXT_FRAG4)
			iph->frag_off = htons(IP_MF);
		if (kind == MLX4_RXT_TCP4) {
			struct tcphdr *th = (struct tcphdr *)l4;

			th->doff = 5;
			th->check = csum_tcpudp_magic(iph->saddr, iph->daddr,
						      MLX4_RXT_L4_LEN,
						      IPPROTO_TCP,
						      csum_partial(l4, MLX4_RXT_L4_LEN, 0));
		} else if (kind == MLX4_RXT_UDP4_BAD) {
			((struct udphdr *)l4)->len = htons(MLX4_RXT_L4_LEN);
			((struct udphdr *)l4)->check = (__force __sum16)htons(0x1234);
		} else if (kind == MLX4_RXT_ICMP4) {
			((struct icmphdr *)l4)->type = ICMP_ECHO;
		}
		ip_send_check(iph);
		*sum = mlx4_rxt_cqe_sum(mlx4_rxt_hw_sum4(iph));
		return len;
	case MLX4_RXT_ICMP4_PADDED:
	case MLX4_RXT_ICMP4_TRAILER:
	case MLX4_RXT_ICMP4_FCS:
		len = mlx4_rxt_frame4(buf, IPPROTO_ICMP,
				      kind == MLX4_RXT_ICMP4_PADDED ? 8 :
				      MLX4_RXT_L4_LEN);
		((struct icmphdr *)l4)->type = ICMP_ECHO;
		ip_send_check(iph);
		/* What follows the IP packet is not summed. */
		*sum = mlx4_rxt_cqe_sum(mlx4_rxt_hw_sum4(iph));
		if (kind == MLX4_RXT_ICMP4_PADDED) {
			memset(buf + len, 0xa5, ETH_ZLEN - len);
			return ETH_ZLEN;
		}
		memset(buf + len, 0x5a, ETH_FCS_LEN);
		return len + ETH_FCS_LEN;
	case MLX4_RXT_ICMP6:
	case MLX4_RXT_FRAG6:
		((struct ethhdr *)buf)->h_proto = htons(ETH_P_IPV6);
		ip6->version = 6;
		ip6->hop_limit = 64;
		ip6->nexthdr = kind == MLX4_RXT_ICMP6 ? IPPROTO_ICMPV6 :
							NEXTHDR_FRAGMENT;
		ip6->payload_len = htons(MLX4_RXT_L4_LEN);
		ip6->saddr.s6_addr[0] = 0xfd;
		ip6->saddr.s6_addr[15] = 1;
		ip6->daddr.s6_addr[0] = 0xfd;
		ip6->daddr.s6_addr[15] = 2;
		for (i = 8; i < MLX4_RXT_L4_LEN; i++)
			((u8 *)(ip6 + 1))[i] = i * 11;
		*sum = mlx4_rxt_cqe_sum(mlx4_rxt_hw_sum6(ip6));
		return ETH_HLEN + sizeof(*ip6) + MLX4_RXT_L4_LEN;
	case MLX4_RXT_ARP:
	default:
		((struct ethhdr *)buf)->h_proto = htons(ETH_P_ARP);
		for (i = ETH_HLEN; i < 100; i++)
			buf[i] = i;
		*sum = 0;
		return 100;
	}
}

/* a. Each frame kind, and the settings that turn the report off: the
 * stack gets the ip_summed of the table, a COMPLETE skb->csum sums the
 * frame from its IP header on (so the stack finds a bad L4 checksum
 * itself), and the ring counts the report.
 */
static void mlx4_rx_checksum_by_frame_kind(struct kunit *test)
{
	const struct mlx4_rxt_csum_case *c = test->param_value;
	struct bpf_prog *prog = NULL;
	unsigned long before[3];
	struct mlx4_cqe *cqe;
	struct sk_buff *skb;
	struct mlx4_rxt *t;
	unsigned int len;
	__be16 sum;
	u8 *frame;

	frame = kunit_kzalloc(test, ETH_FRAME_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, frame);
	if (c->xdp)
		prog = mlx4_rxt_xdp_prog(test, XDP_PASS);
	t = mlx4_rxt_start(test, 1500, prog);
	t->dev->features = c->features;
	if (c->any_ip)
		t->priv->flags |= MLX4_EN_FLAG_RX_CSUM_NON_TCP_UDP;
	before[0] = t->ring->csum_ok;
	before[1] = t->ring->csum_complete;
	before[2] = t->ring->csum_none;

	len = mlx4_rxt_build(frame, c->frame, &sum);
	cqe = mlx4_rxt_write(t, frame, len, 0);
	cqe->status = cpu_to_be16(c->status);
	cqe->checksum = sum;
	mlx4_rxt_complete(t, cqe, 0);
	KUNIT_EXPECT_EQ(test, mlx4_rxt_poll(t, 64), 1);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&t->skbs), 1U);
	skb = skb_peek(&t->skbs);
	KUNIT_EXPECT_EQ(test, skb->len + ETH_HLEN, len);
	KUNIT_EXPECT_EQ(test, (u8)skb->ip_summed, c->ip_summed);
	if (skb->ip_summed == CHECKSUM_COMPLETE) {
		u16 reported = (__force u16)csum_fold(skb->csum);
		u16 summed = (__force u16)csum_fold(skb_checksum(skb, 0,
								 skb->len, 0));

		KUNIT_EXPECT_EQ(test, reported, summed);
	}
	KUNIT_EXPECT_EQ(test, t->ring->csum_ok - before[0],
			c->ip_summed == CHECKSUM_UNNECESSARY ? 1UL : 0UL);
	KUNIT_EXPECT_EQ(test, t->ring->csum_complete - before[1],
			c->ip_summed == CHECKSUM_COMPLETE ? 1UL : 0UL);
	KUNIT_EXPECT_EQ(test, t->ring->csum_none - before[2],
			c->ip_summed == CHECKSUM_NONE ? 1UL : 0UL);

	mlx4_rxt_free_skbs(t);
	mlx4_rxt_stop(t);
	if (prog)
		bpf_prog_free(prog);
	mlx4_rxt_expect_released(test, t);
}

static struct kunit_case mlx4_rxt_csum_test_cases[] = {
	KUNIT_CASE_PARAM(mlx4_rx_checksum_by_frame_kind,
			 mlx4_rxt_csum_gen_params),
	{}
};

static struct kunit_suite mlx4_rxt_csum_suite = {
	.name = "mlx4_en_rx_csum",
	.init = mlx4_rxt_init,
	.exit = mlx4_rxt_exit,
	.suite_init = mlx4_rxt_suite_init,
	.suite_exit = mlx4_rxt_suite_exit,
	.test_cases = mlx4_rxt_csum_test_cases,
};

kunit_test_suite(mlx4_rxt_csum_suite);
