import UnderstudyHTTP

/// `understudy types` next to a `.luarc.json` someone already has: Understudy's settings are merged into it (lists
/// gain the names they lack, `runtime.builtin` gains the sandbox's libraries, scalars take Understudy's value), and
/// everything else in it is kept, in its order. A file that is not a JSON object (JSON with comments included) is
/// left alone: the merge refuses and says what to add.
enum LuarcMerge {
    /// A `.luarc.json` the merge cannot read.
    struct Refusal: Error {
        var reason: String
    }

    /// `existing` with `ours` merged in, pretty-printed with two spaces.
    static func merge(_ existing: String, with ours: String) throws(Refusal) -> String {
        let theirs: JSON
        do throws(JSONError) {
            theirs = try JSONParser.parse(existing)
        } catch {
            throw Refusal(reason: "it is not plain JSON (\(error.description)); comments are not read")
        }
        guard case .object(var members) = theirs else { throw Refusal(reason: "it is a JSON \(theirs.kindName), not an object") }
        guard case .object(let settings)? = try? JSONParser.parse(ours) else { return existing }
        for setting in settings where setting.key != "$schema" || !members.contains(where: { $0.key == "$schema" }) {
            let parts = setting.key.split(separator: ".", maxSplits: 1).map(String.init)
            if let index = members.firstIndex(where: { $0.key == setting.key }) {
                members[index].value = combine(members[index].value, setting.value)
            } else if parts.count == 2, let index = members.firstIndex(where: { $0.key == parts[0] }),
                case .object(var nested) = members[index].value {
                // The nested form (`"runtime": {"version": ...}`): merged where it is.
                if let inner = nested.firstIndex(where: { $0.key == parts[1] }) {
                    nested[inner].value = combine(nested[inner].value, setting.value)
                } else {
                    nested.append(JSON.Member(parts[1], setting.value))
                }
                members[index].value = .object(nested)
            } else {
                members.append(setting)
            }
        }
        return pretty(.object(members), indent: "") + "\n"
    }

    /// Theirs and ours together: a list gains our items it lacks, an object our members (ours win), else ours.
    static func combine(_ theirs: JSON, _ ours: JSON) -> JSON {
        switch (theirs, ours) {
        case (.array(let items), .array(let added)):
            return .array(items + added.filter { !items.contains($0) })
        case (.object(var members), .object(let added)):
            for member in added {
                if let index = members.firstIndex(where: { $0.key == member.key }) { members[index].value = member.value } else { members.append(member) }
            }
            return .object(members)
        default:
            return ours
        }
    }

    /// JSON as people write a config file: an object or a list of objects over several lines, short lists on one.
    static func pretty(_ value: JSON, indent: String) -> String {
        let inner = indent + "  "
        switch value {
        case .object(let members):
            if members.isEmpty { return "{}" }
            let lines = members.map { inner + JSONWriter.string(.string($0.key)) + ": " + pretty($0.value, indent: inner) }
            return "{\n" + lines.joined(separator: ",\n") + "\n" + indent + "}"
        case .array(let items):
            let flat = "[" + items.map { JSONWriter.string($0) }.joined(separator: ", ") + "]"
            if flat.count <= 80, !items.contains(where: { if case .object = $0 { return true } else { return false } }) { return flat }
            return "[\n" + items.map { inner + pretty($0, indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        default:
            return JSONWriter.string(value)
        }
    }
}
