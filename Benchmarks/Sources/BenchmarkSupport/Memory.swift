#if canImport(Glibc)
import Glibc
#endif

/// Resident memory of this process in bytes (Linux: /proc/self/statm); -1 where unknown.
public func residentBytes() -> Int {
    #if os(Linux)
    guard let file = fopen("/proc/self/statm", "r") else { return -1 }
    defer { fclose(file) }
    var size = 0, resident = 0
    guard withUnsafeMutablePointer(to: &size, { s in withUnsafeMutablePointer(to: &resident) { r in
        withVaList([s, r]) { vfscanf(file, "%ld %ld", $0) } } }) == 2 else { return -1 }
    return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
    return -1
    #endif
}
