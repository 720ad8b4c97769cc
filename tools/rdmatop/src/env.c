// SPDX-License-Identifier: GPL-2.0
/*
 * What rdmatop needs before it loads anything, each missing piece named
 * with its fix in one line.
 */
#include <linux/capability.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "collect.h"

#define DEBUGFS_MAGIC	0x64626720
#define TRACEFS_MAGIC	0x74726163

#ifndef CAP_PERFMON
#define CAP_PERFMON	38
#endif
#ifndef CAP_BPF
#define CAP_BPF		39
#endif

static bool has_cap(int cap)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &h, d))
		return false;
	return d[cap / 32].effective & (1u << (cap % 32));
}

static bool mounted(const char *path, long magic)
{
	struct statfs st;

	return !statfs(path, &st) && (long)st.f_type == magic;
}

int env_check(bool need_bpf, char *err, size_t len)
{
	bool admin = has_cap(CAP_SYS_ADMIN);

	if (!admin && need_bpf && !(has_cap(CAP_BPF) && has_cap(CAP_PERFMON))) {
		snprintf(err, len, "needs root (or CAP_SYS_ADMIN, or CAP_BPF with CAP_PERFMON) to "
			 "load its BPF program and read debugfs: run it as root");
		return -1;
	}
	if (!admin && !need_bpf && geteuid()) {
		snprintf(err, len, "needs root to read the pools in debugfs: run it as root");
		return -1;
	}
	/* With BPF, debugfs only adds the pools' use (Android user builds lack it). */
	if (!need_bpf && !mounted("/sys/kernel/debug", DEBUGFS_MAGIC)) {
		snprintf(err, len, "debugfs is not mounted at /sys/kernel/debug: "
			 "mount -t debugfs debugfs /sys/kernel/debug, or drop --no-bpf");
		return -1;
	}
	if (need_bpf && !mounted("/sys/kernel/tracing", TRACEFS_MAGIC) &&
	    !mounted("/sys/kernel/debug/tracing", TRACEFS_MAGIC)) {
		snprintf(err, len, "tracefs is not mounted at /sys/kernel/tracing: "
			 "mount -t tracefs tracefs /sys/kernel/tracing");
		return -1;
	}
	if (need_bpf && access("/sys/kernel/btf/vmlinux", R_OK)) {
		snprintf(err, len, "the kernel has no BTF (/sys/kernel/btf/vmlinux): rebuild it "
			 "with CONFIG_DEBUG_INFO_BTF=y, or run with --no-bpf");
		return -1;
	}
	return 0;
}
