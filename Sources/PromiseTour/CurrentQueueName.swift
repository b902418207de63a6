// The label of the queue the caller runs on, for the tour's timeline: libdispatch's `dispatch_queue_get_label(NULL)`,
// which the Swift overlay does not expose, so it is looked up once with `dlsym`. This file imports no Foundation, so
// that with the trait DarwinStandIns its `dlsym` is the stand-in's (which takes Apple's `RTLD_DEFAULT`) and not the C
// library's that Foundation re-exports.

#if canImport(Darwin)
    import Darwin
#elseif DARWIN_STANDINS
    import DarwinStandIns
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `dispatch_queue_get_label(NULL)`, found at run time because the Swift overlay hides it.
private typealias GetLabel = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?

private let getLabel: GetLabel? = {
    #if canImport(Darwin) || DARWIN_STANDINS
        let handle = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
    #else
        let handle: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
    #endif
    guard let symbol = dlsym(handle, "dispatch_queue_get_label") else { return nil }
    return unsafeBitCast(symbol, to: GetLabel.self)
}()

/// The label of the queue the caller runs on, with libdispatch's long names shortened.
func currentQueueName() -> String {
    guard let getLabel, let raw = getLabel(nil) else { return "?" }
    let label = String(cString: raw)
    switch label {
    case "com.apple.main-thread": return "main queue"
    case "com.apple.root.default-qos", "com.apple.root.default-qos.overcommit": return "global"
    case "Swift global concurrent queue": return "Swift pool"
    case "": return "(no queue)"
    default:
        if label.hasPrefix("com.apple.root.") { return "global " + label.dropFirst("com.apple.root.".count) }
        return label
    }
}
