/*
 * status.c — the status table and the per-thread error message.
 *
 * Every failing call records one line in a thread-local buffer, or in the
 * buffer of the device fiber the thread is running (ss__message_redirect);
 * it is never printed by the library. Messages longer than the buffer are cut at a UTF-8
 * boundary (they are one-liners; 1 KiB is plenty).
 */
#include "base.h"

#include <stdio.h>
#include <string.h>

static _Thread_local char ss__message[1024];
static _Thread_local char *ss__message_at; /* NULL: ss__message */

static char *message_buffer(void)
{
    return ss__message_at ? ss__message_at : ss__message;
}

void ss__message_redirect(char *buf)
{
    ss__message_at = buf;
}

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
    return message_buffer();
}

ss_status ss__fail(ss_status status, const char *fmt, ...)
{
    /* Formatted aside first: callers wrap the previous message
     * (ss__fail(st, "grad: %s", ss_error_message())), which lives in the
     * buffer being written. */
    char text[sizeof ss__message];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof text) {
        /* Do not leave half of a multi-byte character at the end. */
        size_t end = sizeof text - 1;
        while (end > 0 && ((unsigned char)text[end - 1] & 0xC0) == 0x80)
            end--;
        if (end > 0 && ((unsigned char)text[end - 1] & 0xC0) == 0xC0)
            end--;
        text[end] = '\0';
    }
    memcpy(message_buffer(), text, sizeof ss__message);
    return status;
}
