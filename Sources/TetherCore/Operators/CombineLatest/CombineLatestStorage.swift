/// The subscription of every combine-latest publisher: the shared storage over ``CombineLatestMachine``.
@usableFromInline
internal typealias CombineLatestStorage<Downstream: Subscriber> = CombiningStorage<CombineLatestMachine, Downstream>
