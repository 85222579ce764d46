/*
 * files.c — the few POSIX file operations checkpoints need: paths, mkdir -p,
 * rm -r, whole-file reads and writes, fsync of files and directories,
 * and pread/write loops that survive short transfers and EINTR.
 *
 * Every failure is SS_ERR_IO (SS_ERR_NOMEM for memory) with the path and
 * strerror. What this file does not do: anything atomic by itself; save.c
 * composes these into the write-temporary-then-rename protocol.
 */
#include "shardsim.h"

#include "ckpt_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#if defined(__APPLE__)
#include <sys/stdio.h> /* renamex_np */
#endif

char *ss__ck_pathf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

bool ss__ck_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool ss__ck_is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

ss_status ss__ck_mkdirs(const char *path)
{
    char *p = ss__ck_pathf("%s", path);
    if (!p)
        return ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
    size_t len = strlen(p);
    for (size_t i = 1; i <= len; i++) {
        if (p[i] != '/' && p[i] != '\0')
            continue;
        char c = p[i];
        p[i] = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST) {
            int e = errno;
            ss_status st = ss__fail(SS_ERR_IO, "cannot create directory %s: %s", p, strerror(e));
            free(p);
            return st;
        }
        p[i] = c;
    }
    free(p);
    if (!ss__ck_is_dir(path))
        return ss__fail(SS_ERR_IO, "%s exists and is not a directory", path);
    return SS_OK;
}

ss_status ss__ck_rmtree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? SS_OK
                               : ss__fail(SS_ERR_IO, "cannot remove %s: %s", path,
                                          strerror(errno));
    if (!S_ISDIR(st.st_mode)) {
        if (unlink(path) != 0 && errno != ENOENT)
            return ss__fail(SS_ERR_IO, "cannot remove %s: %s", path, strerror(errno));
        return SS_OK;
    }
    DIR *d = opendir(path);
    if (!d)
        return ss__fail(SS_ERR_IO, "cannot open directory %s: %s", path, strerror(errno));
    ss_status res = SS_OK;
    struct dirent *e;
    while (res == SS_OK && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *child = ss__ck_pathf("%s/%s", path, e->d_name);
        if (!child) {
            res = ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
            break;
        }
        res = ss__ck_rmtree(child);
        free(child);
    }
    closedir(d);
    if (res == SS_OK && rmdir(path) != 0 && errno != ENOENT)
        res = ss__fail(SS_ERR_IO, "cannot remove directory %s: %s", path, strerror(errno));
    return res;
}

ss_status ss__ck_swap_dirs(const char *a, const char *b, const char *aside, bool *swapped)
{
    *swapped = false;
#if defined(__linux__) && defined(RENAME_EXCHANGE)
    if (renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) == 0) {
        *swapped = true;
        return SS_OK;
    }
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
        return ss__fail(SS_ERR_IO, "cannot exchange %s and %s: %s", a, b, strerror(errno));
#elif defined(__APPLE__) && defined(RENAME_SWAP)
    if (renamex_np(a, b, RENAME_SWAP) == 0) {
        *swapped = true;
        return SS_OK;
    }
    if (errno != EINVAL && errno != ENOTSUP)
        return ss__fail(SS_ERR_IO, "cannot exchange %s and %s: %s", a, b, strerror(errno));
#endif
    ss_status st = ss__ck_rmtree(aside);
    if (st == SS_OK && rename(b, aside) != 0)
        st = ss__fail(SS_ERR_IO, "cannot move %s to %s: %s", b, aside, strerror(errno));
    if (st == SS_OK && rename(a, b) != 0)
        st = ss__fail(SS_ERR_IO, "cannot rename %s to %s: %s", a, b, strerror(errno));
    return st;
}

ss_status ss__ck_fsync_dir(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return ss__fail(SS_ERR_IO, "cannot open directory %s: %s", path, strerror(errno));
    int rc = fsync(fd);
    int e = errno;
    close(fd);
    if (rc != 0 && e != EINVAL) /* some file systems cannot sync directories */
        return ss__fail(SS_ERR_IO, "cannot sync directory %s: %s", path, strerror(e));
    return SS_OK;
}

ss_status ss__ck_write_all(int fd, const void *data, size_t n, const char *path)
{
    const unsigned char *p = data;
    while (n > 0) {
        ssize_t w = write(fd, p, n > ((size_t)1 << 30) ? (size_t)1 << 30 : n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return ss__fail(SS_ERR_IO, "cannot write %s: %s", path, strerror(errno));
        }
        p += w;
        n -= (size_t)w;
    }
    return SS_OK;
}

ss_status ss__ck_pread_all(int fd, void *buf, size_t n, uint64_t off, size_t *got, const char *path)
{
    unsigned char *p = buf;
    size_t done = 0;
    while (done < n) {
        size_t want = n - done > ((size_t)1 << 30) ? (size_t)1 << 30 : n - done;
        ssize_t r = pread(fd, p + done, want, (off_t)(off + done));
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return ss__fail(SS_ERR_IO, "cannot read %s: %s", path, strerror(errno));
        }
        if (r == 0)
            break;
        done += (size_t)r;
    }
    *got = done;
    return SS_OK;
}

ss_status ss__ck_write_file(const char *path, const void *data, size_t n, bool sync)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return ss__fail(SS_ERR_IO, "cannot create %s: %s", path, strerror(errno));
    ss_status st = ss__ck_write_all(fd, data, n, path);
    if (st == SS_OK && sync && fsync(fd) != 0)
        st = ss__fail(SS_ERR_IO, "cannot sync %s: %s", path, strerror(errno));
    if (close(fd) != 0 && st == SS_OK)
        st = ss__fail(SS_ERR_IO, "cannot close %s: %s", path, strerror(errno));
    return st;
}

ss_status ss__ck_read_file(const char *path, char **out, size_t *len)
{
    int e = ss__read_file(path, SIZE_MAX, out, len);
    if (e == ENOMEM)
        return ss__fail(SS_ERR_NOMEM, "out of host memory reading %s", path);
    if (e)
        return ss__fail(SS_ERR_IO, "cannot read %s: %s", path, strerror(e));
    return SS_OK;
}

int64_t ss__ck_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

double ss__ck_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
