internal import UnderstudyLua
/// JUnit XML as CI test reporters read it: a `testsuite` per file, a `testcase` per scenario, failures with
/// message and body, skipped scenarios, captured output and times.
package struct JUnitReporter: Sendable {
    package init() {}

    package func render(_ result: SuiteResult) -> String {
        var files: [String] = []
        var byFile: [String: [SuiteEvent]] = [:]
        for event in result.events {
            let file: String
            switch event {
            case .loadFailed(let error): file = error.file
            case .finished(let outcome): file = outcome.file
            }
            if byFile[file] == nil { files.append(file) }
            byFile[file, default: []].append(event)
        }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"understudy\" tests=\"\(result.events.count)\" failures=\"\(result.failed)\" "
        xml += "skipped=\"\(result.skipped)\" time=\(Self.attribute(Self.seconds(result.duration)))>\n"
        for file in files {
            let events = byFile[file] ?? []
            var failures = 0
            var skipped = 0
            var time = 0.0
            for event in events {
                switch event {
                case .loadFailed: failures += 1
                case .finished(let outcome):
                    if outcome.status == .failed { failures += 1 }
                    if outcome.status == .skipped { skipped += 1 }
                    time += outcome.duration
                }
            }
            xml += "  <testsuite name=\(Self.attribute(file)) tests=\"\(events.count)\" failures=\"\(failures)\" "
            xml += "errors=\"0\" skipped=\"\(skipped)\" time=\(Self.attribute(Self.seconds(time)))>\n"
            // The seed once per report (in the first suite): readers such as xunitparser gather the properties of
            // every suite into one table and refuse a name seen twice.
            if file == files.first { xml += "    <properties><property name=\"seed\" value=\"\(result.seed)\"/></properties>\n" }
            let className = Self.className(file)
            for event in events {
                switch event {
                case .loadFailed(let error):
                    xml += "    <testcase classname=\(Self.attribute(className)) name=\"(file did not load)\" file=\(Self.attribute(file)) time=\"0.000000\">\n"
                    xml += "      <failure message=\(Self.attribute(error.message)) type=\"LoadError\">\(Self.text(error.message + "\n" + (error.traceback ?? "")))</failure>\n"
                    xml += "    </testcase>\n"
                case .finished(let outcome):
                    xml += "    <testcase classname=\(Self.attribute(className)) name=\(Self.attribute(outcome.declaration.name)) "
                    xml += "file=\(Self.attribute(file)) line=\"\(outcome.declaration.line)\" time=\(Self.attribute(Self.seconds(outcome.duration)))"
                    if outcome.status == .passed && outcome.output.isEmpty {
                        xml += "/>\n"
                        continue
                    }
                    xml += ">\n"
                    switch outcome.status {
                    case .failed:
                        let location = outcome.location ?? "\(file):\(outcome.declaration.line)"
                        var body = (outcome.message ?? "failed") + "\nat " + location
                        if let traceback = outcome.traceback, !traceback.isEmpty { body += "\n" + traceback }
                        xml += "      <failure message=\(Self.attribute(outcome.message ?? "failed")) type=\"ScenarioFailure\">\(Self.text(body))</failure>\n"
                    case .skipped:
                        xml += "      <skipped message=\(Self.attribute(outcome.message ?? "skipped"))/>\n"
                    case .passed: break
                    }
                    if !outcome.output.isEmpty { xml += "      <system-out>\(Self.text(outcome.output))</system-out>\n" }
                    xml += "    </testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    /// Seconds as an `xs:decimal` with six decimals (`0.000040`, never `4e-05`).
    static func seconds(_ value: Double) -> String {
        guard value.isFinite, value > 0 else { return "0.000000" }
        let micros = (value * 1_000_000).rounded()
        guard micros < 9e15 else { return "9000000000.000000" }
        let total = Int64(micros)
        let fraction = String(total % 1_000_000)
        return "\(total / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// `scenarios/backendless/login.lua` → `scenarios.backendless.login`.
    static func className(_ file: String) -> String {
        var name = file
        if name.hasSuffix(".lua") { name.removeLast(4) }
        while name.hasPrefix("./") { name.removeFirst(2) }
        return name.replacingAll("/", with: ".")
    }

    /// Escapes text for XML. Characters XML 1.0 cannot carry (and the discouraged DEL and C1 controls) become
    /// visible `\u0001` escapes; a carriage return is kept as `&#13;`.
    static func text(_ value: String) -> String {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\r": result += "&#13;"
            case "\n", "\t": result.unicodeScalars.append(scalar)
            default:
                if TextEscaping.isControl(scalar) || (0xFFFE...0xFFFF).contains(scalar.value) {
                    result += TextEscaping.unicodeEscape(scalar)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// A quoted attribute value; line feeds and tabs as character references so parsers keep them.
    static func attribute(_ value: String) -> String {
        "\"" + text(value).replacingAll("\n", with: "&#10;").replacingAll("\t", with: "&#9;") + "\""
    }
}
