import PromiseConformance

/// The adapters of the package's three styles, in the order of the matrix's columns.
public enum BuiltInAdapters {
    /// BoltsStyle, PromiseKitStyle and FBLStyle.
    public static var all: [any PromiseAdapter] {
        [BoltsStyleAdapter(), PromiseKitStyleAdapter(), FBLStyleAdapter()]
    }
}
