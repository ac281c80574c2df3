/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's error numbers are the UAPI ones the C library uses too:
 * take them from the next <asm/errno.h> on the path. This stand-in
 * exists only because the C library's own <errno.h> reaches
 * <asm/errno.h> through <linux/errno.h>, and must not loop back here.
 */
#ifndef _SHIM_ASM_ERRNO_H
#define _SHIM_ASM_ERRNO_H

#include_next <asm/errno.h>

#endif /* _SHIM_ASM_ERRNO_H */
