// SPDX-License-Identifier: GPL-2.0
/*
 * lo_bench - TCP over loopback, the skb free path of every socket, to
 * compare two kernels that differ in how skbs give back pool pages:
 *
 *   lo_tcp_stream  a writer sends MSG-byte messages, a reader drains them
 *   lo_tcp_rr      one byte there and one back, TCP_NODELAY
 *
 * Each test runs REPS times, alternating, and prints the median:
 *
 *   bench lo_tcp_<test> pps=P ns_per_pkt=N runs=R
 *
 * with N the nanoseconds per message (stream) or per round trip (rr).
 * The peer is a child process on the same machine. Needs lo, which it
 * brings up.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MSG		16384
#define REPS		5
#define PORT		9100

struct lo_test {
	const char *name;
	/* One run of @n messages; ns per message, or 0 on failure. */
	double (*run)(unsigned int n);
	unsigned int n, n_quick;
	double ns[REPS];
	unsigned int runs;
};

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int lo_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	int err = fd < 0 || ioctl(fd, SIOCGIFFLAGS, &ifr);

	if (!err && !(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP;
		err = ioctl(fd, SIOCSIFFLAGS, &ifr);
	}
	if (fd >= 0)
		close(fd);
	return err ? -1 : 0;
}

static struct sockaddr_in lo_addr(void)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_port = htons(PORT),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};

	return a;
}

static void set_nodelay(int fd)
{
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

/* The peer, a child: accepts one connection and, for rr, echoes every
 * byte, or for a stream reads to the end. Returns its pid, or -1.
 */
static pid_t peer_start(int echo)
{
	struct sockaddr_in a = lo_addr();
	int one = 1, ls, fd;
	char buf[MSG];
	ssize_t k;
	pid_t pid;

	ls = socket(AF_INET, SOCK_STREAM, 0);
	if (ls < 0)
		return -1;
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(ls, (struct sockaddr *)&a, sizeof(a)) || listen(ls, 1)) {
		close(ls);
		return -1;
	}
	pid = fork();
	if (pid) {
		close(ls);
		return pid;
	}
	fd = accept(ls, NULL, NULL);
	if (fd < 0)
		_exit(1);
	if (echo)
		set_nodelay(fd);
	while ((k = read(fd, buf, echo ? 1 : sizeof(buf))) > 0)
		if (echo && write(fd, buf, k) != k)
			_exit(1);
	_exit(k < 0);
}

static int peer_connect(void)
{
	struct sockaddr_in a = lo_addr();
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Waits for the peer; true if it saw the whole exchange. */
static int peer_done(pid_t pid)
{
	int st;

	return waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	       !WEXITSTATUS(st);
}

static double run_stream(unsigned int n)
{
	static char buf[MSG];
	long long t0, t1;
	unsigned int i;
	pid_t pid;
	int fd, ok;

	pid = peer_start(0);
	if (pid < 0)
		return 0;
	fd = peer_connect();
	t0 = now_ns();
	for (i = 0; fd >= 0 && i < n; i++)
		if (write(fd, buf, sizeof(buf)) != sizeof(buf))
			break;
	if (fd >= 0)
		close(fd);
	ok = peer_done(pid) && i == n;
	t1 = now_ns();
	return ok ? (double)(t1 - t0) / n : 0;
}

static double run_rr(unsigned int n)
{
	long long t0, t1;
	unsigned int i;
	char c = 'x';
	pid_t pid;
	int fd, ok;

	pid = peer_start(1);
	if (pid < 0)
		return 0;
	fd = peer_connect();
	if (fd >= 0)
		set_nodelay(fd);
	t0 = now_ns();
	for (i = 0; fd >= 0 && i < n; i++)
		if (write(fd, &c, 1) != 1 || read(fd, &c, 1) != 1)
			break;
	t1 = now_ns();
	if (fd >= 0)
		close(fd);
	ok = peer_done(pid) && i == n;
	return ok ? (double)(t1 - t0) / n : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	struct lo_test tests[] = {
		{ .name = "lo_tcp_stream", .run = run_stream,
		  .n = 4096, .n_quick = 512 },
		{ .name = "lo_tcp_rr", .run = run_rr,
		  .n = 4000, .n_quick = 500 },
	};
	int quick = argc > 1 && !strcmp(argv[1], "--quick");
	unsigned int i, k, nt = ARRAY_SIZE(tests);
	int status = 0;
	double ns;

	if (argc > 1 && !quick) {
		fprintf(stderr, "usage: %s [--quick]\n", argv[0]);
		return 2;
	}
	if (lo_up()) {
		printf("bench lo failed: cannot bring lo up: %s\n",
		       strerror(errno));
		return 1;
	}
	for (k = 0; k < REPS; k++)
		for (i = 0; i < nt; i++) {
			ns = tests[i].run(quick ? tests[i].n_quick : tests[i].n);
			if (ns > 0)
				tests[i].ns[tests[i].runs++] = ns;
		}
	for (i = 0; i < nt; i++) {
		struct lo_test *t = &tests[i];

		if (t->runs < REPS) {
			printf("bench %s failed: %u of %d runs\n", t->name,
			       REPS - t->runs, REPS);
			status = 1;
			continue;
		}
		qsort(t->ns, t->runs, sizeof(double), cmp_double);
		ns = t->ns[t->runs / 2];
		printf("bench %s pps=%.0f ns_per_pkt=%.1f runs=%u\n", t->name,
		       1e9 / ns, ns, t->runs);
	}
	return status;
}
