/// Random URLs in Apple's canonical form, drawn from a grammar that reaches every
/// host format, TLD class, wordbook paths, `p` queries, segmented items of each
/// type, percent escapes and fragments. Canonical means the decompressor must give
/// back exactly the same text.
struct URLGrammar {
    var random: SeededRandom

    static let huffmanTLDs = [".com", ".org", ".net", ".de", ".ru", ".cn", ".uk", ".jp", ".it", ".fr", ".nl", ".au",
                              ".br", ".ca", ".info", ".in", ".edu", ".us", ".pl", ".ga"]
    static let fixedTLDs = [".es", ".ch", ".io", ".gov", ".tv", ".me", ".biz", ".app", ".ai", ".shop", ".store",
                            ".estate", ".loan", ".museum", ".tech", ".cloud"]
    static let words = ["shop", "id", "menu", "item", "store", "play", "buy", "order", "store-locator", "item_id",
                        "product_id", "about", "watch", "wiki", "use", "bag"]
    static let lower = Array("abcdefghijklmnopqrstuvwxyz")
    static let alnum = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    static let spqExtra = Array("-._+")
    static let cpqExtra = Array("-._+,;:=")

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &random) < p }
    mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

    mutating func text(_ alphabet: [Character], _ length: ClosedRange<Int>) -> String {
        String((0..<int(length)).map { _ in pick(alphabet) })
    }

    mutating func number() -> String {
        let digits = int(1...12)
        return String(int(1...9)) + text(Array("0123456789"), 0...(digits - 1))
    }

    mutating func host() -> String {
        var labels: [String] = []
        for _ in 0..<int(1...2) {
            let label = text(Self.lower, 1...7) + (chance(0.2) ? "-" + text(Self.lower + Array("0123456789"), 1...3) : "")
            labels.append(label)
        }
        let name = labels.joined(separator: ".")
        switch int(0...9) {
        case 0...3: return name + pick(Self.huffmanTLDs)
        case 4...6: return name + pick(Self.fixedTLDs)
        case 7...8: return name + "." + text(Self.lower, 2...4)
        default: return name  // no TLD: whole-host format only
        }
    }

    /// A path component of one of the segmented types.
    mutating func component() -> String {
        switch int(0...3) {
        case 0: return number()
        case 1: return text(Self.alnum, 1...6)
        case 2: return text(Self.alnum, 1...3) + String(pick(Self.spqExtra)) + text(Self.alnum, 1...3)
        default: return pick(Self.words)
        }
    }

    mutating func value() -> String {
        switch int(0...3) {
        case 0: return number()
        case 1: return text(Self.alnum, 0...6)
        case 2: return text(Self.alnum, 1...3) + String(pick(Self.spqExtra)) + text(Self.alnum, 0...3)
        default: return text(Array("0123456789"), 1...3)  // may carry leading zeros
        }
    }

    mutating func percentEscape() -> String {
        let hex = Array("0123456789ABCDEFabcdef")
        return "%" + String(pick(hex)) + String(pick(hex))
    }

    mutating func rest() -> String {
        switch int(0...7) {
        case 0:
            return ""
        case 1:  // single wordbook word
            return "/" + pick(Self.words)
        case 2:  // template: optional word and p, p1, p2...
            let word = chance(0.5) ? pick(Self.words) : ""
            let count = int(1...3)
            let query = (0..<count).map { i in (i == 0 ? "p" : "p\(i)") + "=" + value() }.joined(separator: "&")
            return "/" + word + "?" + query
        case 3:  // segmented path items
            var path = (0..<int(1...3)).map { _ in component() }.joined(separator: "/")
            if chance(0.2) { path += "/" }
            return "/" + path
        case 4:  // segmented query with arbitrary keys
            let path = chance(0.5) ? component() : ""
            let query = (0..<int(1...3)).map { _ in text(Self.alnum, 1...3) + "=" + value() }.joined(separator: "&")
            return "/" + path + "?" + query
        case 5:  // combined: characters only the CPQ alphabet has, percent escapes
            let path = text(Self.alnum, 1...3) + String(pick(Self.cpqExtra)) + percentEscape() + text(Self.alnum, 0...2)
            return "/" + path
        case 6:  // fragments
            let base = chance(0.5) ? "/" + component() : ""
            return base + "#" + text(Self.alnum, 1...5)
        default:  // bare query keys and a fragment after a query
            return "/?" + text(Self.lower, 1...3) + (chance(0.5) ? "&" + text(Self.lower, 1...2) + "=" + number() : "")
                + (chance(0.3) ? "#" + text(Self.alnum, 1...3) : "")
        }
    }

    mutating func url() -> String {
        "https://" + (chance(0.2) ? "appclip." : "") + host() + rest()
    }
}
