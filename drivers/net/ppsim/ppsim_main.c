// SPDX-License-Identifier: GPL-2.0
/*
 * ppsim: devices on the "ppsim" bus, created and destroyed through
 * /sys/bus/ppsim/{new_device,del_device}, each with one netdev; the
 * per-device knobs (RX mode, the wire, TX stall) are attributes of the
 * bus device.
 */
#include <linux/bpf.h>
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>

#include "ppsim.h"

static LIST_HEAD(ppsim_devs);
static DEFINE_MUTEX(ppsim_devs_lock);	/* protects ppsim_devs */
/* Module unload has emptied ppsim_devs: no new device may join it. */
static bool ppsim_exiting;
/* The pp_hold pages of removed devices, kept in flight so that their
 * pools outlive the device, until held_pages is written or the module
 * goes; under ppsim_devs_lock.
 */
static LIST_HEAD(ppsim_orphans);

/* ---- netdev ---- */

static int ppsim_open(struct net_device *ndev)
{
	struct ppsim_priv *priv = netdev_priv(ndev);
	int err;

	err = ppsim_queues_start(priv);
	if (err)
		return err;
	netif_carrier_on(ndev);
	netif_tx_start_all_queues(ndev);
	return 0;
}

static int ppsim_stop(struct net_device *ndev)
{
	struct ppsim_priv *priv = netdev_priv(ndev);

	netif_tx_disable(ndev);
	netif_carrier_off(ndev);
	ppsim_queues_stop(priv);
	return 0;
}

static void ppsim_get_stats64(struct net_device *ndev,
			      struct rtnl_link_stats64 *stats)
{
	struct ppsim_priv *priv = netdev_priv(ndev);
	struct ppsim_rxq_counts s;
	u32 i;

	for (i = 0; i < PPSIM_MAX_RXQ; i++) {
		ppsim_rxq_stats_read(&priv->stats[i], &s);
		stats->rx_packets += s.packets;
		stats->rx_bytes += s.bytes;
		stats->rx_dropped += s.drops;
	}
	stats->tx_dropped = atomic64_read(&priv->tx_dropped);
}

/* Attaching or detaching a program changes the buffers' headroom: a
 * running device restarts its queues around it.
 */
static int ppsim_xdp_setup(struct ppsim_priv *priv, struct bpf_prog *prog,
			   struct netlink_ext_ack *extack)
{
	struct net_device *ndev = priv->ndev;
	struct bpf_prog *old = priv->xdp_prog;
	bool running = netif_running(ndev);
	int err = 0;

	if (running) {
		netif_tx_disable(ndev);
		ppsim_queues_stop(priv);
	}
	priv->xdp_prog = prog;
	if (running) {
		err = ppsim_queues_start(priv);
		if (err) {
			NL_SET_ERR_MSG_MOD(extack, "cannot restart the RX queues");
			priv->xdp_prog = old;
			if (ppsim_queues_start(priv)) {
				netdev_err(ndev, "cannot restart after a failed XDP change\n");
				dev_close(ndev);
			}
		} else {
			netif_tx_wake_all_queues(ndev);
		}
	}
	if (err)
		return err;
	if (old)
		bpf_prog_put(old);
	return 0;
}

static int ppsim_bpf(struct net_device *ndev, struct netdev_bpf *bpf)
{
	struct ppsim_priv *priv = netdev_priv(ndev);

	switch (bpf->command) {
	case XDP_SETUP_PROG:
		return ppsim_xdp_setup(priv, bpf->prog, bpf->extack);
	default:
		return -EINVAL;
	}
}

static const struct net_device_ops ppsim_netdev_ops = {
	.ndo_open = ppsim_open,
	.ndo_stop = ppsim_stop,
	.ndo_start_xmit = ppsim_xmit,
	.ndo_get_stats64 = ppsim_get_stats64,
	.ndo_bpf = ppsim_bpf,
	.ndo_xdp_xmit = ppsim_xdp_xmit,
	.ndo_set_mac_address = eth_mac_addr,
	.ndo_validate_addr = eth_validate_addr,
};

