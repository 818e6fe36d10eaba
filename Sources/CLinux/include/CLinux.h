// Linux calls that Swift's Glibc module cannot reach (glibc wraps neither, and the generic
// syscall() is variadic, which Swift does not call).
#ifndef DASHPILOT_CLINUX_H
#define DASHPILOT_CLINUX_H

/// Puts the calling thread in the idle I/O class (ioprio_set, IOPRIO_CLASS_IDLE): its reads
/// are served only when no other I/O waits for the disk. Returns 0, or -1 with errno set.
int dashpilot_set_thread_idle_io_priority(void);

/// The calling thread's I/O class (ioprio_get: 0 none, 1 real time, 2 best effort, 3
/// idle), or -1 with errno set.
int dashpilot_thread_io_priority_class(void);

/// Sets the calling thread's nice value (setpriority on its thread id: on Linux nice is per
/// thread). Returns 0, or -1 with errno set.
int dashpilot_set_thread_nice(int nice);

#endif
