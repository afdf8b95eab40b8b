/// A subscription's mirror as `label: value` lines.
func mirrorSummary(_ subject: Any) -> [String] {
    Mirror(reflecting: subject).children.map { "\($0.label ?? "_"): \($0.value)" }
}
