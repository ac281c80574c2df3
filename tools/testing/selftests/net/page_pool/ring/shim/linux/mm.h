/* SPDX-License-Identifier: GPL-2.0 */
/* ptr_ring.h includes this for its allocators, which are in slab.h. */
#ifndef _SHIM_LINUX_MM_H
#define _SHIM_LINUX_MM_H

#include <linux/slab.h>

#endif /* _SHIM_LINUX_MM_H */
