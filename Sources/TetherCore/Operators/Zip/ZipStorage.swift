/// The subscription of every zip publisher: the shared storage over ``ZipMachine``.
@usableFromInline
internal typealias ZipStorage<Downstream: Subscriber> = CombiningStorage<ZipMachine, Downstream>
