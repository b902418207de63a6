// The stand-in `dlsym` (Apple's `RTLD_DEFAULT`), built only with the trait DarwinStandIns.
#if DARWIN_STANDINS
    import DarwinStandIns
    import Testing

    @Suite("dlsym stand-in")
    struct DlsymTests {
        /// Apple's `RTLD_DEFAULT`, `(void *)-2`, searches every loaded image, as glibc's null handle does.
        @Test func applesDefaultHandleFindsLoadedSymbols() {
            let appleDefault = UnsafeMutableRawPointer(bitPattern: -2)
            #expect(dlsym(appleDefault, "pthread_self") != nil)
            #expect(dlsym(appleDefault, "no_such_symbol_in_any_image") == nil)
        }
    }
#endif
