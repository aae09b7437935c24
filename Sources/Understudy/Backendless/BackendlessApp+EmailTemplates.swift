/// An email template the console defines (contract version 4): `subject`, `body` and `html` may hold `{var}` and
/// `{Users.column}` placeholders. The one named `Confirmation` builds every confirmation email.
package struct EmailTemplate: Sendable, Hashable, Presentable {
    package var name: String
    package var subject: String
    package var body: String
    package var html: String?

    package init(name: String, subject: String, body: String = "", html: String? = nil) {
        self.name = name
        self.subject = subject
        self.body = body
        self.html = html
    }

    /// `{ name, subject, body, html? }`
    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("name", name)
        writer.write("subject", subject)
        writer.write("body", body)
        if let html { writer.write("html", html) }
    }

    /// The name of the console's confirmation template.
    static let confirmation = "Confirmation"
}

/// Who an email template goes to: `to` (or, with `query`, the email of every record matching it), with `cc` and
/// `bcc` copied onto each email.
package struct EmailEnvelope: Sendable, Hashable {
    package var to: [String]?
    package var cc: [String]?
    package var bcc: [String]?
    package var query: String?
    package var uniqueEmails: Bool?

    package init(to: [String]? = nil, cc: [String]? = nil, bcc: [String]? = nil, query: String? = nil, uniqueEmails: Bool? = nil) {
        self.to = to
        self.cc = cc
        self.bcc = bcc
        self.query = query
        self.uniqueEmails = uniqueEmails
    }

    /// Reads the envelope's declared fields (`to`, `cc`, `bcc`, `query`, `unique_emails`).
    package init(fields: [String: Value]) {
        func strings(_ name: String) -> [String]? {
            switch fields[name] {
            case .array(let items)?: return items.compactMap(\.stringValue)
            case .object(let members)? where members.isEmpty: return []
            case .string(let text)?: return [text]
            default: return nil
            }
        }
        self.init(to: strings("to"), cc: strings("cc"), bcc: strings("bcc"), query: fields["query"]?.stringValue)
        if case .bool(let flag)? = fields["unique_emails"] { uniqueEmails = flag }
    }
}

/// What `email.send_template` answers: `{ messageId, status = "published", delivered = { address, ... } }`.
package struct TemplateSending: Sendable, Hashable, Presentable {
    package var messageID: String
    /// The addresses emailed, in byte order.
    package var delivered: [String]

    package func present<Writer: RecordWriter>(to writer: inout Writer) {
        writer.write("messageId", messageID)
        writer.write("status", literal: "published")
        writer.write("delivered", strings: delivered)
    }
}

/// Email templates (contract version 4): the console defines them; `email.send_template` sends one to a list of
/// addresses or to the users a where clause finds; the `Confirmation` template builds the confirmation email.
extension BackendlessApp {
    /// `email.templates.define{ name, subject, body?, html? }` (console): defines or replaces.
    package func defineEmailTemplate(_ template: EmailTemplate) {
        let replaced = emailTemplates.updateValue(template, forKey: template.name)
        consoleBytes += HeldBytes.of(template) - (replaced.map(HeldBytes.of) ?? 0)
    }

