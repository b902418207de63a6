import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The error ``PromiseKitStyle/Promise/validate()`` rejects with: the server answered with a status outside 200–299.
public enum PMKHTTPError: Error, LocalizedError, CustomStringConvertible {
    /// The status code, the body the server sent with it, and the response.
    case badStatusCode(Int, Data, HTTPURLResponse)

    /// "Unauthorized (URL" for 401 (PromiseKit's wording, its parenthesis unclosed), "Invalid HTTP response (code)
    /// for URL." for any other status.
    public var errorDescription: String? {
        switch self {
        case .badStatusCode(401, _, let response):
            return "Unauthorized (\(Self.urlString(of: response))"
        case .badStatusCode(let code, _, let response):
            return "Invalid HTTP response (\(code)) for \(Self.urlString(of: response))."
        }
    }

    /// The body decoded as JSON into `t`, or `nil` when it does not decode: many APIs explain an error status in a
    /// JSON body.
    ///
    /// - Parameters:
    ///   - t: The type to decode.
    ///   - decoder: The decoder to use.
    /// - Returns: The decoded body, or `nil`.
    public func decodeResponse<T: Decodable>(_ t: T.Type, decoder: JSONDecoder = JSONDecoder()) -> T? {
        try? decoder.decode(t, from: body)
    }

    /// The body parsed with `JSONSerialization`, or `nil` when it is not JSON (PromiseKit's name; despite it, the
    /// value is whatever the top-level JSON value is).
    public var jsonDictionary: Any? {
        try? JSONSerialization.jsonObject(with: body)
    }

    /// The body as UTF-8 text, or `nil` when it is not UTF-8.
    public var failureReason: String? {
        String(data: body, encoding: .utf8)
    }

    /// The status code, the body (as text, or its size when it is not UTF-8), the URL and the headers, printed as an
    /// `NSDictionary` prints.
    public var description: String {
        switch self {
        case .badStatusCode(let code, let data, let response):
            var fields: [String: Any] = [
                "Status Code": code,
                "Body": String(data: data, encoding: .utf8) ?? "\(data.count) bytes",
                "Headers": response.allHeaderFields,
            ]
            fields["URL"] = response.url
            return "<NSHTTPResponse> \(NSDictionary(dictionary: fields))"
        }
    }

    /// The body that came with the status.
    private var body: Data {
        switch self {
        case .badStatusCode(_, let data, _): data
        }
    }

    /// The response's URL as text, or "nil".
    private static func urlString(of response: URLResponse) -> String {
        response.url?.absoluteString ?? "nil"
    }
}

// The payload is only ever read: an `HTTPURLResponse` is immutable once made.
extension PMKHTTPError: @unchecked Sendable {}
