// SPDX-License-Identifier: GPL-2.0
/*
 * rdt_ctl DEVICE COMMAND...: one command to the restricted-DMA test
 * driver (/sys/kernel/debug/restricted_dma_test/DEVICE/control), whose
 * result is read back from offset 0 of the same open file. Prints it;
 * exits 1 when it reads "error=".
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char path[256], cmd[128] = "", res[1024];
	ssize_t n;
	int fd, i;

	if (argc < 3) {
		fprintf(stderr, "usage: rdt_ctl DEVICE COMMAND...\n");
		return 2;
	}
	for (i = 2; i < argc; i++) {
		if (strlen(cmd) + strlen(argv[i]) + 2 >= sizeof(cmd))
			return 2;
		if (i > 2)
			strcat(cmd, " ");
		strcat(cmd, argv[i]);
	}
	snprintf(path, sizeof(path), "/sys/kernel/debug/restricted_dma_test/%s/control", argv[1]);
	fd = open(path, O_RDWR);
	if (fd < 0) {
		perror(path);
		return 2;
	}
	if (write(fd, cmd, strlen(cmd)) < 0) {
		perror("write");
		return 1;
	}
	n = pread(fd, res, sizeof(res) - 1, 0);
	close(fd);
	if (n < 0) {
		perror("read");
		return 1;
	}
	res[n] = '\0';
	fputs(res, stdout);
	return strstr(res, "error=") ? 1 : 0;
}
