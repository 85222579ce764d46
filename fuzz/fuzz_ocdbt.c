/*
 * fuzz_ocdbt — the OCDBT store reader (sim/ckpt/ocdbt_*.c) on any bytes.
 * The input starts with the manifest (as long as its header says, or the
 * whole input); every B+tree node the manifest or a node refers to (any
 * data file path) is read from the whole input at the referenced offset
 * and length (missing bytes are an error, as a short file is). Each frame's
 * length field and CRC32C are set right before decoding, so that mutations
 * reach the decoders behind the checksum (tests/test_ckpt_orbax.c checks
 * that damage is caught by the CRC32C). Each key found is then looked up and, when its value is
 * inline, read whole. Seeds (fuzz/corpus/ocdbt) are single-file stores
 * whose nodes live in the manifest's own bytes, built by
 * fuzz/make_ocdbt_seeds.py.
 */
#include "fuzz.h"

#include "ckpt/ckpt_internal.h"

typedef struct input {
    const uint8_t *data;
    size_t size;
} input;

/* Make the n bytes at p a frame with a true length and CRC32C. */
static void fix_frame(unsigned char *p, size_t n)
{
    if (n < 18)
        return;
    for (int i = 0; i < 8; i++)
        p[4 + i] = (unsigned char)((uint64_t)n >> (8 * i));
    uint32_t crc = ss_crc32c(0, p, n - 4);
    for (int i = 0; i < 4; i++)
        p[n - 4 + i] = (unsigned char)(crc >> (8 * i));
}

static ss_status load(void *ctx, const char *path, uint64_t off, uint64_t len,
                      unsigned char **out)
{
    const input *in = ctx;
    *out = NULL;
    if (off > in->size || len > in->size - off)
        return ss__fail(SS_ERR_IO, "fuzz: %s [%llu, +%llu) is past the input", path,
                        (unsigned long long)off, (unsigned long long)len);
    *out = malloc(len ? (size_t)len : 1);
    if (!*out)
        return ss__fail(SS_ERR_NOMEM, "fuzz: out of memory");
    memcpy(*out, in->data + off, (size_t)len);
    fix_frame(*out, (size_t)len);
    return SS_OK;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ss__ocdbt *kv = calloc(1, sizeof *kv);
    if (!kv)
        return 0;
    kv->root = malloc(8);
    if (!kv->root) {
        free(kv);
        return 0;
    }
    memcpy(kv->root, "/fuzz", 6);
    input in = {data, size};
    size_t mlen = size;
    if (size >= 12) {
        uint64_t n = 0;
        for (int i = 11; i >= 4; i--)
            n = n << 8 | data[i];
        if (n >= 12 && n < size)
            mlen = (size_t)n;
    }
    unsigned char *m = malloc(mlen ? mlen : 1);
    if (!m) {
        ss__ocdbt_free(kv);
        return 0;
    }
    memcpy(m, data, mlen);
    fix_frame(m, mlen);
    ss_status st = ss__ocdbt_decode(kv, m, mlen, load, &in);
    free(m);
    if (st == SS_OK) {
        for (int i = 0; i < kv->n; i++) {
            const ss__ocdbt_entry *e = ss__ocdbt_find(kv, kv->e[i].key);
            if (e != &kv->e[i])
                abort(); /* keys are sorted and unique */
            if (e->is_inline) {
                char *v;
                size_t len;
                if (ss__ocdbt_read_value(kv, e, &v, &len) == SS_OK)
                    free(v);
            }
        }
    }
    ss__ocdbt_free(kv);
    return 0;
}
