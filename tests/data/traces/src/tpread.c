// SPDX-License-Identifier: GPL-2.0-only
/* tpread TRACE_PIPE OUT: copy TRACE_PIPE to OUT, reading with O_NONBLOCK and
 * sleeping 100 ms whenever the pipe is empty. A plain `cat trace_pipe`
 * blocks in read and is woken for every new event; its own wakeups and
 * switches are then new events, so it feeds itself without end. Polling
 * bounds that to about 10 wakeups per second. Exits once it has read
 * something and read() returns 0 (EOF: the kernel does that when tracing_on
 * is 0 and the buffer is drained), or on SIGTERM after a final drain. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;
static void on_term(int sig) { (void)sig; stop = 1; }

int main(int argc, char **argv)
{
	static char buf[1 << 16];
	if (argc != 3) {
		fprintf(stderr, "usage: tpread TRACE_PIPE OUT\n");
		return 2;
	}
	signal(SIGTERM, on_term);
	int in = open(argv[1], O_RDONLY | O_NONBLOCK);
	int out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (in < 0 || out < 0) {
		perror("open");
		return 1;
	}
	struct timespec nap = { 0, 100 * 1000 * 1000 };
	for (;;) {
		ssize_t n = read(in, buf, sizeof(buf));
		if (n > 0) {
			if (write(out, buf, n) != n) {
				perror("write");
				return 1;
			}
			continue;
		}
		if (n == 0)
			break;                 /* EOF: tracing off and drained */
		if (errno != EAGAIN && errno != EINTR) {
			perror("read");
			return 1;
		}
		if (stop)
			break;
		nanosleep(&nap, NULL);
	}
	close(out);
	return 0;
}
