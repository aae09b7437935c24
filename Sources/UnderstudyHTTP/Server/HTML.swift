/// The small HTML pages the server answers (the links in emails and text messages open them).
enum HTML {
    /// `&`, `<`, `>`, `"` and `'` as character references: anything an app or a user sent is shown as text.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }
}
