// SPDX-License-Identifier: GPL-2.0
/*
 * ppsim ethtool: counters (-S), ring size (-G) and RX queues (-L).
 */
#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>

#include "ppsim.h"

static const char * const ppsim_rxq_stat_names[] = {
	"packets", "bytes", "drops", "alloc_fail",
	"xdp_pass", "xdp_drop", "xdp_tx", "xdp_redirect", "xdp_aborted",
	"xdp_tx_full", "xdp_tx_done", "cache_reuse", "cache_busy",
};

static const char * const ppsim_dev_stat_names[] = {
	"tx_dropped", "xdp_xmit", "xdp_xmit_drop",
};

#define PPSIM_RXQ_NSTATS	ARRAY_SIZE(ppsim_rxq_stat_names)

static void ppsim_get_drvinfo(struct net_device *ndev,
			      struct ethtool_drvinfo *info)
{
	struct ppsim_priv *priv = netdev_priv(ndev);

	strscpy(info->driver, "ppsim", sizeof(info->driver));
	strscpy(info->bus_info, dev_name(&priv->pdev->dev),
		sizeof(info->bus_info));
}

/* Per queue counters for every queue configured, then the device's, then
 * the pools' counters summed over the queues and over the pools destroyed
 * before (zero in modes without a pool, so the layout depends only on the
 * queue count).
 */
static int ppsim_get_sset_count(struct net_device *ndev, int sset)
{
	struct ppsim_priv *priv = netdev_priv(ndev);

	if (sset != ETH_SS_STATS)
		return -EOPNOTSUPP;
	return priv->num_rxq * PPSIM_RXQ_NSTATS +
	       ARRAY_SIZE(ppsim_dev_stat_names) +
	       page_pool_ethtool_stats_get_count();
}

static void ppsim_get_strings(struct net_device *ndev, u32 sset, u8 *data)
{
	struct ppsim_priv *priv = netdev_priv(ndev);
	u32 i, j;

	if (sset != ETH_SS_STATS)
		return;
	for (i = 0; i < priv->num_rxq; i++)
		for (j = 0; j < PPSIM_RXQ_NSTATS; j++)
			ethtool_sprintf(&data, "rx%u_%s", i,
					ppsim_rxq_stat_names[j]);
	for (j = 0; j < ARRAY_SIZE(ppsim_dev_stat_names); j++)
		ethtool_sprintf(&data, "%s", ppsim_dev_stat_names[j]);
	page_pool_ethtool_stats_get_strings(data);
}

static void ppsim_pool_stats(struct ppsim_priv *priv, u64 *data)
{
#ifdef CONFIG_PAGE_POOL_STATS
	struct page_pool_stats pps = priv->pp_retired;
	u32 i;

	ASSERT_RTNL();
	/* The queues exist only while the device is up. */
	if (priv->rxq)
		for (i = 0; i < priv->num_rxq; i++)
			if (priv->rxq[i].pp)
				page_pool_get_stats(priv->rxq[i].pp, &pps);
	page_pool_ethtool_stats_get(data, &pps);
#endif
}

static void ppsim_get_ethtool_stats(struct net_device *ndev,
				    struct ethtool_stats *stats, u64 *data)
{
	struct ppsim_priv *priv = netdev_priv(ndev);
	struct ppsim_rxq_counts s;
	u32 i;

	for (i = 0; i < priv->num_rxq; i++) {
		ppsim_rxq_stats_read(&priv->stats[i], &s);
		*data++ = s.packets;
		*data++ = s.bytes;
		*data++ = s.drops;
		*data++ = s.alloc_fail;
		*data++ = s.xdp_pass;
		*data++ = s.xdp_drop;
		*data++ = s.xdp_tx;
		*data++ = s.xdp_redirect;
		*data++ = s.xdp_aborted;
		*data++ = s.xdp_tx_full;
		*data++ = s.xdp_tx_done;
		*data++ = s.cache_reuse;
		*data++ = s.cache_busy;
	}
	*data++ = atomic64_read(&priv->tx_dropped);
	*data++ = atomic64_read(&priv->xdp_xmit);
	*data++ = atomic64_read(&priv->xdp_xmit_drop);
	ppsim_pool_stats(priv, data);
}

static void ppsim_get_ringparam(struct net_device *ndev,
				struct ethtool_ringparam *ring,
				struct kernel_ethtool_ringparam *kring,
				struct netlink_ext_ack *extack)
{
	struct ppsim_priv *priv = netdev_priv(ndev);

	ring->rx_max_pending = PPSIM_RING_MAX;
	ring->rx_pending = priv->ring_size;
}

static int ppsim_set_ringparam(struct net_device *ndev,
			       struct ethtool_ringparam *ring,
			       struct kernel_ethtool_ringparam *kring,
			       struct netlink_ext_ack *extack)
{
	struct ppsim_priv *priv = netdev_priv(ndev);

	if (ring->rx_mini_pending || ring->rx_jumbo_pending ||
	    ring->tx_pending) {
		NL_SET_ERR_MSG_MOD(extack, "only the RX ring can be sized");
		return -EINVAL;
	}
	if (ring->rx_pending < PPSIM_RING_MIN) {
		NL_SET_ERR_MSG_MOD(extack, "RX ring below the minimum of 64");
		return -EINVAL;
	}
	if (ring->rx_pending == priv->ring_size)
		return 0;
	return ppsim_reconfigure(priv, priv->num_rxq, ring->rx_pending);
}

static void ppsim_get_channels(struct net_device *ndev,
			       struct ethtool_channels *ch)
{
	struct ppsim_priv *priv = netdev_priv(ndev);

	ch->max_rx = PPSIM_MAX_RXQ;
	ch->rx_count = priv->num_rxq;
	ch->max_tx = 1;
	ch->tx_count = 1;
}

static int ppsim_set_channels(struct net_device *ndev,
			      struct ethtool_channels *ch)
{
	struct ppsim_priv *priv = netdev_priv(ndev);

	/* The ethtool core has checked the counts against the maxima. */
	if (ch->rx_count == priv->num_rxq)
		return 0;
	return ppsim_reconfigure(priv, ch->rx_count, priv->ring_size);
}

const struct ethtool_ops ppsim_ethtool_ops = {
	.get_drvinfo = ppsim_get_drvinfo,
	.get_link = ethtool_op_get_link,
	.get_sset_count = ppsim_get_sset_count,
	.get_strings = ppsim_get_strings,
	.get_ethtool_stats = ppsim_get_ethtool_stats,
	.get_ringparam = ppsim_get_ringparam,
	.set_ringparam = ppsim_set_ringparam,
	.get_channels = ppsim_get_channels,
	.set_channels = ppsim_set_channels,
};
