// A small HTTP/1.1 server on 127.0.0.1 for the URLSession tests: real sockets, real requests, no mocked protocol.
import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc

    /// `SOCK_STREAM` as `socket` takes it.
    private let streamSocket = Int32(SOCK_STREAM.rawValue)
    /// `send` flags: no SIGPIPE when the client already hung up.
    private let sendFlags = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
    import Darwin

    /// `SOCK_STREAM` as `socket` takes it.
    private let streamSocket = SOCK_STREAM
    /// `send` flags (SIGPIPE is a process-wide matter on Apple platforms; no flag for it).
    private let sendFlags: Int32 = 0
#endif

/// What the server answers on a path.
enum Reply: Sendable {
    /// A response with this status and body.
    case status(Int, body: Data)
    /// 200 with the request's own body.
    case echo
    /// No answer: the server reports that the request arrived (``LoopbackHTTPServer/requestArrived()``), then waits
    /// until the client closes the connection or the server stops.
    case hold
}

/// Serves one connection at a time on 127.0.0.1, on a port the system picks, from a thread of its own; a request for
/// an unknown path gets 404. Stopped by ``stop()`` (``withLoopbackServer(_:_:)`` stops it when the test ends), which
/// closes the sockets and waits for the thread to finish.
final class LoopbackHTTPServer: @unchecked Sendable {
    /// The port the server listens on.
    let port: UInt16
    /// The paths served, each with its reply. Read-only after `init`.
    private let routes: [String: Reply]
    private let listener: Int32
    /// `stop()` writes a byte to `wake[1]`; the serving thread polls `wake[0]` beside its sockets.
    private let wake: [Int32]
    private let finished = DispatchSemaphore(value: 0)
    /// Requests read so far, by path, and the continuations of `requestArrived()` callers.
    private let state = Locked((received: [String](), held: 0, waiters: [CheckedContinuation<Void, Never>]()))

