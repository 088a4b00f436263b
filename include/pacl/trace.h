/* pacl extension (not part of CANN): adding events to pacl's trace.
 *
 * PACL_TRACE=<file.json> in the environment makes pacl write a Chrome/Perfetto trace of every
 * API call (host threads) and every stream task (one track per stream); see docs/tools.md. */
#ifndef PACL_TRACE_H_
#define PACL_TRACE_H_

#ifdef __cplusplus
extern "C" {
#endif

/* A point event named `name` on the calling thread's track; `argsJson` is NULL or the members of a
 * JSON object, e.g. "\"cache\":\"hit\",\"op\":\"Add\"". Does nothing when tracing is off. */
__attribute__((visibility("default"))) void paclTraceInstant(const char* name, const char* argsJson);

#ifdef __cplusplus
}
#endif

#endif /* PACL_TRACE_H_ */
