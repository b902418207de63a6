// Stand-in for `dlsym` with the special handles of Apple's <dlfcn.h> (trait DarwinStandIns).
//
// Apple's `RTLD_DEFAULT` is `(void *)-2`, a pointer cast that Swift does not import, so Swift code on Apple platforms
// spells it `UnsafeMutableRawPointer(bitPattern: -2)`; glibc's is 0. This `dlsym` has the Swift declaration of both
// and takes Apple's `RTLD_DEFAULT`, passing any other handle on unchanged. Apple's other special handles are not
// stood in for (`RTLD_NEXT` means "after the caller's image", which a forwarding function cannot reproduce).
#ifndef DARWIN_STANDINS_DLSYM_H
#define DARWIN_STANDINS_DLSYM_H

/// Looks `symbol` up in `handle`, where `handle` may be Apple's `RTLD_DEFAULT`.
void *darwin_standins_dlsym(void *handle, const char *symbol) __attribute__((swift_name("dlsym(_:_:)")));

#endif
