/// An object a ``KeyPathRow`` refers to.
final class KeyPathOwner {
    let name: String

    init(name: String) { self.name = name }
}

/// A root with every kind of property a key path can name: stored plain data and a stored string,
/// nested, held weakly and unowned, computed, and behind an optional. What the key-path `map`
/// tests read.
struct KeyPathRow {
    struct Size {
        var width: Double
        var height: Double
    }

    var id: Int
    var size: Size
    var title: String
    weak var owner: KeyPathOwner?
    unowned let creator: KeyPathOwner
    var detail: Size?
    var area: Double { size.width * size.height }
}
