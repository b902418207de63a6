// `dlsym` over the C library's, taking Apple's `RTLD_DEFAULT` (see include/Dlsym.h).

#define _GNU_SOURCE
#include "Dlsym.h"

#include <dlfcn.h>
#include <stdint.h>

void *darwin_standins_dlsym(void *handle, const char *symbol) {
    const intptr_t appleDefault = -2;  // Apple's RTLD_DEFAULT
    return dlsym((intptr_t)handle == appleDefault ? RTLD_DEFAULT : handle, symbol);
}
