// SPDX-License-Identifier: GPL-2.0
/*
 * rdma-dtcheck - lint device trees for restricted-dma-pool mistakes.
 *
 * Exit status: 0 nothing at error level, 1 findings at error level (or
 * warnings under -Werror), 2 usage or input errors.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "input.h"
#include "model.h"
#include "output.h"
#include "overlay.h"
#include "usage.h"
#include "util.h"

enum format { FMT_TEXT, FMT_JSON, FMT_SARIF };

struct options {
	struct input_opts in;
	struct model_opts mo;
	struct check_conf *conf;
	enum format format;
	bool quiet;
	bool werror;
	const char *base;	/* --base: overlays are applied onto this */
	struct dt_input base_in;
	const char *usage_path;	/* --usage: rdmatop's JSON records */
	struct usage usage;
};

static void usage(FILE *f)
{
	fputs("Usage: rdma-dtcheck [OPTION]... FILE...\n"
	      "Check device trees (.dts, .dtso, .dtb, .dtbo; - for stdin) for\n"
	      "restricted-dma-pool mistakes that Linux would reject or ignore.\n"
	      "\n"
	      "  -I, --include=DIR     include directory for cpp and dtc (repeatable)\n"
	      "      --no-cpp          do not run source files through cpp\n"
	      "      --dtc=PROG        dtc to use (default: dtc)\n"
	      "      --cpp=PROG        preprocessor to use (default: cpp)\n"
	      "  -k, --kernel=VER      kernel semantics: 6.12 (default) or 6.1\n"
	      "      --arch=ARCH       arm64, arm or riscv (default: from the CPU nodes)\n"
	      "      --page-size=N     the kernel's page size: 4K (default), 16K or 64K\n"
	      "  -m, --memory=BASE:SIZE  RAM the bootloader passes (repeatable); replaces /memory\n"
	      "      --base=DTB        apply each FILE (an overlay) onto DTB and lint the result\n"
	      "  -u, --usage=JSON      check pool sizes against rdmatop --json records\n"
	      "  -f, --format=FMT      text (default), json or sarif\n"
	      "  -W NAME               enable check NAME (info checks become warnings)\n"
	      "  -W no-NAME            disable check NAME\n"
	      "  -E NAME               enable check NAME as an error\n"
	      "  -Werror               warnings also make the exit status 1\n"
	      "  -q, --quiet           only warnings and errors, no summary line\n"
	      "      --list-checks     list the checks and their default severity\n"
	      "  -h, --help            this help\n"
	      "  -V, --version         print the version\n"
	      "\n"
	      "Exit status: 0 no errors, 1 errors found (or warnings with -Werror),\n"
	      "2 usage or input errors. See rdma-dtcheck(1).\n", f);
}

static void list_checks(void)
{
	int i, k;

	for (i = 0; i < check_count; i++) {
		const struct check *c = &check_table[i];

		printf("%-30s %-8s%s %s", c->name, sev_name(c->sev),
		       c->off ? " (off)" : "", c->summary);
		for (k = 0; k < 3 && c->prereq[k]; k++)
			printf("%s%s", k ? ", " : " [after: ", c->prereq[k]);
		printf("%s\n", c->prereq[0] ? "]" : "");
	}
}

static int set_check(struct options *o, const char *arg, bool as_error)
{
	bool off = !as_error && !strncmp(arg, "no-", 3);
	int i = check_lookup(off ? arg + 3 : arg);

	if (!as_error && !strcmp(arg, "error")) {
		o->werror = true;
		return 0;
	}
	if (i < 0) {
		fprintf(stderr, "rdma-dtcheck: unknown check '%s' (see --list-checks)\n",
			off ? arg + 3 : arg);
		return -1;
	}
	o->conf[i].enabled = !off;
	if (as_error)
		o->conf[i].sev = SEV_ERROR;
	else if (!off && o->conf[i].sev < SEV_WARNING)
		o->conf[i].sev = SEV_WARNING;
	return 0;
}

