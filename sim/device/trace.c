/*
 * trace.c — Chrome trace-event JSON (Perfetto, chrome://tracing): one track
 * per device with its runs, kernels, collectives (bytes in args), the waits
 * inside them and its allocations, plus a live-bytes counter per device, all
 * on one monotonic clock starting when tracing was enabled.
 *
 * Events are appended to a per-device list under that device's trace lock
 * (the device's fiber and a host thread doing device_put may both record).
 * Recording costs nothing while tracing is off. What it does not do: stream
 * to disk (the trace is written at the end) or cap its size.
 */
#include "device_internal.h"

#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof((ss_trace_event){0}.name) >= SS__BUFNAME_MAX,
               "ss_trace_event.name holds every recorded name");

struct ss__trace_event {
    double ts, dur; /* microseconds */
    char ph;        /* 'X' slice, 'i' instant, 'C' counter */
    char cat[12];
    char name[SS__BUFNAME_MAX];
    const char *k0, *k1;
    double v0, v1;
};

ss_status ss_context_trace_enable(ss_context *ctx, int on)
{
    if (on && !atomic_load(&ctx->tracing))
        ctx->trace_t0 = ss__now();
    atomic_store(&ctx->tracing, on ? 1 : 0);
    return SS_OK;
}

void ss__trace(ss_device *d, char ph, const char *cat, const char *name, double start,
               double end, const char *k0, double v0, const char *k1, double v1)
{
    ss_context *ctx = d->ctx;
    if (!atomic_load_explicit(&ctx->tracing, memory_order_relaxed))
        return;
    pthread_mutex_lock(&d->trace_lock);
    if (d->nevents == d->cap_events) {
        int cap = d->cap_events ? d->cap_events * 2 : 256;
        ss__trace_event *p = realloc(d->events, sizeof *p * (size_t)cap);
        if (!p) {
            pthread_mutex_unlock(&d->trace_lock);
            return; /* a trace is a report: drop the event rather than fail the run */
        }
        d->events = p;
        d->cap_events = cap;
    }
    ss__trace_event *e = &d->events[d->nevents++];
    e->ts = (start - ctx->trace_t0) * 1e6;
    e->dur = (end - start) * 1e6;
    e->ph = ph;
    snprintf(e->cat, sizeof e->cat, "%s", cat);
    snprintf(e->name, sizeof e->name, "%s", name);
    e->k0 = k0;
    e->k1 = k1;
    e->v0 = v0;
    e->v1 = v1;
    pthread_mutex_unlock(&d->trace_lock);
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

ss_status ss_context_trace_write(ss_context *ctx, const char *path)
{
    if (!path)
        return ss__fail(SS_ERR_INVALID, "trace: no file name");
    FILE *f = fopen(path, "w");
    if (!f)
        return ss__fail(SS_ERR_IO, "trace: cannot write %s", path);
    fputs("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n", f);
    fputs("{\"ph\":\"M\",\"pid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"shardsim\"}}",
          f);
    for (int i = 0; i < ctx->ndevices; i++) {
        ss_device *d = &ctx->devices[i];
        fprintf(f, ",\n{\"ph\":\"M\",\"pid\":0,\"tid\":%d,\"name\":\"thread_name\","
                   "\"args\":{\"name\":\"device %d (host %d)\"}}",
                i, i, d->host);
        pthread_mutex_lock(&d->trace_lock);
        for (int k = 0; k < d->nevents; k++) {
            const ss__trace_event *e = &d->events[k];
            fprintf(f, ",\n{\"ph\":\"%c\",\"pid\":0,\"tid\":%d,\"ts\":%.3f,", e->ph, i, e->ts);
            if (e->ph == 'X')
                fprintf(f, "\"dur\":%.3f,", e->dur);
            if (e->ph == 'i')
                fputs("\"s\":\"t\",", f);
            fputs("\"cat\":", f);
            json_string(f, e->cat);
            fputs(",\"name\":", f);
            json_string(f, e->name);
            fputs(",\"args\":{", f);
            if (e->k0)
                fprintf(f, "\"%s\":%.17g", e->k0, e->v0);
            if (e->k1)
                fprintf(f, "%s\"%s\":%.17g", e->k0 ? "," : "", e->k1, e->v1);
            fputs("}}", f);
        }
        pthread_mutex_unlock(&d->trace_lock);
    }
    fputs("\n]}\n", f);
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad)
        return ss__fail(SS_ERR_IO, "trace: error writing %s", path);
    return SS_OK;
}

int ss_context_trace_count(ss_context *ctx, int device)
{
    if (!ctx || device < 0 || device >= ctx->ndevices)
        return 0;
    ss_device *d = &ctx->devices[device];
    pthread_mutex_lock(&d->trace_lock);
    int n = d->nevents;
    pthread_mutex_unlock(&d->trace_lock);
    return n;
}

/* The public kind of a recorded event (its phase and category). */
static ss_trace_kind event_kind(const ss__trace_event *e)
{
    if (e->ph == 'C')
        return SS_TRACE_LIVE;
    if (e->ph == 'i')
        return SS_TRACE_MEMORY;
    if (strcmp(e->cat, "kernel") == 0)
        return SS_TRACE_KERNEL;
    if (strcmp(e->cat, "collective") == 0)
        return SS_TRACE_COLLECTIVE;
    if (strcmp(e->cat, "wait") == 0 || strcmp(e->cat, "share") == 0)
        return SS_TRACE_WAIT;
    return SS_TRACE_RUN;
}

/* The value of argument `key` of e, 0 if it has none. */
static double event_arg(const ss__trace_event *e, const char *key)
{
    if (e->k0 && strcmp(e->k0, key) == 0)
        return e->v0;
    if (e->k1 && strcmp(e->k1, key) == 0)
        return e->v1;
    return 0;
}

ss_status ss_context_trace_get(ss_context *ctx, int device, int i, ss_trace_event *out)
{
    memset(out, 0, sizeof *out);
    if (!ctx || device < 0 || device >= ctx->ndevices)
        return ss__fail(SS_ERR_RANGE, "trace: device %d is outside 0..%d", device,
                        ctx ? ctx->ndevices - 1 : -1);
    ss_device *d = &ctx->devices[device];
    pthread_mutex_lock(&d->trace_lock);
    int n = d->nevents;
    if (i < 0 || i >= n) {
        pthread_mutex_unlock(&d->trace_lock);
        return ss__fail(SS_ERR_RANGE, "trace: event %d of device %d, which has %d", i, device,
                        n);
    }
    const ss__trace_event *e = &d->events[i];
    out->kind = event_kind(e);
    out->start_us = e->ts;
    out->dur_us = e->ph == 'X' ? e->dur : 0;
    snprintf(out->name, sizeof out->name, "%s", e->name);
    out->bytes = event_arg(e, out->kind == SS_TRACE_COLLECTIVE ? "bytes_in" : "bytes");
    out->live = event_arg(e, "live");
    out->seq = (int64_t)event_arg(e, "seq");
    out->group_size = (int)event_arg(e, "group_size");
    pthread_mutex_unlock(&d->trace_lock);
    return SS_OK;
}

void ss_context_trace_clear(ss_context *ctx)
{
    for (int i = 0; i < ctx->ndevices; i++) {
        ss_device *d = &ctx->devices[i];
        pthread_mutex_lock(&d->trace_lock);
        d->nevents = 0;
        pthread_mutex_unlock(&d->trace_lock);
    }
}
