// Stand-in for Apple's <os/lock.h>, for building the packages's Apple-only branches on Linux (trait DarwinStandIns).
//
// The declarations are the ones Apple's header gives Swift: `os_unfair_lock` is a struct with one `UInt32` field
// `_os_unfair_lock_opaque`, zero when unlocked (`os_unfair_lock()` in Swift, `OS_UNFAIR_LOCK_INIT` in C);
// `os_unfair_lock_t` is `UnsafeMutablePointer<os_unfair_lock>`, and the functions take non-null pointers.
//
// Like Apple's, the lock word holds the owner thread's id, so misuse traps instead of going unnoticed: unlocking a
// lock the calling thread does not own (another thread's, or an unlocked one), locking a lock the calling thread
// already holds, and a failed `os_unfair_lock_assert_owner` / `_assert_not_owner` each print Apple's
// "BUG IN CLIENT OF LIBPLATFORM: ..." message and trap. It is NOT Apple's implementation: waiters sleep on a Linux
// futex and donate no priority (see OSUnfairLock.c).
#ifndef DARWIN_STANDINS_OS_UNFAIR_LOCK_H
#define DARWIN_STANDINS_OS_UNFAIR_LOCK_H

#include <stdbool.h>
#include <stdint.h>

#pragma clang assume_nonnull begin

/// A low-level lock whose word holds its owner's thread id (zero: unlocked), as Apple's `os_unfair_lock`.
typedef struct os_unfair_lock_s {
    uint32_t _os_unfair_lock_opaque;
} os_unfair_lock, *os_unfair_lock_t;

/// The value of an unlocked lock (C only; Swift writes `os_unfair_lock()`).
#define OS_UNFAIR_LOCK_INIT ((os_unfair_lock){0})

/// Locks `lock`, sleeping while another thread holds it. Traps if the calling thread already holds it.
void os_unfair_lock_lock(os_unfair_lock_t lock);

/// Locks `lock` if no thread holds it; returns whether it did. Never sleeps.
bool os_unfair_lock_trylock(os_unfair_lock_t lock);

/// Unlocks `lock`. Traps unless the calling thread holds it.
void os_unfair_lock_unlock(os_unfair_lock_t lock);

/// Traps unless the calling thread holds `lock`.
void os_unfair_lock_assert_owner(const os_unfair_lock *lock);

/// Traps if the calling thread holds `lock`.
void os_unfair_lock_assert_not_owner(const os_unfair_lock *lock);

#pragma clang assume_nonnull end

#endif
