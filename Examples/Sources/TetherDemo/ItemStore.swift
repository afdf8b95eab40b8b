import Foundation
import GRDB
import Tether

/// A model with the metadata the database added: the seed's `Stored<Model>`.
struct Stored<Model: Sendable>: Sendable {
    /// The row the model was stored in.
    var row: Int64
    var model: Model
}

/// A change to an item's stock, one event of the burst.
struct StockChange: Sendable {
    var itemID: Int
    var delta: Int
}

/// One row of the database, as the ledger prints it.
struct ItemRow: FetchableRecord, Sendable {
    var row: Int64
    var itemID: Int
    var name: String
    var price: Double
    var stock: Int

    init(row: GRDB.Row) {
        self.row = row["row"]
        itemID = row["itemID"]
        name = row["name"]
        price = row["price"]
        stock = row["stock"]
    }
}

/// The seed's asynchronous database, on a real SQLite file: `store(_:)` returns a publisher that
/// inserts on GRDB's writer queue, and posts ``didChange`` after each committed write.
final class ItemStore: Sendable {
    /// Posted (on the database's queue) after each committed change; `object` is the item id.
    static let didChange = Notification.Name("TetherDemo.ItemStore.didChange")

    private let queue: DatabaseQueue

    init(path: String) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            // The file only gets its real name after the run succeeded (see DatabaseFile), so a
            // crash mid-run can only lose a file nobody points at: no fsync per transaction.
            try db.execute(sql: "PRAGMA synchronous = OFF")
        }
        queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE item (
                        row INTEGER PRIMARY KEY AUTOINCREMENT,
                        itemID INTEGER NOT NULL UNIQUE,
                        name TEXT NOT NULL,
                        price REAL NOT NULL,
                        stock INTEGER NOT NULL DEFAULT 0
                    )
                    """)
        }
    }

    /// Inserts `item`; the publisher sends what was stored, then finishes, or fails with the
    /// database's error. Nothing is written until a subscriber asks.
    func store(_ item: Item) -> AnyPublisher<Stored<Item>, any Error> {
        let queue = self.queue
        return Deferred {
            Future { promise in
                queue.asyncWrite(
                    { db in
                        try db.execute(
                            sql: "INSERT INTO item (itemID, name, price) VALUES (?, ?, ?)",
                            arguments: [item.id, item.name, item.price])
                        return db.lastInsertedRowID
                    },
                    completion: { _, result in
                        promise(result.map { Stored(row: $0, model: item) })
                        if case .success = result {
                            NotificationCenter.default.post(name: Self.didChange, object: NSNumber(value: item.id))
                        }
                    })
            }
        }
        .eraseToAnyPublisher()
    }

    /// Applies one stock change, in its own transaction.
    func apply(_ change: StockChange) async throws {
        try await queue.write { db in
            try db.execute(
                sql: "UPDATE item SET stock = stock + ? WHERE itemID = ?", arguments: [change.delta, change.itemID])
        }
        NotificationCenter.default.post(name: Self.didChange, object: NSNumber(value: change.itemID))
    }

    /// Everything stored, by row.
    func rows() throws -> [ItemRow] {
        try queue.read { db in try ItemRow.fetchAll(db, sql: "SELECT * FROM item ORDER BY row") }
    }

    /// Closes the connection, so that the file is complete on disk.
    func close() throws {
        try queue.close()
    }
}
