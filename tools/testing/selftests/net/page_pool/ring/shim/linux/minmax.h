/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SHIM_LINUX_MINMAX_H
#define _SHIM_LINUX_MINMAX_H

/* Both sides converted to @type first, then compared once each. */
#define min_t(type, x, y)				\
({							\
	type __shim_x = (x);				\
	type __shim_y = (y);				\
							\
	__shim_x < __shim_y ? __shim_x : __shim_y;	\
})

#endif /* _SHIM_LINUX_MINMAX_H */
