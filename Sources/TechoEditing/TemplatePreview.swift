// What a new page from a template would look like, for the editor's template chooser: the page
// `PageEdits.addPage` would make from it (the template's size, dpi and background, else the
// journal's last page's; its slots and decorations), built without touching the journal.
import Foundation
import TechoModel

extension PageEdits {
    /// The page that adding a page from the built-in template `name` to `journal` would make
    /// now, with the id `id`; `.notFound` naming the template and the built-in ones when there
    /// is no such built-in template.
    public static func templatePreview(_ name: String, journal: Journal, pages: PageSet, id: String = "template") throws(EditError) -> Page {
        let names = Templates.builtinNames()
        guard Identifier.isValid(name), names.contains(name) else {
            throw EditError(
                .notFound, "template: no built-in template '\(name)'; templates: " + (names.isEmpty ? "(none found)" : names.joined(separator: ", ")))
        }
        let t = try Templates.load(name, relativeTo: URL(fileURLWithPath: "/")).template
        let last = journal.pageOrder.last.flatMap { pages[$0] }
        do {
            return try Page(
                id: id, size: t.size ?? last?.size, dpi: t.dpi ?? last?.dpi ?? Page.defaultDPI,
                background: t.background ?? last?.background ?? Background(), margin: last?.margin ?? 0,
                slots: t.slots, elements: t.elements)
        } catch {
            throw EditError(.invalid, "template '\(name)': \(error)")
        }
    }
}
