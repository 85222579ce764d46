/*
 * json.h — a small JSON writer over ss__buf. It writes; it does not parse.
 * Callers place commas themselves with ss__json_sep; strings are escaped
 * (control characters as \u00XX, UTF-8 passed through raw).
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

#endif
