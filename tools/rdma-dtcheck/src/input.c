// SPDX-License-Identifier: GPL-2.0
/*
 * input.c - load .dtb/.dtbo directly and .dts/.dtso through cpp and dtc.
 *
 * Source files go the way the kernel's scripts/Makefile.lib (cmd_dtc)
 * takes them: "cpp -nostdinc -I<dirs> -undef -D__DTS__ -x
 * assembler-with-cpp", then dtc with "-b 0 -i <dir of source> -i <dirs>".
 * dtc is run twice: once to emit annotated dts (-O dts -T -T), which gives
 * every node and property its source position, and once more on that
 * output to obtain the blob that the checks read.
 */
#include <errno.h>
#include <fcntl.h>
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fdt-verify.h"
#include "input.h"
#include "overlay.h"
#include "spawn.h"
#include "util.h"

#define INPUT_LIMIT	(256u << 20)
/*
 * The largest DTB in Linux 6.12 is under 300 KiB; a cap keeps the time one
 * blob can take bounded (the model's work grows with its node count).
 */
#define BLOB_LIMIT	(16u << 20)
#define MAX_ARGS	64

/*
 * Read all of @fd. A regular file's buffer is sized from fstat() (one
 * byte over, to see the end in the same read): a fixed 64 KiB buffer,
 * copied and freed, made the model's calloc()s clear pages nobody had
 * touched, and page faults were most of a one-file run's lint time.
 */
static int read_fd(int fd, char **data, size_t *len)
{
	size_t cap = 1 << 16, used = 0;
	struct stat st;
	char *buf;
	ssize_t r;

	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size >= 0 &&
	    (uint64_t)st.st_size < INPUT_LIMIT)
		cap = (size_t)st.st_size + 1;
	buf = xmalloc(cap);

	for (;;) {
		if (used == cap) {
			if (cap >= INPUT_LIMIT) {
				free(buf);
				errno = EFBIG;
				return -1;
			}
			cap = cap < (1 << 16) ? 1 << 16 : cap * 2;
			buf = xrealloc(buf, cap);
		}
		r = read(fd, buf + used, cap - used);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return -1;
		}
		if (r == 0)
			break;
		used += (size_t)r;
	}
	*data = buf;
	*len = used;
	return 0;
}

static int read_path(const char *path, char **data, size_t *len)
{
	int fd = open(path, O_RDONLY), ret, saved;

	if (fd < 0)
		return -1;
	ret = read_fd(fd, data, len);
	saved = errno;
	close(fd);
	errno = saved;
	return ret;
}

/* Check the blob in @data and, if it is sound, make it @in's. */
static int input_adopt(const char *name, char *data, size_t len,
		       struct dt_input *in, char *err, size_t errlen)
{
	char why[256];
	int r;

	memset(in, 0, sizeof(*in));
	if (len < sizeof(struct fdt_header)) {
		snprintf(err, errlen, "%s: truncated device tree blob (%zu bytes)",
			 name, len);
		return -1;
	}
	if (fdt_magic(data) != FDT_MAGIC) {
		snprintf(err, errlen, "%s: not a device tree blob (bad magic)", name);
		return -1;
	}
	if (fdt_totalsize(data) > len) {
		snprintf(err, errlen,
			 "%s: truncated device tree blob (header says %u bytes, file has %zu)",
			 name, fdt_totalsize(data), len);
		return -1;
	}
	if (fdt_totalsize(data) > BLOB_LIMIT) {
		snprintf(err, errlen,
			 "%s: device tree blob of %u bytes is over the %u MiB limit",
			 name, fdt_totalsize(data), BLOB_LIMIT >> 20);
		return -1;
	}
	/*
	 * fdt_check_full() of libfdt 1.6.1 can spin forever or crash on
	 * malformed tags; the bounded walk makes sure it never sees one.
	 */
	r = fdt_verify(data, len, why, sizeof(why));
	if (r) {
		snprintf(err, errlen, "%s: corrupt device tree blob: %s", name, why);
		return -1;
	}
	r = fdt_check_full(data, len);
	if (r) {
		snprintf(err, errlen, "%s: corrupt device tree blob: %s", name,
			 fdt_strerror(r));
		return -1;
	}
	in->name = xstrdup(name);
	in->size = fdt_totalsize(data);
	in->blob = data;
	return 0;
}

