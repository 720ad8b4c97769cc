// SPDX-License-Identifier: GPL-2.0
/*
 * core-check: does rdma_trace's BPF object relocate on a kernel, without
 * that kernel running? For each vmlinux given, libbpf opens the object,
 * rdmatop's own choice of programs is made from that vmlinux's BTF
 * (sources.c), and the object is loaded against a kernel faked here: the
 * bpf() system call succeeds without doing anything and hands back each
 * program as libbpf relocated it, and the "running kernel's" BTF is the
 * vmlinux's. So every CO-RE relocation and every attach target is
 * resolved as it would be on that kernel's board.
 *
 * A relocation libbpf cannot resolve becomes a poisoned call, which the
 * kernel's verifier rejects if it can be reached (and drops if it cannot:
 * the other layout's branch behind a bpf_core_field_exists()). So each
 * program's instructions are walked from its entry, following constants
 * through moves, ALU operations and branches as the verifier does for
 * dead code; a reachable poisoned call fails the kernel.
 *
 *   core-check OBJECT LABEL=VMLINUX...
 *
 * One TAP line per kernel; a missing vmlinux is a skip (not built yet).
 * Exit status: 1 when any kernel failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "model.h"
#include "sources.h"

#define POISON_CALL	0xbad2310	/* libbpf's bpf_core_poison_insn() */
#define MAX_PROGS	64

struct prog_copy {
	char name[BPF_OBJ_NAME_LEN];
	struct bpf_insn *insns;
	unsigned int cnt;
};

static struct prog_copy progs[MAX_PROGS];
static int nprogs;
static struct btf *target_btf;		/* what btf__load_vmlinux_btf() returns */
static const char *target_path;
static char log_buf[1 << 16];
static size_t log_len;

/* ---- the faked kernel ---------------------------------------------- */

long __real_syscall(long nr, ...);

static int fake_fd(void)
{
	return open("/dev/null", O_RDONLY | O_CLOEXEC);
}

static long fake_bpf(int cmd, union bpf_attr *attr)
{
	struct prog_copy *p;

	switch (cmd) {
	case BPF_PROG_LOAD:
		if (nprogs < MAX_PROGS && attr->insn_cnt > 2) {
			p = &progs[nprogs++];
			snprintf(p->name, sizeof(p->name), "%s", attr->prog_name);
			p->cnt = attr->insn_cnt;
			p->insns = malloc(p->cnt * sizeof(*p->insns));
			if (!p->insns)
				return -ENOMEM;
			memcpy(p->insns, (void *)(unsigned long)attr->insns,
			       p->cnt * sizeof(*p->insns));
		}
		return fake_fd();
	case BPF_MAP_CREATE:
	case BPF_BTF_LOAD:
		return fake_fd();
	case BPF_BTF_GET_NEXT_ID:	/* no kernel modules */
		errno = ENOENT;
		return -1;
	default:
		return 0;
	}
}

/* libbpf's every system call goes through here (linked with --wrap=syscall). */
long __wrap_syscall(long nr, ...)
{
	long a[5];
	va_list ap;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 5; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == __NR_bpf)
		return fake_bpf((int)a[0], (union bpf_attr *)a[1]);
	return __real_syscall(nr, a[0], a[1], a[2], a[3], a[4]);
}

/* The "running kernel's" BTF: the vmlinux under test (--wrap=btf__load_vmlinux_btf). */
struct btf *__wrap_btf__load_vmlinux_btf(void)
{
	return btf__parse(target_path, NULL);
}

static int libbpf_log(enum libbpf_print_level level, const char *fmt, va_list args)
{
	int n;

	if (getenv("CORE_CHECK_DEBUG"))
		return vfprintf(stderr, fmt, args);
	if (level == LIBBPF_DEBUG || log_len >= sizeof(log_buf) - 1)
		return 0;
	n = vsnprintf(log_buf + log_len, sizeof(log_buf) - log_len, fmt, args);
	if (n > 0)
		log_len += (size_t)n < sizeof(log_buf) - log_len ? (size_t)n
								 : sizeof(log_buf) - log_len - 1;
	return 0;
}

