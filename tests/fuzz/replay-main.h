/* The corpus-replay main shared by the fuzz targets: with FLAME_FUZZ_MAIN a target is a
 * plain program that runs LLVMFuzzerTestOneInput once per file named on the command line
 * (what the test suite does with any compiler); without it libFuzzer brings its own main. */
#ifndef FLAME_FUZZ_REPLAY_MAIN_H
#define FLAME_FUZZ_REPLAY_MAIN_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef FLAME_FUZZ_MAIN
int main(int argc, char **argv)
{
	/* a replay of nothing would pass having tested nothing */
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE...: no inputs to replay\n", argv[0]);
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			perror(argv[i]);
			return 1;
		}
		size_t cap = 1 << 20, n = 0, r;
		uint8_t *buf = malloc(cap);
		while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
			n += r;
			if (n == cap) {
				uint8_t *nb = realloc(buf, cap *= 2);
				if (!nb)
					free(buf);
				buf = nb;
			}
		}
		fclose(f);
		if (!buf)
			return 1;
		LLVMFuzzerTestOneInput(buf, n);
		free(buf);
	}
	printf("%d inputs\n", argc - 1);
	return 0;
}
#endif
#endif
