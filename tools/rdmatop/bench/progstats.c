// SPDX-License-Identifier: GPL-2.0
/*
 * progstats: every loaded BPF program's name, runs and run time, from the
 * kernel's run-time statistics (sysctl kernel.bpf_stats_enabled=1), one
 * line each: "PROG name run_cnt run_time_ns". The board has no bpftool;
 * rdmatop's benchmark uses this to split its cost by program. With -j,
 * also each program that ran's JIT-compiled code, "JIT name HEX", for
 * aarch64-linux-gnu-objdump -b binary -m aarch64 on the host.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/bpf.h>

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/* The JIT-compiled code of the program @fd, as one line of hex. */
static void print_jited(int fd, const char *name, __u32 len)
{
	static unsigned char code[1 << 16];
	struct bpf_prog_info info;
	union bpf_attr attr;
	__u32 i;

	if (!len || len > sizeof(code))
		return;
	memset(&info, 0, sizeof(info));
	info.jited_prog_len = len;
	info.jited_prog_insns = (__u64)(unsigned long)code;
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (__u64)(unsigned long)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr))
		return;
	printf("JIT %s ", name);
	for (i = 0; i < len; i++)
		printf("%02x", code[i]);
	putchar('\n');
}

int main(int argc, char **argv)
{
	bool jit = argc > 1 && !strcmp(argv[1], "-j");
	struct bpf_prog_info info;
	union bpf_attr attr;
	__u32 id = 0;
	int fd;

	for (;;) {
		memset(&attr, 0, sizeof(attr));
		attr.start_id = id;
		if (sys_bpf(BPF_PROG_GET_NEXT_ID, &attr))
			break;
		id = attr.next_id;
		memset(&attr, 0, sizeof(attr));
		attr.prog_id = id;
		fd = sys_bpf(BPF_PROG_GET_FD_BY_ID, &attr);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		memset(&attr, 0, sizeof(attr));
		attr.info.bpf_fd = fd;
		attr.info.info_len = sizeof(info);
		attr.info.info = (__u64)(unsigned long)&info;
		if (!sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr)) {
			printf("PROG %s %llu %llu\n", info.name, (unsigned long long)info.run_cnt,
			       (unsigned long long)info.run_time_ns);
			if (jit && info.run_cnt)
				print_jited(fd, info.name, info.jited_prog_len);
		}
		close(fd);
	}
	return errno == ENOENT ? 0 : 1;
}
