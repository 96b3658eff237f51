/*
 * The file calls of `.fileStorage` shared state (StoreKernel's Shared/FileStorage.swift): read a
 * whole file, write one atomically (a temporary file beside it, then rename), and stamp it
 * (what tells a changed file from the one last read or written). Inline, as the rest of CSystem.
 */
#ifndef LIBTCA_CSYSTEM_FILES_H
#define LIBTCA_CSYSTEM_FILES_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What identifies a version of a file: all zero when there is none. */
typedef struct csystem_file_stamp {
  int64_t mtime_ns;
  int64_t size;
  uint64_t inode;
} csystem_file_stamp;

/* The file's stamp; 0 if it exists, else the errno (ENOENT: there is none). */
static inline int csystem_file_stamp_of(const char *path, csystem_file_stamp *stamp) {
  struct stat info;
  memset(stamp, 0, sizeof *stamp);
  if (stat(path, &info) != 0) return errno ? errno : EIO;
  stamp->mtime_ns = (int64_t)info.st_mtim.tv_sec * 1000000000 + info.st_mtim.tv_nsec;
  stamp->size = (int64_t)info.st_size;
  stamp->inode = (uint64_t)info.st_ino;
  return 0;
}

/* Reads the whole file (at most `limit` bytes) into a malloc'd buffer the caller frees; 0 or an
   errno (EFBIG past the limit). */
static inline int csystem_read_file(const char *path, size_t limit, uint8_t **out,
                                    size_t *out_length) {
  *out = NULL;
  *out_length = 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno ? errno : EIO;
  size_t capacity = 4096, length = 0;
  uint8_t *buffer = malloc(capacity);
  if (!buffer) {
    close(fd);
    return ENOMEM;
  }
  for (;;) {
    if (length == capacity) {
      if (capacity >= limit) {
        free(buffer);
        close(fd);
        return EFBIG;
      }
      size_t grown = capacity * 2 > limit ? limit : capacity * 2;
      uint8_t *more = realloc(buffer, grown);
      if (!more) {
        free(buffer);
        close(fd);
        return ENOMEM;
      }
      buffer = more;
      capacity = grown;
    }
    ssize_t got = read(fd, buffer + length, capacity - length);
    if (got < 0) {
      if (errno == EINTR) continue;
      int error = errno;
      free(buffer);
      close(fd);
      return error;
    }
    if (got == 0) break;
    length += (size_t)got;
  }
  close(fd);
  *out = buffer;
  *out_length = length;
  return 0;
}

/* Writes `length` bytes to `path` atomically: into `path.tca-<pid>.tmp`, synced, then renamed
   over `path` (a reader sees the old file or the new one, never a part). 0 or an errno. */
static inline int csystem_write_file_atomic(const char *path, const uint8_t *bytes,
                                            size_t length) {
  size_t path_length = strlen(path);
  char *temporary = malloc(path_length + 40);
  if (!temporary) return ENOMEM;
  snprintf(temporary, path_length + 40, "%s.tca-%ld.tmp", path, (long)getpid());
  int fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    int error = errno;
    free(temporary);
    return error;
  }
  size_t written = 0;
  while (written < length) {
    ssize_t put = write(fd, bytes + written, length - written);
    if (put < 0) {
      if (errno == EINTR) continue;
      int error = errno;
      close(fd);
      unlink(temporary);
      free(temporary);
      return error;
    }
    written += (size_t)put;
  }
  int error = fsync(fd) == 0 ? 0 : errno;
  if (close(fd) != 0 && error == 0) error = errno;
  if (error != 0) {
    unlink(temporary);
    free(temporary);
    return error;
  }
  if (rename(temporary, path) != 0) {
    int error = errno;
    unlink(temporary);
    free(temporary);
    return error;
  }
  free(temporary);
  return 0;
}

#endif
