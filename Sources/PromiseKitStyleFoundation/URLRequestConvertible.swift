import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the `URLSession` promises accept as their request: a `URLRequest` as it is, or a `URL` to GET.
///
/// PromiseKit deliberately gives `String` no conformance: a string that is not a URL is an error the caller should
/// handle where it makes the string, not a rejection far down a chain.
public protocol URLRequestConvertible {
    /// The request to send.
    var pmkRequest: URLRequest { get }
}

extension URLRequest: URLRequestConvertible {
    /// The request itself.
    public var pmkRequest: URLRequest { self }
}

extension URL: URLRequestConvertible {
    /// A GET request for this URL, with `URLRequest`'s defaults.
    public var pmkRequest: URLRequest { URLRequest(url: self) }
}
