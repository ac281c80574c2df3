// SPDX-License-Identifier: GPL-2.0
/*
 * um-fpstate: run inside a UML kernel, as TAP. Checks that the kernel
 * sized each task's FP state from the host (the size it printed at boot,
 * given as argv[1], against CPUID leaf 0xD) and that a task's vector
 * registers survive what UML does to them: a fork, a switch to another
 * process and back, and a switch to another thread of the same process,
 * which runs in the same host process and so leaves only UML's copy of
 * the registers to restore from.
 *
 * The registers are loaded, held across raw syscalls and stored again
 * within one asm statement, so no compiled code can touch them. On a host
 * with AVX-512 that is zmm0-31 and k0-7 (the state past the 832 bytes of
 * a signal frame); with AVX only, ymm0-15.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

struct vregs {
	unsigned char v[32][64];	/* zmm0-31, or ymm0-15 in the low half */
	unsigned long k[8];		/* k0-7, 16 bits each */
};

/* One raw syscall made while the registers are held; ret is its result. */
struct op {
	long nr, a1, a2, a3, ret;
};

static int have_avx512;
static int tests;

static void result(int ok, const char *name)
{
	printf("%sok %d %s\n", ok ? "" : "not ", ++tests, name);
	fflush(stdout);
}

#define ZMM(n) "vmovdqu64 " #n "*64(%[in]), %%zmm" #n "\n\t"
#define ZMM_OUT(n) "vmovdqu64 %%zmm" #n ", " #n "*64(%[out])\n\t"
#define K(n) "kmovw 2048+" #n "*8(%[in]), %%k" #n "\n\t"
#define K_OUT(n) "kmovw %%k" #n ", 2048+" #n "*8(%[out])\n\t"
#define YMM(n) "vmovdqu " #n "*64(%[in]), %%ymm" #n "\n\t"
#define YMM_OUT(n) "vmovdqu %%ymm" #n ", " #n "*64(%[out])\n\t"

/* The syscall loop, with op and n in registers that a syscall keeps. */
#define SYSCALLS \
	"1:\n\t" \
	"test %[n], %[n]\n\t" \
	"jz 2f\n\t" \
	"mov 0(%[op]), %%rax\n\t" \
	"mov 8(%[op]), %%rdi\n\t" \
	"mov 16(%[op]), %%rsi\n\t" \
	"mov 24(%[op]), %%rdx\n\t" \
	"syscall\n\t" \
	"mov %%rax, 32(%[op])\n\t" \
	"add $40, %[op]\n\t" \
	"dec %[n]\n\t" \
	"jmp 1b\n" \
	"2:\n\t"

__attribute__((target("avx512f")))
static void hold_avx512(const struct vregs *in, struct vregs *out,
			struct op *op, long n)
{
	asm volatile(ZMM(0) ZMM(1) ZMM(2) ZMM(3) ZMM(4) ZMM(5) ZMM(6) ZMM(7)
		ZMM(8) ZMM(9) ZMM(10) ZMM(11) ZMM(12) ZMM(13) ZMM(14) ZMM(15)
		ZMM(16) ZMM(17) ZMM(18) ZMM(19) ZMM(20) ZMM(21) ZMM(22) ZMM(23)
		ZMM(24) ZMM(25) ZMM(26) ZMM(27) ZMM(28) ZMM(29) ZMM(30) ZMM(31)
		K(0) K(1) K(2) K(3) K(4) K(5) K(6) K(7)
		SYSCALLS
		ZMM_OUT(0) ZMM_OUT(1) ZMM_OUT(2) ZMM_OUT(3) ZMM_OUT(4)
		ZMM_OUT(5) ZMM_OUT(6) ZMM_OUT(7) ZMM_OUT(8) ZMM_OUT(9)
		ZMM_OUT(10) ZMM_OUT(11) ZMM_OUT(12) ZMM_OUT(13) ZMM_OUT(14)
		ZMM_OUT(15) ZMM_OUT(16) ZMM_OUT(17) ZMM_OUT(18) ZMM_OUT(19)
		ZMM_OUT(20) ZMM_OUT(21) ZMM_OUT(22) ZMM_OUT(23) ZMM_OUT(24)
		ZMM_OUT(25) ZMM_OUT(26) ZMM_OUT(27) ZMM_OUT(28) ZMM_OUT(29)
		ZMM_OUT(30) ZMM_OUT(31)
		K_OUT(0) K_OUT(1) K_OUT(2) K_OUT(3) K_OUT(4) K_OUT(5)
		K_OUT(6) K_OUT(7)
		: [op] "+r" (op), [n] "+r" (n)
		: [in] "r" (in), [out] "r" (out)
		: "rax", "rdi", "rsi", "rdx", "rcx", "r11", "memory",
		  "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
		  "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
		  "xmm14", "xmm15", "xmm16", "xmm17", "xmm18", "xmm19",
		  "xmm20", "xmm21", "xmm22", "xmm23", "xmm24", "xmm25",
		  "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31",
		  "k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7");
}

