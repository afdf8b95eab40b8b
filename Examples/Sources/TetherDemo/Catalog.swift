import Foundation

/// What the server offers and the loader decodes.
struct Item: Codable, Sendable, Equatable {
    var id: Int
    var name: String
    var price: Double
}

/// The items of one run, known to the server (to serve them) and to the checks (to compare).
struct Catalog: Sendable {
    let count: Int

    private static let names = [
        "Apricot", "Bramble", "Cloudberry", "Damson", "Elderberry", "Fig", "Greengage", "Huckleberry",
        "Imbe", "Jostaberry", "Kumquat", "Loganberry", "Medlar", "Nectarine", "Olive", "Persimmon",
    ]

    /// The one item the server sends as broken JSON: the one in the middle.
    var malformedID: Int { (count + 1) / 2 }

    var ids: ClosedRange<Int> { 1...count }

    /// Every third item answers slowly, so that answers arrive out of order.
    func isSlow(_ id: Int) -> Bool { id % 3 == 2 }

    /// How long a slow item keeps the client waiting.
    static let slowDelay = Duration.milliseconds(300)

    func item(_ id: Int) -> Item {
        let name = Self.names[(id - 1) % Self.names.count]
        let round = (id - 1) / Self.names.count
        return Item(id: id, name: round == 0 ? name : "\(name) \(round + 1)", price: Double(id * 125) / 100)
    }

    /// The items that decode: all but the malformed one.
    var wellFormed: [Item] { ids.filter { $0 != malformedID }.map(item) }
}
