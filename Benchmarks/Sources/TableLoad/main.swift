import CAppClipCore
import BenchmarkSupport

// Cold-process cost of the format tables: build time and resident memory added.
let before = residentBytes()
var milliseconds = 0.0
var bytes = 0
acc_format_tables_info(&milliseconds, &bytes)
let after = residentBytes()
print("table build: \((milliseconds * 100).rounded() / 100) ms, tables hold \(bytes / 1024) KiB, resident memory +\((after - before) / 1024) KiB")