int input_from_memory(const char *name, const void *data, size_t len,
		      struct dt_input *in, char *err, size_t errlen)
{
	char *copy = xmalloc(len ? len : 1);

	memcpy(copy, data, len);
	if (input_adopt(name, copy, len, in, err, errlen)) {
		free(copy);
		return -1;
	}
	return 0;
}

static void add_incdirs(char **argv, int *argc, const char *flag,
			const struct input_opts *o)
{
	int i;

	for (i = 0; i < o->nincdirs && *argc < MAX_ARGS - 8; i++) {
		argv[(*argc)++] = (char *)flag;
		argv[(*argc)++] = (char *)o->incdirs[i];
	}
}

/* The start of a dtc command line reading dts and writing OUTFMT. */
static int dtc_argv(char **argv, const struct input_opts *o,
		    const char *outfmt)
{
	int argc = 0;

	argv[argc++] = (char *)o->dtc;
	argv[argc++] = "-q";
	argv[argc++] = "-I";
	argv[argc++] = "dts";
	argv[argc++] = "-O";
	argv[argc++] = (char *)outfmt;
	return argc;
}

static void first_line(char *s)
{
	char *nl;

	/* Keep tool messages readable: at most a few lines. */
	nl = s;
	for (int n = 0; nl && n < 6; n++)
		nl = strchr(nl + 1, '\n');
	if (nl)
		*nl = '\0';
	nl = s + strlen(s);
	while (nl > s && nl[-1] == '\n')
		*--nl = '\0';
}

/*
 * Run one step of the dts pipeline (cpp, dtc). On failure, err says which
 * step failed on which input, with the first line of its stderr.
 */
static int run_step(char **argv, const char *in, const char *out,
		    const char *name, const char *what, char *err, size_t errlen)
{
	char msg[4096] = "";

	if (!spawn_run(argv, in, out, msg, sizeof(msg)))
		return 0;
	first_line(msg);
	snprintf(err, errlen, "%s: %s%s%s", name, what, msg[0] ? ":\n" : "", msg);
	return -1;
}

