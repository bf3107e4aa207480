/* fault_fdatasync.c — LD_PRELOAD'ed by test_faults.c: every fdatasync() fails as on a
 * full disk whose blocks are allocated late (delayed allocation, NFS), where write()
 * succeeds and the error comes at the sync.  Only the suite's journal uses fdatasync. */
#include <errno.h>

int fdatasync(int fd);

int fdatasync(int fd)
{
  (void)fd;
  errno = ENOSPC;
  return -1;
}
