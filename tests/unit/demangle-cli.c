/* SPDX-License-Identifier: MIT */
/*
 * demangle-cli: names on stdin, one a line; prints what cr_demangle makes
 * of each, one a line, or the name as it is when it says -CR_EINVAL (as
 * c++filt prints what it cannot demangle).  The buffer is large enough
 * that nothing is elided.  For tests/unit/run-demangle-corpus.sh.
 */
#include <stdio.h>
#include <string.h>

#include "demangle.h"

int main(void)
{
	static char line[2 * CR_DEMANGLE_MAXLEN], out[CR_DEMANGLE_MAXOUT + 1];
	static struct cr_demangle_ws ws;

	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = 0;
		if (cr_demangle_ws(&ws, line, out, sizeof(out)) < 0)
			puts(line);
		else
			puts(out);
	}
	return 0;
}
