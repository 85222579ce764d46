/*
 * file.c — reading a whole file (or a pipe) into memory: the one reader of
 * the checkpoint metadata, scenario files and strategy files; and mapping
 * one (the arguments' .npy files, read without a copy).
 */
#include "base.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int ss__read_file(const char *path, size_t limit, char **out, size_t *len)
{
    *out = NULL;
    if (len)
        *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return errno ? errno : EIO;
    size_t cap = 0, n = 0;
    char *buf = NULL;
    int err = 0;
    /* A regular file is read into one buffer of its size (and room to see
     * its end), not grown by doubling: one allocation, no copies. */
    struct stat sb;
    size_t first = 65536;
    if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size >= 0 &&
        (uintmax_t)sb.st_size < (uintmax_t)limit)
        first = (size_t)sb.st_size + 2;
    for (;;) {
        if (cap - n < 2) { /* room for one more byte and the NUL */
            size_t ncap = cap ? (cap > SIZE_MAX / 2 ? SIZE_MAX : cap * 2) : first;
            char *nb = ncap > cap ? realloc(buf, ncap) : NULL;
            if (!nb) {
                err = ENOMEM;
                break;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (n > limit) {
            err = EFBIG;
            break;
        }
        if (got == 0) {
            if (ferror(f))
                err = errno ? errno : EIO;
            break;
        }
    }
    fclose(f);
    if (err) {
        free(buf);
        return err;
    }
    buf[n] = '\0';
    *out = buf;
    if (len)
        *len = n;
    return 0;
}

int ss__file_map(const char *path, size_t limit, ss__file *m)
{
    memset(m, 0, sizeof *m);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno ? errno : EIO;
    struct stat sb;
    bool regular = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0;
    if (regular && (uintmax_t)sb.st_size > (uintmax_t)limit) {
        close(fd);
        return EFBIG;
    }
    void *p = regular && (uintmax_t)sb.st_size <= SIZE_MAX
                  ? mmap(NULL, (size_t)sb.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0)
                  : MAP_FAILED;
    close(fd);
    if (p != MAP_FAILED) {
        m->data = p;
        m->len = (size_t)sb.st_size;
        m->mapped = true;
        return 0;
    }
    return ss__read_file(path, limit, &m->data, &m->len);
}

void ss__file_release(ss__file *m)
{
    if (m->mapped)
        munmap(m->data, m->len);
    else
        free(m->data);
    memset(m, 0, sizeof *m);
}