/* Compile @src (or stdin when @from_stdin) into @in. */
static int compile_source(const char *name, const char *src, bool from_stdin,
			  const struct input_opts *o, struct dt_input *in,
			  char *err, size_t errlen)
{
	char tmpl[] = "/tmp/rdma-dtcheck.XXXXXX";
	const char *tmpdir = getenv("TMPDIR");
	char *dir, *pp, *ann, *dtb, *srcdir, *slash;
	char *argv[MAX_ARGS];
	char *data = NULL;
	size_t len;
	int argc, ret = -1;
	FILE *f;

	if (tmpdir && *tmpdir) {
		char *t = xasprintf("%s/rdma-dtcheck.XXXXXX", tmpdir);

		dir = mkdtemp(t);
		if (!dir)
			free(t);
	} else {
		dir = mkdtemp(tmpl);
		if (dir)
			dir = xstrdup(dir);
	}
	if (!dir) {
		snprintf(err, errlen, "%s: cannot create temporary directory: %s",
			 name, strerror(errno));
		return -1;
	}
	pp = xasprintf("%s/pp.dts", dir);
	ann = xasprintf("%s/annotated.dts", dir);
	dtb = xasprintf("%s/out.dtb", dir);
	srcdir = xstrdup(from_stdin ? "." : src);
	slash = strrchr(srcdir, '/');
	if (slash)
		*slash = '\0';
	else
		strcpy(srcdir, ".");

	if (!o->no_cpp) {
		argc = 0;
		argv[argc++] = (char *)o->cpp;
		argv[argc++] = "-nostdinc";
		add_incdirs(argv, &argc, "-I", o);
		argv[argc++] = "-undef";
		argv[argc++] = "-D__DTS__";
		argv[argc++] = "-x";
		argv[argc++] = "assembler-with-cpp";
		argv[argc++] = from_stdin ? "-" : (char *)src;
		argv[argc] = NULL;
		if (run_step(argv, from_stdin ? src : NULL, pp, name,
			     "preprocessing failed", err, errlen))
			goto out;
	}

	argc = dtc_argv(argv, o, "dts");
	argv[argc++] = "-T";
	argv[argc++] = "-T";
	argv[argc++] = "-b";
	argv[argc++] = "0";
	argv[argc++] = "-i";
	argv[argc++] = srcdir;
	add_incdirs(argv, &argc, "-i", o);
	argv[argc++] = o->no_cpp ? (char *)src : pp;
	argv[argc] = NULL;
	if (run_step(argv, NULL, ann, name, "dtc failed", err, errlen))
		goto out;

	argc = dtc_argv(argv, o, "dtb");
	argv[argc++] = ann;
	argv[argc] = NULL;
	if (run_step(argv, NULL, dtb, name, "dtc failed on its own output",
		     err, errlen))
		goto out;

	if (read_path(dtb, &data, &len)) {
		snprintf(err, errlen, "%s: cannot read compiled blob: %s", name,
			 strerror(errno));
		goto out;
	}
	if (input_adopt(name, data, len, in, err, errlen))
		goto out;
	data = NULL;	/* in->blob now */
	f = fopen(ann, "r");
	if (f) {
		in->src = srcmap_parse(f);
		fclose(f);
	}
	f = o->no_cpp ? NULL : fopen(pp, "r");
	if (f) {
		srcmap_read_includes(in->src, f);
		fclose(f);
	}
	ret = 0;
out:
	free(data);
	unlink(pp);
	unlink(ann);
	unlink(dtb);
	rmdir(dir);
	free(pp);
	free(ann);
	free(dtb);
	free(srcdir);
	free(dir);
	return ret;
}

int input_load(const char *arg, const struct input_opts *o,
	       struct dt_input *in, char *err, size_t errlen)
{
	bool from_stdin = !strcmp(arg, "-");
	const char *name = from_stdin ? "<stdin>" : arg;
	char *data = NULL, *tmp = NULL;
	size_t len = 0;
	int ret;

	memset(in, 0, sizeof(*in));
	if (from_stdin ? read_fd(STDIN_FILENO, &data, &len) :
			 read_path(arg, &data, &len)) {
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		return -1;
	}
	if (len >= 4 && fdt_magic(data) == FDT_MAGIC) {
		ret = input_adopt(name, data, len, in, err, errlen);
		if (ret)
			free(data);
		return ret;
	}
	if (from_stdin) {
		/* Source on stdin: keep it in a file that cpp reads as "-". */
		char t[] = "/tmp/rdma-dtcheck-stdin.XXXXXX";
		int fd = mkstemp(t);

		if (fd < 0 || write(fd, data, len) != (ssize_t)len) {
			snprintf(err, errlen, "%s: cannot buffer input: %s", name,
				 strerror(errno));
			if (fd >= 0) {
				close(fd);
				unlink(t);
			}
			free(data);
			return -1;
		}
		close(fd);
		tmp = xstrdup(t);
	}
	free(data);
	ret = compile_source(name, tmp ? tmp : arg, from_stdin, o, in, err,
			     errlen);
	if (tmp) {
		unlink(tmp);
		free(tmp);
	}
	return ret;
}

void input_free(struct dt_input *in)
{
	free(in->name);
	free(in->blob);
	srcmap_free(in->src);
	overlay_map_free(in->map);
	memset(in, 0, sizeof(*in));
}
