/* pacl extension (not part of CANN): the contract checker's reports, for tests and tools.
 *
 * The checker is switched on by PACL_CHECK=1 (lifetimes, synchronization, cross-stream races,
 * executor misuse, leaks) or PACL_CHECK=2 (also guard regions, poisoned freed memory and
 * uninitialized-memory reads) in the environment of aclInit, or by aclInit's config file:
 *   { "pacl_check": { "level": 2, "fatal": true, "log": "reports.jsonl" } }
 * PACL_CHECK_FATAL=1 aborts the process at the first report; PACL_CHECK_LOG=<file> appends each
 * report as one JSON object per line. See docs/checker.md. */
#ifndef PACL_CHECK_H_
#define PACL_CHECK_H_

#ifdef __cplusplus
extern "C" {
#endif

/* The level in force: 0 when the checker is off. */
__attribute__((visibility("default"))) int paclCheckLevel(void);
/* Reports made so far in this process (the oldest are dropped past 10000). */
__attribute__((visibility("default"))) int paclCheckReportCount(void);
/* The class of report `index` ("use-after-free", "read-before-sync", "write-before-sync",
 * "cross-stream-race", "executor-misuse", "overrun", "uninitialized-read", "leak"); NULL when
 * out of range. */
__attribute__((visibility("default"))) const char* paclCheckReportKind(int index);
/* The full text of report `index` as printed to stderr; NULL when out of range. */
__attribute__((visibility("default"))) const char* paclCheckReportText(int index);
/* Forgets the reports made so far (the checker's tracking state is kept). */
__attribute__((visibility("default"))) void paclCheckClearReports(void);

#ifdef __cplusplus
}
#endif

#endif /* PACL_CHECK_H_ */
