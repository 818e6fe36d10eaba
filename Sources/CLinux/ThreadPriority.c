#include "CLinux.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

// From linux/ioprio.h, which Debian's libc headers do not carry.
enum { IOPRIO_WHO_PROCESS = 1, IOPRIO_CLASS_IDLE = 3, IOPRIO_CLASS_SHIFT = 13 };

int dashpilot_set_thread_idle_io_priority(void) {
  // who = 0 with IOPRIO_WHO_PROCESS is the calling thread.
  return (int)syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, IOPRIO_CLASS_IDLE << IOPRIO_CLASS_SHIFT);
}

int dashpilot_thread_io_priority_class(void) {
  long value = syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, 0);
  return value < 0 ? -1 : (int)(value >> IOPRIO_CLASS_SHIFT);
}

int dashpilot_set_thread_nice(int nice) {
  return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice);
}
