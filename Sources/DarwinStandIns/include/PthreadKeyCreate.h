// Stand-in for the `pthread_key_create` that Apple's <pthread.h> gives Swift (trait DarwinStandIns).
//
// Apple's header declares the destructor's argument non-null (a destructor runs only for a non-null value), so Swift
// sees `(@convention(c) (UnsafeMutableRawPointer) -> Void)?` there and `UnsafeMutableRawPointer?` on Linux. This
// declaration has Apple's types under Apple's Swift name and forwards to the C library's `pthread_key_create`, whose
// rule for destructors is the same (POSIX: called only for a non-null value). Everything else of <pthread.h> comes
// from the C library, through this module.
#ifndef DARWIN_STANDINS_PTHREAD_KEY_CREATE_H
#define DARWIN_STANDINS_PTHREAD_KEY_CREATE_H

#include <pthread.h>

#pragma clang assume_nonnull begin

/// Creates a thread-specific data key; `destructor` runs at a thread's exit for the key's non-null value there.
int darwin_standins_pthread_key_create(pthread_key_t *key, void (*_Nullable destructor)(void *))
    __attribute__((swift_name("pthread_key_create(_:_:)")));

#pragma clang assume_nonnull end

#endif
