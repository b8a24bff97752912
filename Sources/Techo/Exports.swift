// The Techo library: what another Swift package imports to work with journals.
//
// `import Techo` brings the journal model (TechoModel: Page, Element, Gesture, Stroke, RGBA,
// PageSize, …) and its geometry (TechoGeometry: Point, Rect, Transform), and `JournalEditor`,
// which opens or creates a journal folder, adds pictures, applies gestures, draws strokes,
// undoes and redoes, and renders pages to PNG bytes or an RGBA buffer — the same model,
// history and renderer as the `techo` command line.
@_exported import TechoEditing
@_exported import TechoGeometry
@_exported import TechoModel
