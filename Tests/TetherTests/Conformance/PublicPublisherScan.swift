import Foundation

/// Finds the public publisher types declared in source files, by reading the declarations.
///
/// A type counts when it is declared `public` (struct, class or enum) and lists `Publisher`,
/// `ConnectablePublisher`, `Subject` or `Relay` among its conformances, or when an extension adds one
/// of those conformances to it. A type declared inside `extension Publishers` (or any other
/// type or extension at the top of the file) is named with that prefix: `Publishers.Map`,
/// `Optional.Publisher`.
enum PublicPublisherScan {
    private static let contextPattern = try! NSRegularExpression(
        pattern:
            #"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|package|fileprivate|private|final)\s+)*(?:extension|struct|class|enum|actor)\s+([A-Za-z_][\w.]*)"#
    )
    private static let declarationPattern = try! NSRegularExpression(
        pattern: #"^(\s*)(?:@\w+(?:\([^)]*\))?\s+)*public\s+(?:final\s+)?(?:struct|class|enum)\s+(\w+)"#)
    private static let extensionPattern = try! NSRegularExpression(
        pattern: #"^extension\s+([A-Za-z_][\w.]*)\s*:([^{]*)"#)
    private static let protocolPattern = try! NSRegularExpression(
        pattern: #"\b(?:Connectable)?Publisher\b|\bSubject\b|\bRelay\b"#)

    /// The names of the public publisher types declared under `directories`.
    static func publisherTypes(under directories: [URL]) throws -> Set<String> {
        var found: Set<String> = []
        for directory in directories {
            guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
                continue
            }
            for case let file as URL in files where file.pathExtension == "swift" {
                found.formUnion(publisherTypes(in: try String(contentsOf: file, encoding: .utf8)))
            }
        }
        return found
    }

    /// The names of the public publisher types declared in one file's text.
    static func publisherTypes(in text: String) -> Set<String> {
        let lines = text.components(separatedBy: "\n")
        var found: Set<String> = []
        var context: String?
        for (index, line) in lines.enumerated() {
            if let match = firstMatch(extensionPattern, line), protocolMatches(match[2]) {
                found.insert(match[1])
            }
            if let match = firstMatch(declarationPattern, line) {
                let header = declarationHeader(lines, from: index)
                if protocolMatches(conformances(of: header, name: match[2])) {
                    let nested = !match[1].isEmpty
                    found.insert(nested ? "\(context ?? "?").\(match[2])" : match[2])
                }
            }
            if !line.hasPrefix(" "), !line.hasPrefix("\t"), let match = firstMatch(contextPattern, line) {
                context = match[1]
            }
        }
        return found
    }

    /// The declaration from its first line up to its opening brace, on one line.
    private static func declarationHeader(_ lines: [String], from start: Int) -> String {
        var header = ""
        for line in lines[start...] {
            if let brace = line.firstIndex(of: "{") {
                return header + " " + line[..<brace]
            }
            header += " " + line
        }
        return header
    }

    /// The conformance list of a declaration header: after the name and generic parameters,
    /// up to a `where` clause.
    private static func conformances(of header: String, name: String) -> String {
        guard let nameRange = header.range(of: name) else { return "" }
        var depth = 0
        var index = nameRange.upperBound
        while index < header.endIndex {
            let character = header[index]
            if character == "<" { depth += 1 }
            if character == ">" { depth -= 1 }
            if character == ":" && depth == 0 {
                let rest = header[header.index(after: index)...]
                if let whereRange = rest.range(of: " where ") {
                    return String(rest[..<whereRange.lowerBound])
                }
                return String(rest)
            }
            index = header.index(after: index)
        }
        return ""
    }

    private static func protocolMatches(_ text: String) -> Bool {
        protocolPattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    private static func firstMatch(_ pattern: NSRegularExpression, _ line: String) -> [String]? {
        guard let match = pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) else {
            return nil
        }
        return (0..<match.numberOfRanges).map { group in
            Range(match.range(at: group), in: line).map { String(line[$0]) } ?? ""
        }
    }
}
