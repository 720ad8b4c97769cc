// SPDX-License-Identifier: GPL-2.0
/*
 * spawn.c - posix_spawnp() wrapper with file redirections.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn.h"

extern char **environ;

static void slurp(int fd, char *buf, size_t len)
{
	size_t used = 0;
	ssize_t r;

	if (!len)
		return;
	for (;;) {
		char sink[512];

		if (used + 1 < len)
			r = read(fd, buf + used, len - 1 - used);
		else
			r = read(fd, sink, sizeof(sink));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (used + 1 < len)
			used += (size_t)r;
	}
	buf[used] = '\0';
}

int spawn_run(char *const argv[], const char *in_path, const char *out_path,
	      char *errbuf, size_t errlen)
{
	posix_spawn_file_actions_t fa;
	int pipefd[2], status, err, ret = -1;
	pid_t pid;

	if (pipe(pipefd))
		return -1;
	posix_spawn_file_actions_init(&fa);
	if (in_path)
		posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, in_path,
						 O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, out_path,
					 O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDERR_FILENO);
	posix_spawn_file_actions_addclose(&fa, pipefd[0]);
	posix_spawn_file_actions_addclose(&fa, pipefd[1]);
	err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	if (err) {
		snprintf(errbuf, errlen, "cannot run %s: %s", argv[0],
			 strerror(err));
		close(pipefd[0]);
		close(pipefd[1]);
		goto out;
	}
	close(pipefd[1]);
	slurp(pipefd[0], errbuf, errlen);
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			goto out;
	if (WIFEXITED(status))
		ret = WEXITSTATUS(status);
	/* exit 127: posix_spawnp() forked but exec failed */
	if (ret == 127 && !errbuf[0])
		snprintf(errbuf, errlen, "cannot run %s", argv[0]);
out:
	posix_spawn_file_actions_destroy(&fa);
	return ret;
}
