// The stand-in `os_unfair_lock` (see include/OSUnfairLock.h): C11 atomics on the lock word, a Linux futex to sleep.
//
// The word is 0 when unlocked, else the owner's kernel thread id (`gettid`, below 2^22 on Linux), with the top bit
// set while a thread may be asleep waiting for it. Every hand-over is an atomic acquire (taking the lock) paired with
// an atomic release (the owner's unlock), so the thread sanitizer sees the lock synchronize; the futex only puts
// waiters to sleep and wakes them, it carries no ordering of its own.

#include "OSUnfairLock.h"

#include <linux/futex.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

/// Set in the lock word while a waiter may be asleep on the futex: the unlock must wake one.
static const uint32_t waitersBit = 0x80000000u;

/// The lock word, seen atomically. `os_unfair_lock` is one naturally aligned `uint32_t`, like `_Atomic uint32_t`.
static _Atomic uint32_t *word(const os_unfair_lock *lock) {
    return (_Atomic uint32_t *)&((os_unfair_lock *)lock)->_os_unfair_lock_opaque;
}

/// The calling thread's kernel id, read once per thread.
static uint32_t currentThreadID(void) {
    static _Thread_local uint32_t cached = 0;
    if (cached == 0) cached = (uint32_t)syscall(SYS_gettid);
    return cached;
}

/// Prints Apple's message for a client bug and traps, as libplatform does.
__attribute__((noreturn, cold)) static void clientBug(const char *message) {
    fprintf(stderr, "BUG IN CLIENT OF LIBPLATFORM: %s\n", message);
    fflush(stderr);
    __builtin_trap();
}

void os_unfair_lock_lock(os_unfair_lock_t lock) {
    const uint32_t self = currentThreadID();
    uint32_t seen = 0;
    if (atomic_compare_exchange_strong_explicit(word(lock), &seen, self, memory_order_acquire, memory_order_relaxed)) {
        return;
    }
    if ((seen & ~waitersBit) == self) clientBug("Trying to recursively lock an os_unfair_lock");
    // Contended: mark the word as having a waiter, sleep while it stays so, and take the lock with the waiter mark
    // kept (another thread may still be asleep; the unlock that finds the mark wakes it).
    while (true) {
        seen = atomic_load_explicit(word(lock), memory_order_relaxed);
        if (seen == 0) {
            if (atomic_compare_exchange_weak_explicit(
                    word(lock), &seen, self | waitersBit, memory_order_acquire, memory_order_relaxed)) {
                return;
            }
            continue;
        }
        if (!(seen & waitersBit)
            && !atomic_compare_exchange_weak_explicit(
                word(lock), &seen, seen | waitersBit, memory_order_relaxed, memory_order_relaxed)) {
            continue;
        }
        syscall(SYS_futex, word(lock), FUTEX_WAIT_PRIVATE, seen | waitersBit, NULL, NULL, 0);
    }
}

bool os_unfair_lock_trylock(os_unfair_lock_t lock) {
    uint32_t expected = 0;
    return atomic_compare_exchange_strong_explicit(
        word(lock), &expected, currentThreadID(), memory_order_acquire, memory_order_relaxed);
}

void os_unfair_lock_unlock(os_unfair_lock_t lock) {
    const uint32_t seen = atomic_load_explicit(word(lock), memory_order_relaxed);
    if ((seen & ~waitersBit) != currentThreadID()) {
        clientBug("Unlock of an os_unfair_lock not owned by current thread");
    }
    const uint32_t released = atomic_exchange_explicit(word(lock), 0, memory_order_release);
    if (released & waitersBit) syscall(SYS_futex, word(lock), FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

void os_unfair_lock_assert_owner(const os_unfair_lock *lock) {
    if ((atomic_load_explicit(word(lock), memory_order_relaxed) & ~waitersBit) != currentThreadID()) {
        clientBug("Assertion failed: Lock unexpectedly not owned by current thread");
    }
}

void os_unfair_lock_assert_not_owner(const os_unfair_lock *lock) {
    if ((atomic_load_explicit(word(lock), memory_order_relaxed) & ~waitersBit) == currentThreadID()) {
        clientBug("Assertion failed: Lock unexpectedly owned by current thread");
    }
}