__attribute__((target("avx")))
static void hold_avx(const struct vregs *in, struct vregs *out,
		     struct op *op, long n)
{
	asm volatile(YMM(0) YMM(1) YMM(2) YMM(3) YMM(4) YMM(5) YMM(6) YMM(7)
		YMM(8) YMM(9) YMM(10) YMM(11) YMM(12) YMM(13) YMM(14) YMM(15)
		SYSCALLS
		YMM_OUT(0) YMM_OUT(1) YMM_OUT(2) YMM_OUT(3) YMM_OUT(4)
		YMM_OUT(5) YMM_OUT(6) YMM_OUT(7) YMM_OUT(8) YMM_OUT(9)
		YMM_OUT(10) YMM_OUT(11) YMM_OUT(12) YMM_OUT(13) YMM_OUT(14)
		YMM_OUT(15)
		: [op] "+r" (op), [n] "+r" (n)
		: [in] "r" (in), [out] "r" (out)
		: "rax", "rdi", "rsi", "rdx", "rcx", "r11", "memory",
		  "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
		  "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
		  "xmm14", "xmm15");
}

/* Load in, make the n syscalls of op, store the registers to out. */
static void hold(const struct vregs *in, struct vregs *out, struct op *op,
		 long n)
{
	memset(out, 0, sizeof(*out));
	if (have_avx512)
		hold_avx512(in, out, op, n);
	else
		hold_avx(in, out, op, n);
}

static void fill(struct vregs *r, unsigned int seed)
{
	int i, j;

	memset(r, 0, sizeof(*r));
	/* With AVX only, ymm0-15: the low 32 bytes of the first 16 slots. */
	for (i = 0; i < (have_avx512 ? 32 : 16); i++)
		for (j = 0; j < (have_avx512 ? 64 : 32); j++) {
			seed = seed * 1103515245 + 12345;
			r->v[i][j] = seed >> 16;
		}
	for (i = 0; have_avx512 && i < 8; i++)
		r->k[i] = (seed >> (2 * i)) & 0xffff;
}

/* Whether out matches in; names the first register that does not. */
static int same(const struct vregs *in, const struct vregs *out,
		const char *who)
{
	int i;

	for (i = 0; i < 32; i++)
		if (memcmp(in->v[i], out->v[i], 64)) {
			printf("# %s: %cmm%d differs\n", who,
			       have_avx512 ? 'z' : 'y', i);
			fflush(stdout);
			return 0;
		}
	for (i = 0; i < 8; i++)
		if (in->k[i] != out->k[i]) {
			printf("# %s: k%d differs\n", who, i);
			fflush(stdout);
			return 0;
		}
	return 1;
}

static void check_size(const char *booted)
{
	unsigned int a, b, c, d;
	long size = booted ? atol(booted) : -1;

	/* EBX: the XSAVE area of the features the host enabled in XCR0. */
	__cpuid_count(0xd, 0, a, b, c, d);
	printf("# host XSAVE area %u bytes (CPUID 0xD: EBX), UML sized %ld\n",
	       b, size);
	result(size == b, "the FP state per task is the host's XSAVE area");
}

/* Registers held across fork(): the child starts with the parent's. */
static void check_fork(void)
{
	struct vregs in, out;
	struct op op = { .nr = SYS_fork };
	int status, ok;

	fill(&in, 1);
	hold(&in, &out, &op, 1);
	if (op.ret == 0)
		_exit(same(&in, &out, "fork child") ? 0 : 1);
	ok = op.ret > 0 && same(&in, &out, "fork parent");
	ok &= waitpid(op.ret, &status, 0) == op.ret &&
	      WIFEXITED(status) && WEXITSTATUS(status) == 0;
	result(ok, "a forked child gets its parent's vector registers");
}

