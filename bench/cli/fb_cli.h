/* fb_cli.h — the fricbench command line.  Exit status: 0 success, 1 a run that ended
 * in `budget` or `failed` (or an I/O failure), 2 bad input (usage). */
#ifndef FB_CLI_H
#define FB_CLI_H

#include <stdio.h>

#define FB_EXIT_OK 0
#define FB_EXIT_RUNTIME 1
#define FB_EXIT_USAGE 2

int fb_cli_main(int argc, char **argv);
/* fricbench suite (bench/cli/cmd_suite.c) */
int fb_cmd_suite(int argc, char **argv);
/* fricbench reference (bench/cli/cmd_reference.c) */
int fb_cmd_reference(int argc, char **argv);
/* fricbench bench (bench/cli/cmd_bench.c) */
int fb_cmd_bench(int argc, char **argv);
/* `fricbench bench`'s section on dop853 against rk8pd at matched error, printed to fp
 * (bench_dop853.c). */
int fb_bench_dop853(FILE *fp);
/* `fricbench bench`'s section on CVODE's BDF against msbdf on the stiff LuGre drift, RHS
 * and CPU time at matched error (bench_sundials.c; one line without SUNDIALS). */
int fb_bench_sundials(FILE *fp);
/* The chain's cost per step at n = 10 .. 10000 (bench/cli/bench_chain.c): a table on stdout,
 * rows into csv when not NULL; nonzero when a treatment failed. */
int fb_bench_chain(FILE *csv, unsigned long steps, unsigned long repeats);
/* fricbench impacts (bench/cli/cmd_impacts.c) */
int fb_cmd_impacts(int argc, char **argv);
/* fricbench compare (bench/cli/compare.c) */
int fb_cmd_compare(int argc, char **argv);

#endif
