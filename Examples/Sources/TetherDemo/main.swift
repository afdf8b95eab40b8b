// The demonstration of Tether: the seed articles' scenarios working together in one program.
// See Options.usage for what it does; Demo.swift runs it.
import Foundation

do {
    switch try Options.parse(Array(CommandLine.arguments.dropFirst())) {
    case .help:
        print(Options.usage)
    case .run(let options):
        exit(Demo(options: options).run())
    }
} catch {
    FileHandle.standardError.write(Data("tether-demo: \(error.message)\n\n\(Options.usage)\n".utf8))
    exit(64)
}
