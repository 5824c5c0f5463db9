import CAppClipCore
#if canImport(Glibc)
import Glibc
#endif

// Cold-process cost of the format tables: build time and resident memory added.
func residentBytes() -> Int {
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

let before = residentBytes()
var milliseconds = 0.0
var bytes = 0
acc_format_tables_info(&milliseconds, &bytes)
let after = residentBytes()
print("table build: \((milliseconds * 100).rounded() / 100) ms, tables hold \(bytes / 1024) KiB, resident memory +\((after - before) / 1024) KiB")
