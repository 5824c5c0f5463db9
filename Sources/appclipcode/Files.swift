import Foundation

struct FileError: Error, CustomStringConvertible {
    let description: String
}

func writeText(_ text: String, to path: String) throws {
    do {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    } catch {
        throw FileError(description: "cannot write \(path): \(error.localizedDescription)")
    }
}

func readText(_ path: String) throws -> String {
    guard let data = FileManager.default.contents(atPath: path) else {
        throw FileError(description: "cannot read \(path)")
    }
    return String(decoding: data, as: UTF8.self)
}

/// File names from the arguments, then from --files-from (one per line; "-" is standard input).
func collectInputs(_ files: [String], filesFrom: String?) throws -> AnyIterator<String> {
    var given = files.makeIterator()
    var handle: FileHandle?
    if let filesFrom {
        if filesFrom == "-" {
            handle = FileHandle.standardInput
        } else {
            guard let h = FileHandle(forReadingAtPath: filesFrom) else {
                throw FileError(description: "cannot read the file list \(filesFrom)")
            }
            handle = h
        }
    }
    var lines = handle.map { LineReader(handle: $0) }
    return AnyIterator {
        if let next = given.next() { return next }
        while let line = lines?.next() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty { return trimmed }
        }
        lines = nil
        return nil
    }
}

/// Reads lines lazily, so a list of millions of files streams.
struct LineReader: IteratorProtocol {
    let handle: FileHandle
    private var buffer = Data()
    private var done = false

    init(handle: FileHandle) { self.handle = handle }

    mutating func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<newline]
                buffer.removeSubrange(buffer.startIndex...newline)
                return String(decoding: line, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
            }
            if done {
                if buffer.isEmpty { return nil }
                let line = buffer
                buffer.removeAll()
                return String(decoding: line, as: UTF8.self)
            }
            let chunk = handle.readData(ofLength: 65536)
            if chunk.isEmpty { done = true } else { buffer.append(chunk) }
        }
    }
}
