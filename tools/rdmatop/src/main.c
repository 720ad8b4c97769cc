// SPDX-License-Identifier: GPL-2.0
/*
 * rdmatop: live restricted DMA pools and the devices that use them.
 *
 * One loop: wait for the interval (consuming rare events and keys), take
 * a sample into the model, hand the model to the chosen output.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "collect.h"
#include "options.h"
#include "output.h"
#include "screen.h"
#include "view.h"

#define RDMATOP_VERSION "1.0"

static volatile sig_atomic_t stop;	/* the signal that asked us to stop */

static void on_signal(int sig)
{
	stop = sig;
}

static double now_s(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec + tv.tv_usec / 1e6;
}

struct rdmatop {
	struct rt_opts opts;
	struct rt_model model;
	struct rt_bpf *bpf;
	struct screen *screen;
	struct sys_paths paths;		/* the kernel's files */
	char path_buf[3 * 4096];
	bool keys_eof;			/* stdin gives no more keys */
	unsigned long prom_failed;	/* --prometheus writes failed in a row */
};

/*
 * Pools, their devices and the device tree's assignments are walked at
 * start, when a device attached or detached, and every RESCAN intervals;
 * they rarely change. In between, an interval reads two numbers a pool.
 */
#define RESCAN 30

static bool attach_seen(const struct rt_model *m)
{
	size_t i;

	for (i = 0; i < m->ninterval; i++)
		if (m->interval_events[i].ev.type == RDMA_EV_ATTACH ||
		    m->interval_events[i].ev.type == RDMA_EV_DETACH)
			return true;
	return false;
}

static void sample(struct rdmatop *t)
{
	struct rt_model *m = &t->model;
	bool rescan;

	model_begin(m, now_s());
	if (t->bpf)
		bpf_events(t->bpf, m);
	rescan = m->gen % RESCAN == 1 || attach_seen(m);
	sys_pools(m, &t->paths, rescan);
	if (t->bpf)
		bpf_read(t->bpf, m);
	sys_devices(m, &t->paths, rescan);
	model_record_use(m);
	model_sort(m, t->opts.sort, t->opts.reverse);
}

/*
 * Whether stdin, which poll() called readable or hung up, is at its end:
 * no byte waits (a terminal with a key pending has one). /dev/null, a
 * file read to its end and a pipe whose writer is gone all poll readable
 * for ever, and reading keys from them would spin a CPU.
 */
static bool stdin_at_eof(short revents)
{
	int n = 0;

	if (revents & (POLLHUP | POLLERR | POLLNVAL))
		return !(revents & POLLIN) || ioctl(STDIN_FILENO, FIONREAD, &n) || n == 0;
	return ioctl(STDIN_FILENO, FIONREAD, &n) || n == 0;
}

/*
 * Waits until @deadline (seconds since the epoch), moving rare events into
 * the model and handling keys. Returns false when it is time to stop.
 */
static bool wait_until(struct rdmatop *t, double deadline)
{
	struct pollfd fds[2];
	enum screen_action a;
	int nfds = 0, ms, ret;
	bool keys = t->screen && !t->keys_eof;
	double left;

	if (t->bpf) {
		fds[nfds].fd = bpf_events_fd(t->bpf);
		fds[nfds++].events = POLLIN;
	}
	if (keys) {
		fds[nfds].fd = STDIN_FILENO;
		fds[nfds++].events = POLLIN;
	}
	while (!stop) {
		left = deadline - now_s();
		if (left <= 0)
			return true;
		ms = (int)(left * 1000) + 1;
		ret = poll(fds, (nfds_t)nfds, ms);
		if (ret < 0 && errno != EINTR)
			return false;
		if (ret <= 0)
			continue;
		if (t->bpf && (fds[0].revents & POLLIN))
			bpf_events(t->bpf, &t->model);
		if (!keys || !fds[nfds - 1].revents)
			continue;
		if (stdin_at_eof(fds[nfds - 1].revents)) {
			/* The screen goes on; only its keys are gone. */
			t->keys_eof = true;
			keys = false;
			nfds--;
			continue;
		}
		a = screen_keys(t->screen, &t->opts);
		if (a == SCREEN_QUIT)
			return false;
		if (a == SCREEN_REDRAW) {
			model_sort(&t->model, t->opts.sort, t->opts.reverse);
			screen_draw(t->screen, &t->model, &t->opts);
		}
		if (a == SCREEN_INTERVAL)
			return true;
	}
	return false;
}

/*
 * --prometheus: a failed write (a full disk, a missing directory) is
 * reported once and retried every interval; it never ends rdmatop, and
 * the recovery is reported too. Meanwhile the file keeps its last
 * contents, whose rdma_last_update_timestamp_seconds shows their age.
 */
static void prom_update(struct rdmatop *t)
{
	char err[512];

	if (prom_write(&t->model, t->opts.prometheus, err, sizeof(err))) {
		if (!t->prom_failed++)
			fprintf(stderr, "rdmatop: %s; will retry every interval\n", err);
		return;
	}
	if (t->prom_failed)
		fprintf(stderr, "rdmatop: %s written again after %lu failed interval%s\n",
			t->opts.prometheus, t->prom_failed, t->prom_failed == 1 ? "" : "s");
	t->prom_failed = 0;
}

/*
 * Hands the interval to the output. Returns 0 to go on, 1 when stdout's
 * reader has gone (| head: time to stop, quietly), -1 on a write error.
 */
