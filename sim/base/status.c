/*
 * status.c — the status table and the per-thread error message.
 *
 * Every failing call records one line in a thread-local buffer; it is never
 * printed by the library. Messages longer than the buffer are cut at a UTF-8
 * boundary (they are one-liners; 1 KiB is plenty).
 */
#include "base.h"

#include <stdio.h>
#include <string.h>

static _Thread_local char ss__message[1024];

const char *ss_status_name(ss_status status)
{
    switch (status) {
#define SS__NAME_CASE(name, value, text) case SS_##name: return "SS_" #name;
    SS_STATUS_TABLE(SS__NAME_CASE)
#undef SS__NAME_CASE
    }
    return "SS_UNKNOWN";
}

const char *ss_status_string(ss_status status)
{
    switch (status) {
#define SS__TEXT_CASE(name, value, text) case SS_##name: return text;
    SS_STATUS_TABLE(SS__TEXT_CASE)
#undef SS__TEXT_CASE
    }
    return "unknown status";
}

const char *ss_error_message(void)
{
    return ss__message;
}

ss_status ss__fail(ss_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(ss__message, sizeof ss__message, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof ss__message) {
        /* Do not leave half of a multi-byte character at the end. */
        size_t end = sizeof ss__message - 1;
        while (end > 0 && ((unsigned char)ss__message[end - 1] & 0xC0) == 0x80)
            end--;
        if (end > 0 && ((unsigned char)ss__message[end - 1] & 0xC0) == 0xC0)
            end--;
        ss__message[end] = '\0';
    }
    return status;
}
