// SPDX-License-Identifier: GPL-2.0
/* Command-line options (getopt_long). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "options.h"

enum {
	OPT_JSON = 256,
	OPT_PROMETHEUS,
	OPT_CHECK,
	OPT_DURATION,
	OPT_FAILURES_WARN,
	OPT_NO_BPF,
	OPT_RESTRICTED_ONLY,
	OPT_SELF,
	OPT_VERSION,
};

static const struct option long_opts[] = {
	{ "batch",		no_argument,		NULL, 'b' },
	{ "delay",		required_argument,	NULL, 'd' },
	{ "iterations",		required_argument,	NULL, 'n' },
	{ "json",		no_argument,		NULL, OPT_JSON },
	{ "prometheus",		required_argument,	NULL, OPT_PROMETHEUS },
	{ "check",		no_argument,		NULL, OPT_CHECK },
	{ "duration",		required_argument,	NULL, OPT_DURATION },
	{ "failures-warn",	no_argument,		NULL, OPT_FAILURES_WARN },
	{ "filter",		required_argument,	NULL, 'f' },
	{ "sort",		required_argument,	NULL, 's' },
	{ "reverse",		no_argument,		NULL, 'r' },
	{ "no-bpf",		no_argument,		NULL, OPT_NO_BPF },
	{ "restricted-only",	no_argument,		NULL, OPT_RESTRICTED_ONLY },
	{ "self",		no_argument,		NULL, OPT_SELF },
	{ "verbose",		no_argument,		NULL, 'v' },
	{ "help",		no_argument,		NULL, 'h' },
	{ "version",		no_argument,		NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

void options_usage(FILE *out)
{
	fputs("usage: rdmatop [OPTIONS]\n"
	      "\n"
	      "Live restricted DMA pools and the devices that use them.\n"
	      "\n"
	      "  -b, --batch            plain text, one block per interval (for logs)\n"
	      "  -d, --delay SECS       interval (default 1; 0.1 to 3600)\n"
	      "  -n, --iterations N     stop after N intervals\n"
	      "      --json             one JSON object per interval (NDJSON)\n"
	      "      --prometheus FILE  write FILE atomically every interval\n"
	      "                         (node_exporter textfile collector format)\n"
	      "      --check            verdict on out-of-pool DMA and pool failures\n"
	      "      --duration SECS    --check's window (default 10)\n"
	      "      --failures-warn    --check: pool failures warn, do not fail\n"
	      "  -f, --filter TEXT      only devices and pools whose name contains TEXT\n"
	      "  -s, --sort COLUMN      name, pool, used, maps, bytes, inflight,\n"
	      "                         failures or oop (default maps)\n"
	      "  -r, --reverse          reverse the sort\n"
	      "      --no-bpf           debugfs only: no BPF program\n"
	      "      --restricted-only  trace only devices with a restricted pool\n"
	      "                         (less kernel memory and cost per DMA)\n"
	      "      --self             show rdmatop's own cost: its BPF programs'\n"
	      "                         run time (kernel statistics, a little dearer)\n"
	      "  -v, --verbose          libbpf's log on stderr (-vv its debug log,\n"
	      "                         -vvv the verifier's statistics too)\n"
	      "  -h, --help             this text\n"
	      "      --version          the version\n"
	      "\n"
	      "Screen keys: q quit, s/S sort column/reverse, tab panel, / filter,\n"
	      "h help, space pause, +/- interval.\n"
	      "\n"
	      "Exit status: 0 ok (--check: nothing wrong seen); 1 --check found\n"
	      "out-of-pool DMA or pool failures; 2 usage or setup error.\n", out);
}

static int parse_secs(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int parse_long(const char *s, long lo, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo)
		return -1;
	*out = v;
	return 0;
}

#define BAD(...) do { fprintf(err, "rdmatop: " __VA_ARGS__); fputc('\n', err); \
		      return RT_EXIT_SETUP; } while (0)

int options_parse(struct rt_opts *o, int argc, char **argv, bool tty, FILE *err)
{
	bool batch = false, json = false, check = false, duration = false;
	int c, s;

	memset(o, 0, sizeof(*o));
	o->delay = 1;
	o->duration = 10;
	o->sort = RT_SORT_MAPS;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":bd:n:f:s:rvh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'b':
			batch = true;
			break;
		case 'd':
			if (parse_secs(optarg, 0.1, 3600, &o->delay))
				BAD("-d needs seconds between 0.1 and 3600, not '%s'", optarg);
			break;
		case 'n':
			if (parse_long(optarg, 1, &o->iterations))
				BAD("-n needs a positive count, not '%s'", optarg);
			break;
		case OPT_JSON:
			json = true;
			break;
		case OPT_PROMETHEUS:
			if (!*optarg)
				BAD("--prometheus needs a file name");
			o->prometheus = optarg;
			break;
		case OPT_CHECK:
			check = true;
			break;
		case OPT_DURATION:
			if (parse_secs(optarg, 0.1, 86400, &o->duration))
				BAD("--duration needs seconds between 0.1 and 86400, not '%s'",
				    optarg);
			duration = true;
			break;
		case OPT_FAILURES_WARN:
			o->failures_warn = true;
			break;
		case 'f':
			o->filter = optarg;
			break;
		case 's':
			s = rt_sort_parse(optarg);
			if (s < 0)
				BAD("unknown sort column '%s' (see --help)", optarg);
			o->sort = s;
			break;
		case 'r':
			o->reverse = true;
			break;
		case OPT_NO_BPF:
			o->no_bpf = true;
			break;
		case OPT_RESTRICTED_ONLY:
			o->restricted_only = true;
			break;
		case OPT_SELF:
			o->self = true;
			break;
		case 'v':
			o->verbose++;
			break;
		case 'h':
			o->help = true;
			return 0;
		case OPT_VERSION:
			o->version = true;
			return 0;
		case ':':
			BAD("%s needs an argument", argv[optind - 1]);
		default:
			BAD("unknown option '%s' (see --help)", argv[optind - 1]);
		}
	}
	if (optind < argc)
		BAD("unexpected argument '%s' (see --help)", argv[optind]);
	if (batch + json + check > 1)
		BAD("--batch, --json and --check go alone: choose one");
	if ((duration || o->failures_warn) && !check)
		BAD("--duration and --failures-warn go with --check");
	if (check && o->no_bpf)
		BAD("--check needs the BPF program: drop --no-bpf");
	if (o->self && o->no_bpf)
		BAD("--self measures the BPF program: drop --no-bpf");
	if (o->restricted_only && o->no_bpf)
		BAD("--restricted-only chooses what the BPF program traces: drop --no-bpf");
	if (check)
		o->mode = RT_MODE_CHECK;
	else if (json)
		o->mode = RT_MODE_JSON;
	else if (batch)
		o->mode = RT_MODE_BATCH;
	else if (o->prometheus)
		o->mode = RT_MODE_QUIET;
	else
		o->mode = tty ? RT_MODE_SCREEN : RT_MODE_BATCH;
	return 0;
}
