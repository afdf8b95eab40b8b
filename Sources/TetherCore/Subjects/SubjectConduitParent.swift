/// What a conduit needs from its subject: to be forgotten on cancel, and to be told of demand.
@usableFromInline
package protocol SubjectConduitParent: AnyObject {
    func detach(_ conduit: AnyObject)
    func acknowledgeDownstreamDemand()
}

/// A conduit's call on its subject, for the specialised entry a subject keeps: the conduit holds
/// its subject as `any SubjectConduitParent`, whose witnesses run unspecialised (see
/// ``ControlSignal``), so they only forward to a closure the subject made where its types were
/// known.
@usableFromInline
package enum SubjectParentSignal {
    case detach(AnyObject)
    case acknowledgeDownstreamDemand
}

/// A subject that keeps a specialised entry for its conduits' calls (see
/// ``SubjectParentSignal``): its `detach` and `acknowledgeDownstreamDemand` forward to the entry,
/// which runs these.
@usableFromInline
package protocol SpecializedSubjectParent: SubjectConduitParent {
    func detachNow(_ conduit: AnyObject)
    func acknowledgeDownstreamDemandNow()
}

extension SpecializedSubjectParent {
    /// The entry to keep, made in the subject's `@inlinable` initialiser so that it specialises
    /// for the concrete subject type.
    @inlinable
    package static var parentEntry: (AnyObject, SubjectParentSignal) -> Void {
        { object, signal in
            let subject = unsafeDowncast(object, to: Self.self)
            switch signal {
            case .detach(let conduit): subject.detachNow(conduit)
            case .acknowledgeDownstreamDemand: subject.acknowledgeDownstreamDemandNow()
            }
        }
    }
}
