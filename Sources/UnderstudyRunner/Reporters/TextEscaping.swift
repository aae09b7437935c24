/// Makes text from scenarios (messages, names, `print` output) safe for reports: characters a terminal or a
/// format would act on become visible escapes.
package enum TextEscaping {
    /// C0 and C1 control characters, DEL, and the Unicode line and paragraph separators.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    /// `\u001B` for U+001B.
    static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// `\xNN` for a scalar below U+0100.
    static func byteEscape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "\\x" + (hex.count < 2 ? "0" : "") + hex
    }

    /// Control characters as `\r` or `\u001B`; line feeds and tabs kept (for a terminal).
    package static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) && $0 != "\n" && $0 != "\t" }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n", "\t": result.unicodeScalars.append(scalar)
            case "\r": result += "\\r"
            default:
                if isControl(scalar) { result += unicodeEscape(scalar) } else { result.unicodeScalars.append(scalar) }
            }
        }
        return result
    }

    /// Like `visible`, but on one line: line feeds and tabs escaped too (for names and paths).
    package static func inline(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if isControl(scalar) { result += unicodeEscape(scalar) } else { result.unicodeScalars.append(scalar) }
            }
        }
        return result
    }

    /// A YAML double-quoted scalar that YAML 1.1/1.2 parsers and Perl's TAP YAMLish reader all read back:
    /// `\\`, `\"`, `\n`, `\t`, `\r`, `\xNN` for other ASCII controls, `\uNNNN` for C1 controls, the line
    /// separators and U+FFFE/U+FFFF; other UTF-8 as is.
    static func yamlQuoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += byteEscape(scalar)
                } else if isControl(scalar) || scalar.value == 0xFEFF || (0xFFFE...0xFFFF).contains(scalar.value) {
                    result += unicodeEscape(scalar)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