    /// Every template, sorted by name.
    package var allEmailTemplates: [EmailTemplate] {
        emailTemplates.values.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    /// `email.send_template(name, envelope, values?)`: one outbox email per recipient. Errors: 24002 no such
    /// template; 19000 / 1006 a bad `query`; 5048 no recipient; 5047 an address (recipient, cc or bcc) that is not
    /// an email. Only an operation's performer checks its fault, before this.
    package func sendTemplate(name: String, envelope: EmailEnvelope, values: [Property]?) throws(BackendlessError) -> TemplateSending {
        guard let template = emailTemplates[name] else {
            throw BackendlessError(code: 24002, message: "Email Template with name '\(name)' doesn't exist.")
        }
        var recipients: [String]
        if let query = envelope.query {
            let prepared = try prepare(DataQuery(whereClause: query))
            recipients = matches(prepared).sorted(by: order(prepared)).compactMap { user in
                guard case .string(let address)? = user.properties[named: "email"], !address.isEmpty else { return nil }
                return address
            }
        } else {
            recipients = envelope.to ?? []
        }
        if envelope.uniqueEmails == true {
            var seen = Set<String>()
            recipients = recipients.filter { seen.insert($0.lowercased()).inserted }
        }
        guard !recipients.isEmpty else {
            throw BackendlessError(code: 5048, message: "You must specify at least one recipient's email address")
        }
        for address in recipients + (envelope.cc ?? []) + (envelope.bcc ?? []) where !address.isEmailAddress {
            throw BackendlessError(code: 5047, message: "Invalid recipient: \(address)")
        }
        var custom: [String: String] = [:]
        for property in values ?? [] { custom[property.name] = Self.templateText(property.value) }
        func fills(for address: String) -> [String: String] {
            guard let user = userWithEmail(address) else { return custom }
            return custom.merging(userFills(user)) { custom, _ in custom }
        }
        // What the emails will hold, admitted before any is filled.
        var growth = 0
        for address in recipients {
            let fills = fills(for: address)
            growth = HeldBytes.sum(growth, HeldBytes.perRecord + HeldBytes.of(address))
            for text in [template.subject, template.body, template.html] {
                if let text { growth = HeldBytes.sum(growth, PushTemplate.filledBytes(text, with: fills)) }
            }
        }
        guard admitsGrowth(growth) else { throw .memoryCapReached(growth) }
        let id = nextMessageID()
        for address in recipients {
            let fills = fills(for: address)
            outbox.send(
                Outbox.Email(
                    to: address, subject: PushTemplate.fill(template.subject, with: fills), kind: .template,
                    body: PushTemplate.fill(template.body, with: fills), html: template.html.map { PushTemplate.fill($0, with: fills) },
                    sentAt: clock.now, template: name, cc: envelope.cc, bcc: envelope.bcc, messageID: id
                )
            )
        }
        recordPublishedMessage(id, subject: template.subject)
        return TemplateSending(messageID: id, delivered: recipients.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    /// The user whose `email` is `address` (without case).
    func userWithEmail(_ address: String) -> StoredUser? {
        if settings.identity == "email" {
            return identityKey(.string(address)).flatMap { identityIndex[$0] }
        }
        let wanted = address.lowercased()
        return registrationOrder.first { !$0.isDeleted && $0.properties[named: "email"]?.stringValue?.lowercased() == wanted }
    }

    /// `{Users.column}` → the user's value as text, for every column the user's record has.
    func userFills(_ user: StoredUser) -> [String: String] {
        var fills: [String: String] = [:]
        for field in record(user).fields where field.name != "___class" && field.value != .null {
            fills["Users." + field.name] = Self.templateText(field.value)
        }
        return fills
    }

    /// A value as a template shows it: whole numbers without a decimal point, booleans `true` / `false`.
    static func templateText(_ value: Value) -> String {
        switch value {
        case .string(let text): return text
        case .int(let number): return String(number)
        case .double(let number):
            if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
            return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return ""
        case .array, .object: return "\(value)"
        }
    }

    /// Refuses (8000, memory cap) a confirmation email to a user with `properties` that the `Confirmation`
    /// template could fill past what the app's owner admits (`admitsGrowth`), before anything is changed.
    func admitConfirmationEmail(to properties: [Property]) throws(BackendlessError) {
        guard let template = emailTemplates[EmailTemplate.confirmation] else { return }
        // The longest value a placeholder can take: a property's text, the link, the app id or identity name.
        var longest = 256 + linkBase.utf8.count + settings.appID.utf8.count + settings.identity.utf8.count
        for property in properties { longest = max(longest, 2 * HeldBytes.of(property.value)) }
        var growth = HeldBytes.perRecord
        for text in [template.subject, template.body, template.html] {
            if let text { growth = HeldBytes.sum(growth, PushTemplate.filledBytes(text, longest: longest)) }
        }
        guard admitsGrowth(growth) else { throw .memoryCapReached(growth) }
    }

    /// The confirmation email of `user`: version 1's, or the `Confirmation` template's subject and body filled.
    func confirmationEmail(to address: String, for user: StoredUser, link: String) -> Outbox.Email {
        guard let template = emailTemplates[EmailTemplate.confirmation] else {
            return Outbox.Email(to: address, subject: "Please confirm your email address", kind: .confirmation, link: link, sentAt: clock.now)
        }
        var fills = userFills(user)
        fills["confirmation_url"] = link
        fills["identity_name"] = settings.identity
        fills["identity_value"] = user.properties[named: settings.identity].map(Self.templateText) ?? ""
        fills["app_name"] = settings.appID
        return Outbox.Email(
            to: address, subject: PushTemplate.fill(template.subject, with: fills), kind: .confirmation, link: link,
            body: PushTemplate.fill(template.body, with: fills), html: template.html.map { PushTemplate.fill($0, with: fills) },
            sentAt: clock.now
        )
    }
}