/* ---- reachability, with constants ---------------------------------- */

struct regs {
	unsigned short known;		/* bit r: reg r holds val[r] */
	unsigned long long val[11];
};

/*
 * Constant propagation over the instructions (a lattice of "this register
 * holds this value" per instruction, met at joins), where a branch on
 * known values has one successor: what the verifier's dead-code pass sees
 * of a bpf_core_field_exists() that relocated to 0 or 1.
 */
struct walk {
	const struct bpf_insn *insn;
	unsigned int cnt;
	bool *reach;
	struct regs *in;		/* per instruction: what holds on entry */
	unsigned int *work;
	size_t nwork;
	unsigned int poison_pc;
	bool poisoned;
};

/* Merges @r into the entry state of @pc; queues it when that changed. */
static void flow(struct walk *w, unsigned int pc, const struct regs *r)
{
	struct regs *cur;
	unsigned short k;
	int i;

	if (pc >= w->cnt)
		return;
	cur = &w->in[pc];
	if (!w->reach[pc]) {
		w->reach[pc] = true;
		*cur = *r;
	} else {
		k = cur->known & r->known;
		for (i = 0; i < 11; i++)
			if ((k & (1u << i)) && cur->val[i] != r->val[i])
				k &= ~(1u << i);
		if (k == cur->known)
			return;
		cur->known = k;
	}
	w->work[w->nwork++] = pc;	/* at most once per change: see walk_prog() */
}

static bool alu(unsigned int op, unsigned long long *d, unsigned long long s, bool is64)
{
	unsigned long long v = *d;

	switch (op) {
	case BPF_ADD: v += s; break;
	case BPF_SUB: v -= s; break;
	case BPF_MUL: v *= s; break;
	case BPF_OR: v |= s; break;
	case BPF_AND: v &= s; break;
	case BPF_XOR: v ^= s; break;
	case BPF_LSH: v <<= (s & (is64 ? 63 : 31)); break;
	case BPF_RSH: v = (is64 ? v : (unsigned int)v) >> (s & (is64 ? 63 : 31)); break;
	case BPF_MOV: v = s; break;
	case BPF_NEG: v = -v; break;
	default: return false;
	}
	*d = is64 ? v : (unsigned int)v;
	return true;
}

/* A branch on known values: 1 taken, 0 not, -1 unknown. */
static int cond(unsigned int op, unsigned long long a, unsigned long long b, bool is64)
{
	long long sa = (long long)a, sb = (long long)b;

	if (!is64) {
		a = (unsigned int)a;
		b = (unsigned int)b;
		sa = (int)a;
		sb = (int)b;
	}
	switch (op) {
	case BPF_JEQ: return a == b;
	case BPF_JNE: return a != b;
	case BPF_JGT: return a > b;
	case BPF_JGE: return a >= b;
	case BPF_JLT: return a < b;
	case BPF_JLE: return a <= b;
	case BPF_JSGT: return sa > sb;
	case BPF_JSGE: return sa >= sb;
	case BPF_JSLT: return sa < sb;
	case BPF_JSLE: return sa <= sb;
	case BPF_JSET: return (a & b) != 0;
	default: return -1;
	}
}