    init(routes: [String: Reply]) throws {
        self.routes = routes
        let listener = try Self.check(socket(AF_INET, streamSocket, 0))
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0  // any free port
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                _ = try Self.check(bind(listener, generic, length))
                _ = try Self.check(getsockname(listener, generic, &length))
            }
        }
        port = UInt16(bigEndian: address.sin_port)
        _ = try Self.check(listen(listener, 8))
        var fds: [Int32] = [0, 0]
        _ = try Self.check(pipe(&fds))
        wake = fds
        let thread = Thread { [self] in
            serve()
            finished.signal()
        }
        thread.start()
    }

    /// The URL of `path` on this server.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// The paths of the requests the server read, in order.
    var receivedPaths: [String] { state.withLock { $0.received } }

    /// Returns once a request for a `.hold` path has arrived (at once if one already has).
    func requestArrived() async {
        await withCheckedContinuation { continuation in
            let arrived = state.withLock { state -> Bool in
                if state.held > 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if arrived { continuation.resume() }
        }
    }

    /// Stops serving, closes every socket and waits for the serving thread to end. Call once.
    func stop() {
        var byte: UInt8 = 1
        _ = write(wake[1], &byte, 1)
        finished.wait()
        close(listener)
        close(wake[0])
        close(wake[1])
    }

    // MARK: The serving thread

    private func serve() {
        while let client = next(listener) {
            handle(client)
            close(client)
        }
    }

    /// Waits until `fd` is readable and returns, for the listener, the accepted connection or, for a client, `fd`;
    /// `nil` once `stop()` was called.
    private func next(_ fd: Int32) -> Int32? {
        var fds = [
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&fds, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 || fds[1].revents != 0 { return nil }
            return fd == listener ? accept(fd, nil, nil) : fd
        }
    }

    /// Reads one request from `client` and answers it as its path's route says.
    private func handle(_ client: Int32) {
        guard let request = read(requestFrom: client) else { return }
        state.withLock { $0.received.append(request.path) }
        switch routes[request.path] ?? .status(404, body: Data("no route".utf8)) {
        case .status(let code, let body):
            respond(to: client, status: code, body: body)
        case .echo:
            respond(to: client, status: 200, body: request.body)
        case .hold:
            let waiters = state.withLock { state in
                state.held += 1
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
            // Until the client hangs up (recv reads 0 bytes) or the server stops.
            var byte: UInt8 = 0
            while next(client) != nil, recv(client, &byte, 1, 0) > 0 {}
        }
    }

    /// The request line's path and the body (by `Content-Length`, or chunked), or `nil` if the client hung up first.
    private func read(requestFrom client: Int32) -> (path: String, body: Data)? {
        var buffer = Data()
        let separator = Data("\r\n\r\n".utf8)
        while buffer.range(of: separator) == nil {
            guard receive(from: client, into: &buffer) else { return nil }
        }
        let headerEnd = buffer.range(of: separator)!
        let head = String(decoding: buffer[..<headerEnd.lowerBound], as: UTF8.self)
        var rest = Data(buffer[headerEnd.upperBound...])
        let lines = head.components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        if headers["expect"]?.lowercased() == "100-continue" {
            transmit(Data("HTTP/1.1 100 Continue\r\n\r\n".utf8), to: client)
        }
        let body: Data?
        if headers["transfer-encoding"]?.lowercased() == "chunked" {
            body = readChunks(from: client, buffered: &rest)
        } else {
            let length = Int(headers["content-length"] ?? "0") ?? 0
            while rest.count < length {
                guard receive(from: client, into: &rest) else { return nil }
            }
            body = rest.prefix(length)
        }
        return body.map { (String(requestLine[1]), $0) }
    }

    /// A chunked body: hexadecimal size, CRLF, the bytes, CRLF, until a chunk of size 0.
    private func readChunks(from client: Int32, buffered: inout Data) -> Data? {
        var body = Data()
        let crlf = Data("\r\n".utf8)
        while true {
            while buffered.range(of: crlf) == nil {
                guard receive(from: client, into: &buffered) else { return nil }
            }
            let lineEnd = buffered.range(of: crlf)!
            let sizeText = String(decoding: buffered[..<lineEnd.lowerBound], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";")[0], radix: 16) else { return nil }
            buffered = Data(buffered[lineEnd.upperBound...])
            while buffered.count < size + 2 {
                guard receive(from: client, into: &buffered) else { return nil }
            }
            if size == 0 { return body }
            body.append(buffered.prefix(size))
            buffered = Data(buffered.dropFirst(size + 2))
        }
    }

    /// Appends what `client` sent next to `buffer`; false when it hung up or the server stops.
    private func receive(from client: Int32, into buffer: inout Data) -> Bool {
        guard next(client) != nil else { return false }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = recv(client, &bytes, bytes.count, 0)
        guard count > 0 else { return false }
        buffer.append(contentsOf: bytes[..<count])
        return true
    }

    private func respond(to client: Int32, status: Int, body: Data) {
        let head =
            "HTTP/1.1 \(status) Reply\r\n"  // the reason phrase is free text
            + "Content-Type: application/octet-stream\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        transmit(Data(head.utf8) + body, to: client)
    }

    private func transmit(_ data: Data, to client: Int32) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = send(client, raw.baseAddress! + offset, raw.count - offset, sendFlags)
                guard sent > 0 else { return }
                offset += sent
            }
        }
    }

    private static func check(_ result: Int32) throws -> Int32 {
        guard result >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return result
    }
}

/// Runs `body` with a server of `routes`, and stops the server when `body` returns or throws.
@discardableResult
func withLoopbackServer<T>(
    _ routes: [String: Reply], _ body: (LoopbackHTTPServer) async throws -> T
) async throws -> T {
    let server = try LoopbackHTTPServer(routes: routes)
    defer { server.stop() }
    return try await body(server)
}

/// A port on 127.0.0.1 nobody listens on: bound to get it from the system, then closed.
func refusingPort() throws -> UInt16 {
    let fd = socket(AF_INET, streamSocket, 0)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
            bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
        }
    }
    guard bound else { throw POSIXError(.EIO) }
    return UInt16(bigEndian: address.sin_port)
}