/**
 * ppsim_reconfigure() - change the number of RX queues or the ring size
 * @priv: the device
 * @num_rxq: RX queues wanted
 * @ring_size: descriptors per queue wanted
 *
 * A running device is stopped and restarted around the change; frames
 * in its rings are dropped, as a NIC's are. If the restart fails the old
 * settings are put back.
 *
 * Context: process, RTNL held.
 * Return: 0 or the error of the restart.
 */
int ppsim_reconfigure(struct ppsim_priv *priv, u32 num_rxq, u32 ring_size)
{
	struct net_device *ndev = priv->ndev;
	u32 old_rxq = priv->num_rxq, old_size = priv->ring_size;
	bool running = netif_running(ndev);
	int err;

	ASSERT_RTNL();
	err = netif_set_real_num_rx_queues(ndev, num_rxq);
	if (err)
		return err;
	if (running) {
		netif_tx_disable(ndev);
		ppsim_queues_stop(priv);
	}
	priv->num_rxq = num_rxq;
	priv->ring_size = ring_size;
	if (!running)
		return 0;

	err = ppsim_queues_start(priv);
	if (err) {
		priv->num_rxq = old_rxq;
		priv->ring_size = old_size;
		netif_set_real_num_rx_queues(ndev, old_rxq);
		if (ppsim_queues_start(priv)) {
			netdev_err(ndev, "cannot restart after a failed change\n");
			dev_close(ndev);
			return err;
		}
	}
	netif_tx_wake_all_queues(ndev);
	return err;
}

static void ppsim_setup(struct net_device *ndev)
{
	ether_setup(ndev);
	ndev->netdev_ops = &ppsim_netdev_ops;
	ndev->ethtool_ops = &ppsim_ethtool_ops;
	/* No netpoll: the device model's locks are taken with IRQs on,
	 * and netpoll may transmit from a hard IRQ.
	 */
	ndev->priv_flags |= IFF_LIVE_ADDR_CHANGE | IFF_DISABLE_NETPOLL;
	ndev->min_mtu = ETH_MIN_MTU;
	ndev->max_mtu = ETH_DATA_LEN;
}

/* ---- the bus device's attributes ---- */

static struct ppsim_dev *to_ppsim_dev(struct device *dev)
{
	return container_of(dev, struct ppsim_dev, dev);
}

static ssize_t rx_mode_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct ppsim_priv *priv = netdev_priv(to_ppsim_dev(dev)->ndev);

	return sysfs_emit(buf, "%s\n", ppsim_mode_names[READ_ONCE(priv->mode)]);
}

static ssize_t rx_mode_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t count)
{
	struct net_device *ndev = to_ppsim_dev(dev)->ndev;
	struct ppsim_priv *priv = netdev_priv(ndev);
	int mode;

	mode = sysfs_match_string(ppsim_mode_names, buf);
	if (mode < 0) {
		dev_warn(dev, "rx_mode: unknown mode, want alloc, cache, pool, frag or order3\n");
		return -EINVAL;
	}
	rtnl_lock();
	if (netif_running(ndev)) {
		rtnl_unlock();
		dev_warn(dev, "rx_mode: set the device down first\n");
		return -EBUSY;
	}
	WRITE_ONCE(priv->mode, mode);
	rtnl_unlock();
	return count;
}
static DEVICE_ATTR_RW(rx_mode);

static ssize_t wire_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct ppsim_priv *priv = netdev_priv(to_ppsim_dev(dev)->ndev);
	u32 left;

	rtnl_lock();
	left = ppsim_wire_left(priv);
	rtnl_unlock();
	return sysfs_emit(buf, "%u\n", left);
}

/* "FRAMES LEN": FRAMES more frames of LEN bytes for every RX queue. */
static ssize_t wire_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t count)
{
	struct ppsim_priv *priv = netdev_priv(to_ppsim_dev(dev)->ndev);
	u32 frames, len;
	char end;
	int err;

	if (sscanf(buf, "%u %u %c", &frames, &len, &end) != 2) {
		dev_warn(dev, "wire: want \"FRAMES LEN\"\n");
		return -EINVAL;
	}
	rtnl_lock();
	err = ppsim_wire_start(priv, frames, len);
	rtnl_unlock();
	if (err == -EINVAL)
		dev_warn(dev, "wire: LEN must be %u..%u and the same as the frames still queued\n",
			 PPSIM_FRAME_MIN, PPSIM_FRAME_MAX);
	else if (err == -ENETDOWN)
		dev_warn(dev, "wire: the device is down\n");
	return err ? err : count;
}
static DEVICE_ATTR_RW(wire);