/* One instruction: what holds after it, flowed to its successors. */
static int step(struct walk *w, unsigned int pc)
{
	const struct bpf_insn *in = &w->insn[pc];
	unsigned int cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	unsigned int dst = in->dst_reg, src = in->src_reg;
	struct regs r = w->in[pc], none = { 0 };
	bool known_src, is64;
	unsigned long long sv;
	int t;

	if (dst > 10 || src > 10)
		return -EINVAL;
	if (cls == BPF_JMP && op == BPF_CALL) {
		if (src == 0 && in->imm == POISON_CALL) {
			w->poisoned = true;
			w->poison_pc = pc;
			return 0;
		}
		if (src == BPF_PSEUDO_CALL)	/* a subprogram: entered knowing nothing */
			flow(w, pc + 1 + in->imm, &none);
		r.known &= ~0x3f;		/* r0-r5 */
		flow(w, pc + 1, &r);
		return 0;
	}
	if (cls == BPF_JMP && op == BPF_EXIT)
		return 0;
	if (in->code == (BPF_LD | BPF_IMM | BPF_DW)) {
		if (pc + 1 >= w->cnt)
			return -EINVAL;
		if (src == BPF_PSEUDO_FUNC)	/* a callback */
			flow(w, pc + 1 + in->imm, &none);
		if (src == 0) {
			r.known |= 1u << dst;
			r.val[dst] = (unsigned int)in->imm |
				     (unsigned long long)(unsigned int)in[1].imm << 32;
		} else {
			r.known &= ~(1u << dst);
		}
		flow(w, pc + 2, &r);
		return 0;
	}
	if (cls == BPF_ALU || cls == BPF_ALU64) {
		is64 = cls == BPF_ALU64;
		known_src = BPF_SRC(in->code) == BPF_K || (r.known & (1u << src));
		sv = BPF_SRC(in->code) == BPF_K ? (unsigned long long)(long long)in->imm : r.val[src];
		if (op == BPF_MOV && known_src && in->off == 0) {
			r.known |= 1u << dst;
			r.val[dst] = is64 ? sv : (unsigned int)sv;
		} else if (!(known_src && (r.known & (1u << dst)) && in->off == 0 &&
			     alu(op, &r.val[dst], sv, is64))) {
			r.known &= ~(1u << dst);
		}
		flow(w, pc + 1, &r);
		return 0;
	}
	if (cls == BPF_JMP || cls == BPF_JMP32) {
		if (op == BPF_JA) {
			flow(w, pc + 1 + in->off, &r);
			return 0;
		}
		is64 = cls == BPF_JMP;
		t = -1;
		if ((r.known & (1u << dst)) &&
		    (BPF_SRC(in->code) == BPF_K || (r.known & (1u << src))))
			t = cond(op, r.val[dst], BPF_SRC(in->code) == BPF_K ?
				 (unsigned long long)(long long)in->imm : r.val[src], is64);
		if (t != 0)
			flow(w, pc + 1 + in->off, &r);
		if (t != 1)
			flow(w, pc + 1, &r);
		return 0;
	}
	/* Loads write their destination; fetching atomics r0 or their source. */
	if (cls == BPF_LDX || cls == BPF_LD)
		r.known &= ~(1u << dst);
	if (cls == BPF_STX && BPF_MODE(in->code) == BPF_ATOMIC) {
		r.known &= ~1u;
		if (in->imm & BPF_FETCH)
			r.known &= ~(1u << src);
	}
	flow(w, pc + 1, &r);
	return 0;
}

/* Sets w->poisoned when a poisoned call is reachable from the entry. */
static int walk_prog(struct walk *w)
{
	struct regs none = { 0 };
	int err;

	/*
	 * Each instruction is queued when first reached and each time one of
	 * its 11 registers stops being known: at most 12 times.
	 */
	w->reach = calloc(w->cnt, sizeof(*w->reach));
	w->in = calloc(w->cnt, sizeof(*w->in));
	w->work = calloc((size_t)w->cnt * 12 + 1, sizeof(*w->work));
	if (!w->reach || !w->in || !w->work)
		return -ENOMEM;
	flow(w, 0, &none);
	while (w->nwork && !w->poisoned) {
		err = step(w, w->work[--w->nwork]);
		if (err)
			return err;
	}
	return 0;
}

static void walk_free(struct walk *w)
{
	free(w->reach);
	free(w->in);
	free(w->work);
}

/* ---- one kernel ------------------------------------------------------ */

