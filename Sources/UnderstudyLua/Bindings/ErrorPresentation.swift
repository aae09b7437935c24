internal import Understudy

extension BackendlessError: LuaPresentable {
    /// `3033 "User already exists."`
    var summary: String { "\(code) \(LuaErrorText.quoted(message))" }

    /// `{ code = 3033, message = "..." }`, the fields `present` writes.
    func push(to L: OpaquePointer) { LuaRecordWriter.push(L, self, capacity: 2) }
}

extension KiiError: LuaPresentable {
    /// `409 USER_ALREADY_EXISTS "..."`
    var summary: String { "\(status) \(code) \(LuaErrorText.quoted(message))" }

    /// `{ status = 409, code = "USER_ALREADY_EXISTS", message = "...", field = "loginName", value = "..." }`, the
    /// fields `present` writes.
    func push(to L: OpaquePointer) { LuaRecordWriter.push(L, self, capacity: 5) }
}

/// Error text as failure messages quote it.
enum LuaErrorText {
    static func quoted(_ text: String) -> String {
        var out = "\""
        for (offset, character) in text.enumerated() {
            if offset == 200 { out += "…"; break }
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out + "\""
    }
}
