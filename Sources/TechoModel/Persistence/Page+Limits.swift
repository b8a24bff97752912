// The per-page element limit (ModelLimits.maxElementsPerPage), enforced wherever a page is
// loaded, saved or created, so no command can grow a page past it.

extension Page {
    /// Throws a `ValueError` naming `file` when the page holds more elements than `limits` allow.
    public func checkElementCount(file: String, limits: ModelLimits) throws {
        guard elements.count <= limits.maxElementsPerPage else {
            throw ValueError("\(file): \(elements.count) elements, over the limit of \(limits.maxElementsPerPage) per page")
        }
    }
}