static void reset(void)
{
	int i;

	for (i = 0; i < nprogs; i++)
		free(progs[i].insns);
	nprogs = 0;
	log_len = 0;
	log_buf[0] = '\0';
}

static void show_log(void)
{
	char *line, *save = NULL;

	for (line = strtok_r(log_buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		printf("# libbpf: %s\n", line);
}

/* Returns 0 (ok), 1 (fails), 2 (skipped). */
static int check_kernel(int n, const char *obj_path, const char *label, const char *vmlinux)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .btf_custom_path = vmlinux);
	struct bpf_program *prog;
	struct rt_sources src;
	struct bpf_object *obj;
	struct prog_copy *p;
	int err, i, bad = 0, n_ours;
	struct walk w;

	reset();
	if (access(vmlinux, R_OK)) {
		printf("ok %d - core: %s # SKIP %s not built\n", n, label, vmlinux);
		return 2;
	}
	target_path = vmlinux;
	target_btf = btf__parse(vmlinux, NULL);
	if (!target_btf) {
		printf("not ok %d - core: %s: cannot read BTF from %s\n", n, label, vmlinux);
		return 1;
	}
	obj = bpf_object__open_file(obj_path, &opts);
	if (!obj) {
		printf("not ok %d - core: %s: cannot open %s: %s\n", n, label, obj_path,
		       strerror(errno));
		show_log();
		btf__free(target_btf);
		return 1;
	}
	sources_select(obj, target_btf, false, &src);
	err = bpf_object__load(obj);
	if (err) {
		printf("not ok %d - core: %s: libbpf cannot relocate the object: %s\n", n, label,
		       strerror(-err));
		show_log();
		bad = 1;
		goto out;
	}
	/* libbpf's own feature probes load programs too: take ours by name. */
	n_ours = 0;
	bpf_object__for_each_program(prog, obj) {
		if (!bpf_program__autoload(prog))
			continue;
		p = NULL;
		for (i = 0; i < nprogs && !p; i++)
			if (!strncmp(progs[i].name, bpf_program__name(prog), BPF_OBJ_NAME_LEN - 1))
				p = &progs[i];
		if (!p) {
			printf("# %s: program %s was not loaded\n", label, bpf_program__name(prog));
			bad = 1;
			continue;
		}
		n_ours++;
		memset(&w, 0, sizeof(w));
		w.insn = p->insns;
		w.cnt = p->cnt;
		err = walk_prog(&w);
		if (err)
			printf("# %s: program %s: cannot walk: %s\n", label,
			       bpf_program__name(prog), strerror(-err));
		else if (w.poisoned)
			printf("# %s: program %s: unresolved CO-RE relocation reachable at "
			       "instruction %u\n", label, bpf_program__name(prog), w.poison_pc);
		bad |= err || w.poisoned;
		walk_free(&w);
	}
	if (bad)
		printf("not ok %d - core: %s: CO-RE relocations left unresolved\n", n, label);
	else
		printf("ok %d - core: %s: %d programs (DMA API from %s%s) relocate\n", n, label,
		       n_ours, rt_source_name(src.dma), src.series ? ", the series' events" : "");
out:
	bpf_object__close(obj);
	btf__free(target_btf);
	return bad;
}

int main(int argc, char **argv)
{
	int i, status = 0;
	char *eq;

	if (argc < 3) {
		fprintf(stderr, "usage: core-check OBJECT LABEL=VMLINUX...\n");
		return 2;
	}
	libbpf_set_print(libbpf_log);
	printf("1..%d\n", argc - 2);
	for (i = 2; i < argc; i++) {
		eq = strchr(argv[i], '=');
		if (!eq) {
			fprintf(stderr, "core-check: %s: not LABEL=VMLINUX\n", argv[i]);
			return 2;
		}
		*eq = '\0';
		if (check_kernel(i - 1, argv[1], argv[i], eq + 1) == 1)
			status = 1;
	}
	reset();
	return status;
}