static ssize_t wire_rate_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct ppsim_priv *priv = netdev_priv(to_ppsim_dev(dev)->ndev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(priv->wire_rate));
}

/* Frames per second the far end sends to each RX queue, 0 for no limit;
 * a wire paced by the old rate takes the new one with its next frame.
 */
static ssize_t wire_rate_store(struct device *dev,
			       struct device_attribute *attr, const char *buf,
			       size_t count)
{
	struct ppsim_priv *priv = netdev_priv(to_ppsim_dev(dev)->ndev);
	u32 rate;

	if (kstrtou32(buf, 10, &rate)) {
		dev_warn(dev, "wire_rate: want frames per second per queue, 0 for no limit\n");
		return -EINVAL;
	}
	WRITE_ONCE(priv->wire_rate, rate);
	return count;
}
static DEVICE_ATTR_RW(wire_rate);

static ssize_t tx_stall_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct ppsim_priv *priv = netdev_priv(to_ppsim_dev(dev)->ndev);

	return sysfs_emit(buf, "%d\n", READ_ONCE(priv->tx_stall));
}

/* "1": TX stops completing; XDP_TX frames and frames redirected to the
 * device wait on the XDP TX rings, dropped when a ring is full. "0": TX
 * resumes and sends what the rings hold.
 */
static ssize_t tx_stall_store(struct device *dev,
			      struct device_attribute *attr, const char *buf,
			      size_t count)
{
	struct ppsim_priv *priv = netdev_priv(to_ppsim_dev(dev)->ndev);
	u32 stall;

	if (kstrtou32(buf, 10, &stall) || stall > 1) {
		dev_warn(dev, "tx_stall: want 0 (TX runs) or 1 (TX holds its frames)\n");
		return -EINVAL;
	}
	rtnl_lock();
	WRITE_ONCE(priv->tx_stall, stall);
	if (!stall)
		ppsim_tx_kick(priv);
	rtnl_unlock();
	return count;
}
static DEVICE_ATTR_RW(tx_stall);

static ssize_t pp_hold_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct ppsim_priv *priv = netdev_priv(to_ppsim_dev(dev)->ndev);

	return sysfs_emit(buf, "%d\n", !!READ_ONCE(priv->held));
}

static int ppsim_pp_hold(struct ppsim_priv *priv)
{
	struct ppsim_held *held;
	int err;

	held = kzalloc(sizeof(*held), GFP_KERNEL);
	if (!held)
		return -ENOMEM;
	err = ppsim_hold_page(priv, &held->page);
	if (err) {
		kfree(held);
		return err;
	}
	WRITE_ONCE(priv->held, held);
	return 0;
}

static void ppsim_held_free(struct ppsim_held *held)
{
	ppsim_release_page(held->page);
	kfree(held);
}

/* "1": keep a page of RX queue 0's pool in flight, across ifdown and
 * the device's removal; "0": give it back.
 */
static ssize_t pp_hold_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t count)
{
	struct ppsim_priv *priv = netdev_priv(to_ppsim_dev(dev)->ndev);
	int err = 0;
	bool hold;

	if (kstrtobool(buf, &hold)) {
		dev_warn(dev, "pp_hold: want 1 (hold a page) or 0 (release it)\n");
		return -EINVAL;
	}
#ifndef PAGE_POOL_HAS_NETDEV
	/* 6.1's pool, when it maps, drops its device reference from a work
	 * item after the last page returns, which may run after the module
	 * is gone.
	 */
	if (hold) {
		dev_warn(dev, "pp_hold: 6.1's page pool cannot outlive the device\n");
		return -EOPNOTSUPP;
	}
#endif
	rtnl_lock();
	if (hold && !priv->held) {
		err = ppsim_pp_hold(priv);
	} else if (!hold && priv->held) {
		ppsim_held_free(priv->held);
		WRITE_ONCE(priv->held, NULL);
	}
	rtnl_unlock();
	if (err == -ENETDOWN)
		dev_warn(dev, "pp_hold: the device is down\n");
	else if (err == -EOPNOTSUPP)
		dev_warn(dev, "pp_hold: rx_mode has no page pool\n");
	return err ? err : count;
}
static DEVICE_ATTR_RW(pp_hold);