static int parse_args(int argc, char **argv, struct options *o)
{
	enum { OPT_NO_CPP = 256, OPT_DTC, OPT_CPP, OPT_LIST, OPT_PAGE, OPT_BASE, OPT_ARCH };
	static const struct option longopts[] = {
		{ "include", required_argument, NULL, 'I' },
		{ "no-cpp", no_argument, NULL, OPT_NO_CPP },
		{ "dtc", required_argument, NULL, OPT_DTC },
		{ "cpp", required_argument, NULL, OPT_CPP },
		{ "format", required_argument, NULL, 'f' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "page-size", required_argument, NULL, OPT_PAGE },
		{ "memory", required_argument, NULL, 'm' },
		{ "base", required_argument, NULL, OPT_BASE },
		{ "arch", required_argument, NULL, OPT_ARCH },
		{ "usage", required_argument, NULL, 'u' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "list-checks", no_argument, NULL, OPT_LIST },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "I:f:k:m:u:W:E:qhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'I':
			o->in.incdirs = xrealloc(o->in.incdirs,
						 sizeof(char *) * (size_t)(o->in.nincdirs + 1));
			o->in.incdirs[o->in.nincdirs++] = optarg;
			break;
		case OPT_NO_CPP:
			o->in.no_cpp = true;
			break;
		case OPT_DTC:
			o->in.dtc = optarg;
			break;
		case OPT_CPP:
			o->in.cpp = optarg;
			break;
		case 'f':
			if (!strcmp(optarg, "text"))
				o->format = FMT_TEXT;
			else if (!strcmp(optarg, "json"))
				o->format = FMT_JSON;
			else if (!strcmp(optarg, "sarif"))
				o->format = FMT_SARIF;
			else {
				fprintf(stderr, "rdma-dtcheck: unknown format '%s'\n", optarg);
				return -1;
			}
			break;
		case 'k':
			if (!strcmp(optarg, "6.1"))
				o->mo.kernel = KVER_6_1;
			else if (!strcmp(optarg, "6.12"))
				o->mo.kernel = KVER_6_12;
			else {
				fprintf(stderr, "rdma-dtcheck: --kernel: '%s' is not 6.1 or 6.12\n",
					optarg);
				return -1;
			}
			break;
		case OPT_ARCH:
			if (!strcmp(optarg, "arm64"))
				o->mo.arch = ARCH_ARM64;
			else if (!strcmp(optarg, "arm"))
				o->mo.arch = ARCH_ARM;
			else if (!strcmp(optarg, "riscv"))
				o->mo.arch = ARCH_RISCV;
			else {
				fprintf(stderr, "rdma-dtcheck: --arch: '%s' is not arm64, arm or riscv\n",
					optarg);
				return -1;
			}
			break;
		case OPT_BASE:
			o->base = optarg;
			break;
		case 'u':
			o->usage_path = optarg;
			break;
		case OPT_PAGE:
			if (parse_size(optarg, &o->mo.page_size) ||
			    (o->mo.page_size != SZ_4K && o->mo.page_size != 4 * SZ_4K &&
			     o->mo.page_size != 16 * SZ_4K)) {
				fprintf(stderr, "rdma-dtcheck: --page-size: '%s' is not 4K, 16K or 64K\n",
					optarg);
				return -1;
			}
			break;
		case 'm': {
			struct region r;
			char *colon = strchr(optarg, ':');

			if (!colon || (*colon = '\0', parse_size(optarg, &r.base)) ||
			    parse_size(colon + 1, &r.size) || !r.size ||
			    r.base + r.size - 1 < r.base) {
				if (colon)
					*colon = ':';
				fprintf(stderr, "rdma-dtcheck: --memory: '%s' is not BASE:SIZE (e.g. 0x40000000:4G)\n",
					optarg);
				return -1;
			}
			*colon = ':';
			*(struct region *)array_push(&o->mo.mem, &o->mo.nmem,
						     sizeof(r)) = r;
			break;
		}
		case 'W':
		case 'E':
			if (set_check(o, optarg, c == 'E'))
				return -1;
			break;
		case 'q':
			o->quiet = true;
			break;
		case OPT_LIST:
			list_checks();
			exit(0);
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			printf("rdma-dtcheck %s\n", RDMA_DTCHECK_VERSION);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind >= argc) {
		fputs("rdma-dtcheck: no input files\n", stderr);
		usage(stderr);
		return -1;
	}
	return 0;
}

