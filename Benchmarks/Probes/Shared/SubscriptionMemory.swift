// Bytes of heap per live `subject.sink` subscription, as glibc's allocator accounts them.
//
// MemoryTether and MemoryOpenCombine hold this same file as their main.swift; the compilation
// condition picks the library. It prints one tab-separated line that report.py reads:
// `memory <library> <bytes per subscription> <subscriptions>`.

#if TETHER
import Tether
let library = "Tether"
#elseif OPENCOMBINE
import OpenCombine
let library = "OpenCombine"
#else
#error("Build this file with TETHER or OPENCOMBINE defined")
#endif
import CHeapInUse

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 10_000 : 10_000
let subject = PassthroughSubject<Int, Never>()
var cancellables: [AnyCancellable] = []
cancellables.reserveCapacity(count)
// Storage a subject makes on its first subscription and keeps is not a per-subscription cost.
subject.sink { _ in }.cancel()

let before = heap_bytes_in_use()
for _ in 0..<count {
    // The closure captures nothing, so what is counted is the library's own.
    cancellables.append(subject.sink { _ in })
}
let after = heap_bytes_in_use()

// Every subscription is alive: one send reaches all of them.
subject.send(1)
let perSubscription = Double(after - before) / Double(count)
print("memory\t\(library)\t\(perSubscription)\t\(count)")
for cancellable in cancellables {
    cancellable.cancel()
}