static struct attribute *ppsim_dev_attrs[] = {
	&dev_attr_rx_mode.attr,
	&dev_attr_wire.attr,
	&dev_attr_wire_rate.attr,
	&dev_attr_tx_stall.attr,
	&dev_attr_pp_hold.attr,
	NULL,
};
ATTRIBUTE_GROUPS(ppsim_dev);

/* ---- device life cycle ---- */

static void ppsim_dev_release(struct device *dev)
{
	kfree(to_ppsim_dev(dev));
}

static struct ppsim_dev *ppsim_find(u32 id)
{
	struct ppsim_dev *pdev;

	list_for_each_entry(pdev, &ppsim_devs, list)
		if (pdev->id == id)
			return pdev;
	return NULL;
}

static struct bus_type ppsim_bus;

static struct net_device *ppsim_netdev_create(struct ppsim_dev *pdev,
					      u32 num_rxq)
{
	struct net_device *ndev;
	struct ppsim_priv *priv;
	int err;
	u32 i;

	ndev = alloc_netdev_mqs(sizeof(*priv), "ppsim%d", NET_NAME_ENUM,
				ppsim_setup, 1, PPSIM_MAX_RXQ);
	if (!ndev)
		return ERR_PTR(-ENOMEM);
	priv = netdev_priv(ndev);
	priv->ndev = ndev;
	priv->pdev = pdev;
	priv->mode = PPSIM_MODE_POOL;
	priv->num_rxq = num_rxq;
	priv->ring_size = PPSIM_RING_DEF;
	priv->use_dma = IS_ENABLED(CONFIG_HAS_DMA);
	for (i = 0; i < PPSIM_MAX_RXQ; i++) {
		u64_stats_init(&priv->stats[i].syncp);
		u64_stats_init(&priv->stats[i].tx_syncp);
	}
	eth_hw_addr_random(ndev);
	SET_NETDEV_DEV(ndev, &pdev->dev);

	err = netif_set_real_num_rx_queues(ndev, num_rxq);
	if (!err)
		err = register_netdev(ndev);
	if (err) {
		free_netdev(ndev);
		return ERR_PTR(err);
	}
	return ndev;
}

static int ppsim_dev_add(u32 id, u32 num_rxq)
{
	struct ppsim_dev *pdev;
	int err;

	pdev = kzalloc(sizeof(*pdev), GFP_KERNEL);
	if (!pdev)
		return -ENOMEM;
	pdev->id = id;
	pdev->dev.bus = &ppsim_bus;
	pdev->dev.release = ppsim_dev_release;
	dev_set_name(&pdev->dev, "ppsim%u", id);
	device_initialize(&pdev->dev);
	if (IS_ENABLED(CONFIG_HAS_DMA)) {
		pdev->dev.dma_mask = &pdev->dev.coherent_dma_mask;
		err = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
		if (err)
			goto err_put;
	}
	err = device_add(&pdev->dev);
	if (err)
		goto err_put;

	pdev->ndev = ppsim_netdev_create(pdev, num_rxq);
	if (IS_ERR(pdev->ndev)) {
		err = PTR_ERR(pdev->ndev);
		device_del(&pdev->dev);
		goto err_put;
	}
	list_add_tail(&pdev->list, &ppsim_devs);
	return 0;

err_put:
	put_device(&pdev->dev);
	return err;
}

/* Under ppsim_devs_lock. */
static void ppsim_dev_del(struct ppsim_dev *pdev)
{
	struct ppsim_priv *priv = netdev_priv(pdev->ndev);

	list_del(&pdev->list);
	unregister_netdev(pdev->ndev);
	/* Waits for the attributes, which use the netdev, to finish. */
	device_del(&pdev->dev);
	/* The held page outlives the netdev: its pool must too. */
	if (priv->held)
		list_add_tail(&priv->held->list, &ppsim_orphans);
	priv->held = NULL;
	free_netdev(pdev->ndev);
	put_device(&pdev->dev);
}

