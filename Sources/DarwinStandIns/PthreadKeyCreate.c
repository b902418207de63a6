// Apple's `pthread_key_create` declaration over the C library's (see include/PthreadKeyCreate.h).

#include "PthreadKeyCreate.h"

int darwin_standins_pthread_key_create(pthread_key_t *key, void (*destructor)(void *)) {
    return pthread_key_create(key, destructor);
}
