// TechoModel's users see TechoGeometry's Point, Rect and Transform, and the field rules
// (TechoRules), through it.
@_exported import TechoGeometry
@_exported import TechoRules
