// The stand-in `pthread_key_create` (Apple's destructor type), built only with the trait DarwinStandIns.
#if DARWIN_STANDINS
    import DarwinStandIns
    import Testing

    @Suite("pthread_key_create stand-in")
    struct PthreadKeyCreateTests {
        /// What the thread below needs: the key, and the counter it stores as its value there.
        final class Context {
            let key: pthread_key_t
            let counter: Counter
            init(key: pthread_key_t, counter: Counter) {
                self.key = key
                self.counter = counter
            }
        }

        /// The destructor takes a non-optional pointer, as on Apple platforms, and runs once for a thread's value
        /// when that thread exits.
        @Test func destructorRunsForTheValueAtThreadExit() throws {
            var key = pthread_key_t()
            try #require(
                pthread_key_create(&key) { Unmanaged<Counter>.fromOpaque($0).takeRetainedValue().value += 1 } == 0)
            defer { pthread_key_delete(key) }
            let released = Counter()
            let context = Unmanaged.passRetained(Context(key: key, counter: released)).toOpaque()
            var thread = pthread_t()
            let created = pthread_create(
                &thread, nil,
                { raw in
                    let context = Unmanaged<Context>.fromOpaque(raw!).takeRetainedValue()
                    pthread_setspecific(context.key, Unmanaged.passRetained(context.counter).toOpaque())
                    return nil
                }, context)
            try #require(created == 0)
            pthread_join(thread, nil)
            #expect(released.value == 1)
        }
    }
#endif