static void lint_one(const char *arg, int idx, const struct options *o,
		     struct findings *fs)
{
	struct dt_input in;
	struct model m;
	struct lint l;
	char err[8192];

	if (input_load(arg, &o->in, &in, err, sizeof(err))) {
		fprintf(stderr, "rdma-dtcheck: %s\n", err);
		fs->input_errors++;
		return;
	}
	if (o->base && overlay_merge(o->base_in.blob, o->base_in.name, &in, err,
				     sizeof(err))) {
		fprintf(stderr, "rdma-dtcheck: %s\n", err);
		fs->input_errors++;
		input_free(&in);
		return;
	}
	model_build(&m, in.blob, &o->mo);
	fs->files++;
	fs->pools += m.npools;
	fs->consumers += m.ncons;
	l = (struct lint){ .m = &m, .in = &in, .conf = o->conf, .out = fs,
			   .input = idx };
	checks_run(&l);
	model_free(&m);
	input_free(&in);
}

int main(int argc, char **argv)
{
	struct findings fs = { 0 };
	char err[8192];
	struct options o = {
		.in = { .dtc = "dtc", .cpp = "cpp" },
		.mo = { .kernel = KVER_6_12, .page_size = SZ_4K },
	};
	int i, ret;

	o.conf = xcalloc((size_t)check_count, sizeof(*o.conf));
	check_conf_init(o.conf);
	if (parse_args(argc, argv, &o)) {
		free(o.conf);
		free(o.in.incdirs);
		return 2;
	}
	for (i = optind; i < argc; i++) {
		char **slot = array_push(&fs.inputs, &fs.ninputs, sizeof(*slot));

		*slot = xstrdup(strcmp(argv[i], "-") ? argv[i] : "<stdin>");
	}
	if (o.usage_path) {
		if (usage_load(o.usage_path, &o.usage, err, sizeof(err))) {
			fprintf(stderr, "rdma-dtcheck: --usage: %s\n", err);
			usage_free(&o.usage);
			findings_free(&fs);
			free(o.conf);
			free(o.in.incdirs);
			free(o.mo.mem);
			return 2;
		}
		o.mo.usage = &o.usage;
	}
	if (o.base && input_load(o.base, &o.in, &o.base_in, err, sizeof(err))) {
		fprintf(stderr, "rdma-dtcheck: --base: %s\n", err);
		fs.input_errors++;
	} else {
		for (i = optind; i < argc; i++)
			lint_one(argv[i], i - optind, &o, &fs);
	}
	input_free(&o.base_in);
	/* A pool rdmatop saw that no tree has: a typo, or the wrong board. */
	for (i = 0; o.usage_path && i < o.usage.npools; i++)
		if (o.usage.pools[i].restricted && !o.usage.hits[i])
			fprintf(stderr, "rdma-dtcheck: --usage: %s: pool %s is in no tree linted\n",
				o.usage.file, o.usage.pools[i].name);

	if (o.format == FMT_JSON)
		output_json(stdout, &fs, o.quiet);
	else if (o.format == FMT_SARIF)
		output_sarif(stdout, &fs, o.quiet);
	else
		output_text(stdout, &fs, o.quiet);

	if (fs.input_errors)
		ret = 2;
	else if (fs.count[SEV_ERROR] || (o.werror && fs.count[SEV_WARNING]))
		ret = 1;
	else
		ret = 0;
	findings_free(&fs);
	usage_free(&o.usage);
	free(o.conf);
	free(o.in.incdirs);
	free(o.mo.mem);
	return ret;
}
