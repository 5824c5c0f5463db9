import CAppClipCore

/// A typed failure from any part of the kit: what went wrong, and where.
public struct AppClipCodeError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        case invalidArgument = "invalid_argument"
        case bufferTooSmall = "buffer_too_small"
        case outOfMemory = "out_of_memory"
        case urlScheme = "url_scheme"
        case urlNoHost = "url_no_host"
        case urlUserInfo = "url_userinfo"
        case urlPort = "url_port"
        case urlHostCharacter = "url_host_character"
        case urlPunycode = "url_punycode"
        case urlCharacter = "url_character"
        case urlTooLong = "url_too_long"
        case payloadInvalid = "payload_invalid"
        case uncorrectable = "uncorrectable"
        case unsupportedVersion = "unsupported_version"
        case bitCount = "bit_count"
        case svgMalformed = "svg_malformed"
        case svgNotACode = "svg_not_a_code"
        case imageFormat = "image_format"
        case imageTruncated = "image_truncated"
        case imageTooLarge = "image_too_large"
        case imageStride = "image_stride"
        case io = "io"
        case unknown = "unknown"
    }

    public let kind: Kind
    public let message: String
    /// Character or byte index in the input where it went wrong, when it is about a place.
    public let position: Int?
    /// A number that explains it (for `urlTooLong`, the compressed bit count).
    public let value: Int?

    public init(kind: Kind, message: String, position: Int? = nil, value: Int? = nil) {
        self.kind = kind
        self.message = message
        self.position = position
        self.value = value
    }

    public var description: String { "\(kind.rawValue): \(message)" }

    /// True for the URL validation and size errors of the generator's rules.
    public var isInvalidURL: Bool {
        switch kind {
        case .urlScheme, .urlNoHost, .urlUserInfo, .urlPort, .urlHostCharacter, .urlPunycode, .urlCharacter, .urlTooLong:
            return true
        default:
            return false
        }
    }

    init(_ error: acc_error) {
        let kindName = String(cString: acc_status_name(error.status))
        var message = error.message
        let text = withUnsafeBytes(of: &message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        self.init(
            kind: Kind(rawValue: kindName) ?? .unknown, message: text,
            position: error.position >= 0 ? Int(error.position) : nil,
            value: error.value >= 0 ? Int(error.value) : nil)
    }
}

/// Runs a C call that fills an acc_error, and throws it on failure.
@inline(__always)
func check(_ body: (UnsafeMutablePointer<acc_error>) -> acc_status) throws(AppClipCodeError) {
    var error = acc_error()
    let status = body(&error)
    if status != ACC_OK {
        if error.status == ACC_OK { error.status = status }
        throw AppClipCodeError(error)
    }
}
