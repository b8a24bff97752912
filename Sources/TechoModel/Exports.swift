// TechoModel's users see TechoGeometry's Point, Rect and Transform through it.
@_exported import TechoGeometry