static int emit(struct rdmatop *t)
{
	switch (t->opts.mode) {
	case RT_MODE_SCREEN:
		if (!screen_paused(t->screen))
			screen_draw(t->screen, &t->model, &t->opts);
		break;
	case RT_MODE_BATCH:
		out_batch(&t->model, stdout, t->opts.filter);
		break;
	case RT_MODE_JSON:
		out_json(&t->model, stdout, t->opts.filter);
		break;
	default:
		break;
	}
	model_events_done(&t->model);
	if (t->opts.prometheus)
		prom_update(t);
	if (t->opts.mode != RT_MODE_BATCH && t->opts.mode != RT_MODE_JSON)
		return 0;
	if (!fflush(stdout) && !ferror(stdout))
		return 0;
	if (errno == EPIPE)
		return 1;
	fprintf(stderr, "rdmatop: cannot write the output: %s\n", strerror(errno));
	return -1;
}

static int run_check(struct rdmatop *t)
{
	double start = now_s();

	if (!(t->model.features & RT_F_OOP_CHECK)) {
		fprintf(stderr, "rdmatop: --check cannot verify on this kernel: rdmatop sees no "
			"DMA API call here (no dma: trace events, and no fentry on "
			"dma_map_page_attrs: it needs ftrace direct calls, arm64 has them "
			"from Linux 6.4)\n");
		return RT_EXIT_SETUP;
	}
	fprintf(stderr, "rdmatop: checking every DMA of restricted devices for %.1fs\n",
		t->opts.duration);
	wait_until(t, start + t->opts.duration);
	sample(t);
	model_events_done(&t->model);
	return check_verdict(&t->model, t->opts.failures_warn, now_s() - start, stop, stdout);
}

static int run_loop(struct rdmatop *t)
{
	double next = now_s();
	long n = 0;
	int ret;

	for (;;) {
		next += t->opts.delay;
		if (!wait_until(t, next))
			break;
		if (next < now_s() - t->opts.delay)
			next = now_s();	/* fell behind (paused, suspended): resync */
		sample(t);
		ret = emit(t);
		if (ret)
			return ret > 0 ? RT_EXIT_OK : RT_EXIT_SETUP;
		if (t->opts.iterations && ++n >= t->opts.iterations)
			break;
	}
	return RT_EXIT_OK;
}

/* The slots of the board's restricted pools, found as a first sample would. */
static uint64_t board_slots(const struct sys_paths *paths)
{
	struct rt_model probe;
	uint64_t n = 0;
	size_t i;

	model_init(&probe);
	model_begin(&probe, now_s());
	sys_pools(&probe, paths, true);
	for (i = 0; i < probe.npools; i++)
		if (probe.pools[i].restricted)
			n += probe.pools[i].nslabs;
	model_free(&probe);
	return n;
}

static void warn_fallback(const struct rt_model *m)
{
	char line[512];

	view_unavailable(m, line, sizeof(line));
	if (line[0])
		fprintf(stderr, "rdmatop: %s\n", line);
}

int main(int argc, char **argv)
{
	struct rdmatop t;
	char err[512];
	int status;

	memset(&t, 0, sizeof(t));
	status = options_parse(&t.opts, argc, argv, isatty(STDOUT_FILENO), stderr);
	if (status)
		return status;
	if (t.opts.help) {
		options_usage(stdout);
		return RT_EXIT_OK;
	}
	if (t.opts.version) {
		printf("rdmatop %s\n", RDMATOP_VERSION);
		return RT_EXIT_OK;
	}
	sys_paths_at(&t.paths, getenv(RDMATOP_SYSROOT_ENV), t.path_buf, sizeof(t.path_buf));
	/* A fake tree (tests) needs neither privileges nor mounts. */
	if ((t.paths.debugfs == sys_default_paths.debugfs || !t.opts.no_bpf) &&
	    env_check(!t.opts.no_bpf, err, sizeof(err))) {
		fprintf(stderr, "rdmatop: %s\n", err);
		return RT_EXIT_SETUP;
	}
	model_init(&t.model);
	t.model.interval = t.opts.delay;
	if (!t.opts.no_bpf) {
		t.model.board_slots = board_slots(&t.paths);
		t.bpf = bpf_open(t.opts.verbose, t.opts.restricted_only, t.opts.self, &t.model,
				 err, sizeof(err));
		if (!t.bpf) {
			fprintf(stderr, "rdmatop: %s\n", err);
			return RT_EXIT_SETUP;
		}
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);

	/* The baseline: every later interval reports what happened since. */
	sample(&t);
	model_events_done(&t.model);
	if (t.opts.mode != RT_MODE_SCREEN && t.opts.mode != RT_MODE_JSON)
		warn_fallback(&t.model);

	if (t.opts.mode == RT_MODE_CHECK) {
		status = run_check(&t);
	} else {
		if (t.opts.mode == RT_MODE_SCREEN) {
			t.screen = screen_open();
			if (!t.screen) {
				fprintf(stderr, "rdmatop: no terminfo entry for TERM=%s: set TERM "
					"to a known terminal, or use -b\n",
					getenv("TERM") ? getenv("TERM") : "");
				status = RT_EXIT_SETUP;
				goto out;
			}
			screen_draw(t.screen, &t.model, &t.opts);
		}
		status = run_loop(&t);
		screen_close(t.screen);
		/*
		 * Stopped by a signal (systemd, init, Ctrl-C): the numbers go
		 * with the process, so that node_exporter does not serve them
		 * as current; the rules then see that nothing reports.
		 */
		if (stop && t.opts.prometheus && unlink(t.opts.prometheus) && errno != ENOENT)
			fprintf(stderr, "rdmatop: cannot remove %s: %s\n", t.opts.prometheus,
				strerror(errno));
	}
out:
	bpf_close(t.bpf);
	model_free(&t.model);
	return status;
}