/*
 * a and b take turns over two pipes, each holding its own registers:
 * a wakes b and sleeps, b loads its own values, wakes a and sleeps, and
 * so on for rounds turns. Each must find its own values at the end.
 */
struct turns {
	int to_a[2], to_b[2];
	int rounds;
	char byte;
};

static struct op sys(long nr, int fd, char *byte)
{
	return (struct op){ .nr = nr, .a1 = fd, .a2 = (long)byte, .a3 = 1 };
}

static void take_turns(struct turns *t, int is_a, struct vregs *in,
		       struct vregs *out)
{
	struct op op[64];
	int i, n = 0;

	if (!is_a)
		op[n++] = sys(SYS_read, t->to_b[0], &t->byte);
	for (i = 0; i < t->rounds; i++) {
		op[n++] = sys(SYS_write, is_a ? t->to_b[1] : t->to_a[1],
			      &t->byte);
		if (is_a || i + 1 < t->rounds)
			op[n++] = sys(SYS_read, is_a ? t->to_a[0] : t->to_b[0],
				      &t->byte);
	}
	hold(in, out, op, n);
	for (i = 0; i < n; i++)
		if (op[i].ret != 1)
			printf("# syscall %ld returned %ld\n", op[i].nr,
			       op[i].ret);
}

static void *thread_b(void *arg)
{
	struct turns *t = arg;
	static struct vregs in, out;

	fill(&in, 3);
	take_turns(t, 0, &in, &out);
	return (void *)(long)same(&in, &out, "thread b");
}

static int make_turns(struct turns *t)
{
	t->rounds = 20;
	return pipe(t->to_a) || pipe(t->to_b);
}

static void check_processes(void)
{
	struct vregs in, out;
	struct turns t;
	int status, ok;
	pid_t pid;

	pid = make_turns(&t) ? -1 : fork();
	if (pid < 0) {
		result(0, "registers survive a switch to another process");
		return;
	}
	if (pid == 0) {
		fill(&in, 2);
		take_turns(&t, 0, &in, &out);
		_exit(same(&in, &out, "process b") ? 0 : 1);
	}
	fill(&in, 1);
	take_turns(&t, 1, &in, &out);
	ok = same(&in, &out, "process a");
	ok &= waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0;
	result(ok, "registers survive a switch to another process");
}

static void check_threads(void)
{
	struct vregs in, out;
	struct turns t;
	pthread_t b;
	void *b_ok;
	int ok;

	if (make_turns(&t) || pthread_create(&b, NULL, thread_b, &t)) {
		result(0, "registers survive a switch to another thread");
		return;
	}
	fill(&in, 1);
	take_turns(&t, 1, &in, &out);
	ok = same(&in, &out, "thread a");
	ok &= pthread_join(b, &b_ok) == 0 && b_ok;
	result(ok, "registers survive a switch to another thread");
}

/* XCR0: the state the OS lets userspace use (CPUID says the CPU has it). */
static unsigned long long xcr0(void)
{
	unsigned int lo, hi;

	asm volatile("xgetbv" : "=a" (lo), "=d" (hi) : "c" (0));
	return lo | (unsigned long long)hi << 32;
}

int main(int argc, char **argv)
{
	unsigned int a, b, c, d;
	int have_avx;

	__cpuid(1, a, b, c, d);
	have_avx = (c & bit_OSXSAVE) && (c & bit_AVX) && (xcr0() & 0x6) == 0x6;
	__cpuid_count(7, 0, a, b, c, d);
	/* opmask, ZMM_Hi256 and Hi16_ZMM on top of SSE and AVX */
	have_avx512 = have_avx && (b & bit_AVX512F) &&
		      (xcr0() & 0xe6) == 0xe6;
	printf("TAP version 13\n1..4\n");
	check_size(argc > 1 ? argv[1] : NULL);
	if (!have_avx) {
		for (a = 0; a < 3; a++)
			printf("ok %d # SKIP the host has no AVX\n", ++tests);
		return 0;
	}
	printf("# checking %s\n", have_avx512 ? "zmm0-31 and k0-7" : "ymm0-15");
	fflush(stdout);
	check_fork();
	check_processes();
	check_threads();
	return 0;
}
