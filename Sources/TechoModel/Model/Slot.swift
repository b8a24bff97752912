// Template slots (docs/contract.md §8a): named page rectangles a photo, image or text is placed into.

import Foundation

/// A page-space rectangle with an optional rotation about its centre.
public struct SlotFrame: Hashable, Sendable {
    /// The unrotated rectangle, page pixels.
    public var rect: Rect
    /// Rotation about the rectangle's centre, degrees clockwise. Default 0.
    public var rotation: Double
    public init(rect: Rect, rotation: Double = 0) throws {
        guard rect.isFinite, rect.width > 0, rect.height > 0, rotation.isFinite else {
            throw ValueError("slot \(rect) must have a finite positive size and rotation")
        }
        self.rect = rect; self.rotation = rotation
    }
}

/// A named slot of a template page.
public struct Slot: Hashable, Sendable {
    /// What a slot holds.
    public enum Kind: String, Hashable, Sendable, CaseIterable { case photo, image, text }
    /// Name, an id.
    public var name: String
    /// Kind. Default photo.
    public var kind: Kind
    /// Where it is.
    public var frame: SlotFrame
    public init(name: String, kind: Kind = .photo, frame: SlotFrame) throws {
        try Identifier.validate(name, what: "slot name")
        self.name = name; self.kind = kind; self.frame = frame
    }

    /// How a picture fills a slot.
    public enum Fit: String, Sendable, CaseIterable { case cover, contain }

    /// The placement that puts a `width`×`height` picture in the slot: centred, rotated with it,
    /// scaled to cover it (clipped by the caller) or to fit inside.
    public func placement(width: Double, height: Double, fit: Fit = .cover) throws -> Placement {
        let sx = frame.rect.width / width, sy = frame.rect.height / height
        return try Placement(center: frame.rect.center, scale: fit == .cover ? max(sx, sy) : min(sx, sy), rotation: frame.rotation)
    }
}
