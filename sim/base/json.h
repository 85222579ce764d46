/*
 * json.h — a small JSON writer over ss__buf, and the one entry point through
 * which the library parses JSON (cJSON underneath). Writers: callers place
 * commas themselves; strings are escaped (control characters as \u00XX,
 * UTF-8 passed through raw).
 */
#ifndef SS_JSON_H
#define SS_JSON_H

#include "base.h"

/* Append s as a JSON string literal with quotes. */
void ss__json_str(ss__buf *b, const char *s);
/* Append "key": (with the key escaped). */
void ss__json_key(ss__buf *b, const char *key);
/* Append a JSON array of integers: [1,2,3]. */
void ss__json_int_array(ss__buf *b, int n, const int64_t v[]);
/* Append a spec as the conformance encoding: [null,"x",["x","y"]]. */
void ss__json_spec(ss__buf *b, const ss_spec *spec);

struct cJSON;

/* Parse the `len` bytes of `text` (text[len] must be '\0') as exactly one
 * JSON value: whitespace may follow it, anything else is an error. `what`
 * names the text for messages ("DIR/_METADATA"). On success *out is the
 * tree (cJSON_Delete it). Errors, with *out NULL:
 *   - SS_ERR_NOMEM "out of host memory parsing WHAT" when an allocation
 *     failed, never a parse error (cJSON returns NULL then too: its
 *     allocation hooks note the failure, and when they are not ours an
 *     allocation-free syntax check of the text tells the two apart);
 *   - SS_ERR_PARSE "WHAT is not valid JSON: ..." naming the byte offset, and
 *     saying when the text ends before the value does (a truncated file);
 *   - SS_ERR_PARSE "WHAT has N trailing bytes after its JSON value (from byte
 *     K)".
 * Thread-safe: the allocation-failure flag is per thread. */
ss_status ss__json_parse(const char *text, size_t len, const char *what, struct cJSON **out);

#endif
