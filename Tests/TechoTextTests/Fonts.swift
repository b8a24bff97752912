// Fonts the tests load by file path, from the Debian packages the setup script installs
// (fonts-dejavu-core, fonts-noto-cjk, fonts-noto-color-emoji, fonts-noto-core).
import Foundation

enum TestFonts {
    static let dejaVuSans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let notoSansCJK = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
    static let notoColorEmoji = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"

    static func exists(_ p: String) -> Bool { FileManager.default.fileExists(atPath: p) }
    static var allInstalled: Bool { [dejaVuSans, notoSansCJK, notoColorEmoji].allSatisfy(exists) }
}
