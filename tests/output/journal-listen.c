/* SPDX-License-Identifier: MIT */
/*
 * journal-listen SOCKET MESSAGE-FILE: a stand-in for systemd-journald's
 * native socket (tests/output/run-output.sh).  Binds a SOCK_DGRAM unix socket
 * at SOCKET, says "listening" on stdout, receives one datagram (at most 30 s)
 * and prints what journald would make of it:
 *
 *   transport: inline | memfd      (payload in the datagram, or a descriptor)
 *   size: N                        (payload bytes)
 *   seals: ok | 0xN                (memfd: F_SEAL_WRITE|SHRINK|GROW|SEAL all set?)
 *   NAME=value                     (one line per field, in order)
 *   NAME: N bytes                  (a field in the binary form)
 *   MESSAGE: N bytes               (its value is in MESSAGE-FILE)
 *   protocol: ok | error at N      (the whole payload parsed?)
 *
 * MESSAGE's value is written to MESSAGE-FILE.  The native protocol
 * (systemd.journal-fields(7)): fields NAME=value\n, or NAME\n, a 64-bit
 * little-endian length, the value and \n; a payload too large for a datagram
 * comes as a sealed memfd passed with SCM_RIGHTS and no data.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#ifndef F_GET_SEALS	/* older libc headers */
#define F_ADD_SEALS 1033
#define F_GET_SEALS 1034
#define F_SEAL_SEAL 0x0001
#define F_SEAL_SHRINK 0x0002
#define F_SEAL_GROW 0x0004
#define F_SEAL_WRITE 0x0008
#endif

/* Larger than any datagram the sender's default buffer allows. */
static char buf[1 << 20];

static int die(const char *what)
{
	fprintf(stderr, "journal-listen: %s: %s\n", what, strerror(errno));
	return 1;
}

/* One field: MESSAGE (a report's many lines) to the file and its size; others printed. */
static void field(const char *name, size_t nn, const char *v, size_t len, int binary,
		  const char *msg_file)
{
	if (nn == 7 && memcmp(name, "MESSAGE", 7) == 0) {
		FILE *f = fopen(msg_file, "w");

		if (f) {
			fwrite(v, 1, len, f);
			fclose(f);
		}
		printf("MESSAGE: %zu bytes%s\n", len, binary ? "" : " (text form)");
	} else if (binary) {
		printf("%.*s: %zu bytes\n", (int)nn, name, len);
	} else {
		printf("%.*s=%.*s\n", (int)nn, name, (int)len, v);
	}
}

/* Print the fields; 0 if the whole of p[0..n) is well formed. */
static int parse(const char *p, size_t n, const char *msg_file)
{
	size_t k = 0;

	while (k < n) {
		const char *line = p + k, *nl = memchr(line, '\n', n - k);
		const char *eq = memchr(line, '=', nl ? (size_t)(nl - line) : n - k);
		uint64_t len = 0;

		if (!nl)
			break;
		if (eq) {
			field(line, (size_t)(eq - line), eq + 1, (size_t)(nl - eq - 1), 0, msg_file);
			k = (size_t)(nl - p) + 1;
			continue;
		}
		/* The binary form: NAME\n, length (LE64), value, \n. */
		k = (size_t)(nl - p) + 1;
		if (n - k < 8)
			break;
		for (int i = 7; i >= 0; i--)
			len = len << 8 | (unsigned char)p[k + (size_t)i];
		k += 8;
		if (len > n - k || n - k - len < 1 || p[k + len] != '\n')
			break;
		field(line, (size_t)(nl - line), p + k, (size_t)len, 1, msg_file);
		k += (size_t)len + 1;
	}
	if (k != n) {
		printf("protocol: error at %zu\n", k);
		return 1;
	}
	printf("protocol: ok\n");
	return 0;
}

int main(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = 30 };
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(4 * sizeof(int))];
	} c;
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = &c,
			    .msg_controllen = sizeof(c) };
	struct cmsghdr *h;
	const char *payload = buf;
	ssize_t n;
	int s, fd = -1;

	if (argc != 3 || strlen(argv[1]) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "usage: journal-listen SOCKET MESSAGE-FILE\n");
		return 2;
	}
	strcpy(sa.sun_path, argv[1]);
	unlink(argv[1]);
	s = socket(AF_UNIX, SOCK_DGRAM, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return die("bind");
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	printf("listening\n");
	fflush(stdout);
	n = recvmsg(s, &m, MSG_CMSG_CLOEXEC);
	if (n < 0)
		return die("recvmsg");
	if (m.msg_flags & (MSG_TRUNC | MSG_CTRUNC))
		printf("truncated: 0x%x\n", (unsigned)m.msg_flags);
	for (h = CMSG_FIRSTHDR(&m); h; h = CMSG_NXTHDR(&m, h))
		if (h->cmsg_level == SOL_SOCKET && h->cmsg_type == SCM_RIGHTS)
			memcpy(&fd, CMSG_DATA(h), sizeof(fd));
	if (fd >= 0) {
		const int want = F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL;
		struct stat st;
		int seals = fcntl(fd, F_GET_SEALS);
		size_t got = 0;

		printf("transport: memfd\n");
		if (seals < 0)
			printf("seals: error %s\n", strerror(errno));
		else if ((seals & want) == want)
			printf("seals: ok\n");
		else
			printf("seals: 0x%x\n", (unsigned)seals);
		if (n != 0)
			printf("datagram data with the memfd: %zd bytes\n", n);
		if (fstat(fd, &st) < 0 || (size_t)st.st_size > sizeof(buf))
			return die("fstat");
		while (got < (size_t)st.st_size) {
			ssize_t r = pread(fd, buf + got, (size_t)st.st_size - got, (off_t)got);

			if (r <= 0)
				return die("pread");
			got += (size_t)r;
		}
		n = (ssize_t)got;
	} else {
		printf("transport: inline\n");
	}
	printf("size: %zd\n", n);
	return parse(payload, (size_t)n, argv[2]) ? 1 : 0;
}