/* "ID [RX_QUEUES]" */
static ssize_t new_device_store(struct bus_type *bus, const char *buf,
				size_t count)
{
	u32 id, num_rxq = 1;
	char end;
	int n, err;

	n = sscanf(buf, "%u %u %c", &id, &num_rxq, &end);
	if (n < 1 || n > 2) {
		pr_warn("ppsim: new_device: want \"ID [RX_QUEUES]\"\n");
		return -EINVAL;
	}
	if (!num_rxq || num_rxq > PPSIM_MAX_RXQ) {
		pr_warn("ppsim: new_device: RX_QUEUES must be 1..%u\n",
			PPSIM_MAX_RXQ);
		return -EINVAL;
	}
	mutex_lock(&ppsim_devs_lock);
	if (ppsim_exiting) {
		err = -ENODEV;
	} else if (ppsim_find(id)) {
		pr_warn("ppsim: new_device: device %u exists\n", id);
		err = -EEXIST;
	} else {
		err = ppsim_dev_add(id, num_rxq);
	}
	mutex_unlock(&ppsim_devs_lock);
	return err ? err : count;
}
static BUS_ATTR_WO(new_device);

/* "ID" */
static ssize_t del_device_store(struct bus_type *bus, const char *buf,
				size_t count)
{
	struct ppsim_dev *pdev;
	int err = 0;
	u32 id;
	char end;

	if (sscanf(buf, "%u %c", &id, &end) != 1) {
		pr_warn("ppsim: del_device: want \"ID\"\n");
		return -EINVAL;
	}
	mutex_lock(&ppsim_devs_lock);
	pdev = ppsim_find(id);
	if (pdev)
		ppsim_dev_del(pdev);
	else
		err = -ENOENT;
	mutex_unlock(&ppsim_devs_lock);
	if (err)
		pr_warn("ppsim: del_device: no device %u\n", id);
	return err ? err : count;
}
static BUS_ATTR_WO(del_device);

/* Under ppsim_devs_lock. */
static void ppsim_orphans_free(void)
{
	struct ppsim_held *held, *tmp;

	list_for_each_entry_safe(held, tmp, &ppsim_orphans, list) {
		list_del(&held->list);
		ppsim_held_free(held);
	}
}

static ssize_t held_pages_show(struct bus_type *bus, char *buf)
{
	struct ppsim_held *held;
	unsigned int n = 0;

	mutex_lock(&ppsim_devs_lock);
	list_for_each_entry(held, &ppsim_orphans, list)
		n++;
	mutex_unlock(&ppsim_devs_lock);
	return sysfs_emit(buf, "%u\n", n);
}

/* "0": give back the pages that removed devices held. */
static ssize_t held_pages_store(struct bus_type *bus, const char *buf,
				size_t count)
{
	u32 n;

	if (kstrtou32(buf, 10, &n) || n) {
		pr_warn("ppsim: held_pages: only 0 (release them all) may be written\n");
		return -EINVAL;
	}
	mutex_lock(&ppsim_devs_lock);
	ppsim_orphans_free();
	mutex_unlock(&ppsim_devs_lock);
	return count;
}
static BUS_ATTR_RW(held_pages);

static struct attribute *ppsim_bus_attrs[] = {
	&bus_attr_new_device.attr,
	&bus_attr_del_device.attr,
	&bus_attr_held_pages.attr,
	NULL,
};
ATTRIBUTE_GROUPS(ppsim_bus);

static struct bus_type ppsim_bus = {
	.name = "ppsim",
	.bus_groups = ppsim_bus_groups,
	.dev_groups = ppsim_dev_groups,
};

static int __init ppsim_init(void)
{
	return bus_register(&ppsim_bus);
}

static void __exit ppsim_exit(void)
{
	struct ppsim_dev *pdev, *tmp;

	mutex_lock(&ppsim_devs_lock);
	ppsim_exiting = true;
	list_for_each_entry_safe(pdev, tmp, &ppsim_devs, list)
		ppsim_dev_del(pdev);
	ppsim_orphans_free();
	mutex_unlock(&ppsim_devs_lock);
	bus_unregister(&ppsim_bus);
}

module_init(ppsim_init);
module_exit(ppsim_exit);
MODULE_DESCRIPTION("Simulated NIC for the page_pool RX path");
MODULE_LICENSE("GPL");
