// The request and response values the daemon hands to the editor's routes and takes back. Plain
// values: the routes never see libmicrohttpd, so they can be tested and reasoned about alone.
import Foundation
import TechoModel

/// One HTTP request, with its body complete.
public struct HTTPRequest: Sendable {
    /// `GET`, `POST`, …, as sent.
    public var method: String
    /// The path without the query, decoded exactly as sent (`RequestTarget`).
    public var path: String
    /// Query arguments, decoded; a repeated key keeps its last value.
    public var query: [String: String]
    /// Request headers by lower-cased name; a repeated header keeps its last value.
    public var headers: [String: String]
    /// Cookies by name.
    public var cookies: [String: String]
    /// The body (empty for GET).
    public var body: [UInt8]

    public init(
        method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
        cookies: [String: String] = [:], body: [UInt8] = []
    ) {
        self.method = method; self.path = path; self.query = query; self.headers = headers; self.cookies = cookies; self.body = body
    }

    /// Headers that a request may carry once (RFC 9112 §3.2: two `Host` headers are a 400).
    static let singleHeaders: Set<String> = ["host", "content-length", "transfer-encoding", "origin", "x-techo-token", "cookie"]

    /// A request from its parts as sent: the path and query arguments still percent-encoded
    /// (decoded here by `RequestTarget`), headers and cookies in the order sent.
    /// - Throws: `MalformedRequest` for a path or argument that cannot be taken exactly as
    ///   sent, or a header that must be single and is repeated.
    init(method: String, rawPath: String, rawQuery: [(String, String)], headers: [(String, String)], cookies: [(String, String)]) throws {
        var query: [String: String] = [:]
        for (k, v) in rawQuery {
            let key = try RequestTarget.component(k, name: k)
            query[key] = try RequestTarget.component(v, name: key)
        }
        var byName: [String: String] = [:]
        for (k, v) in headers {
            let name = k.lowercased()
            if byName[name] != nil, HTTPRequest.singleHeaders.contains(name) {
                throw MalformedRequest("the request has more than one \(k) header")
            }
            byName[name] = v
        }
        self.init(
            method: method, path: try RequestTarget.path(rawPath), query: query, headers: byName,
            cookies: Dictionary(cookies, uniquingKeysWith: { _, last in last }))
    }

    /// A header by case-insensitive name.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// True for methods that change the journal.
    public var isStateChanging: Bool { !["GET", "HEAD", "OPTIONS"].contains(method) }
}

/// What a response carries.
public enum HTTPBody: Sendable {
    case bytes([UInt8])
    /// A server-sent event stream that lasts until the client leaves or the server stops.
    case events(EventStream)
}

/// One HTTP response.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Headers in order; `Content-Type` among them.
    public var headers: [(String, String)]
    public var body: HTTPBody

    public init(status: Int, headers: [(String, String)] = [], body: HTTPBody = .bytes([])) {
        self.status = status; self.headers = headers; self.body = body
    }

    /// A JSON response.
    static func json(_ status: Int = 200, _ value: JSONValue) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "no-store")],
            body: .bytes(value.serializedBytes()))
    }

    /// `{"error": message}` with `status`.
    static func error(_ status: Int, _ message: String) -> HTTPResponse {
        json(status, .object(["error": .string(message)]))
    }
}
