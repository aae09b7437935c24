/// Everything a backend "sent": emails, text messages and push notifications, oldest first.
package struct Outbox: Sendable {
    /// An email the backend sent.
    package struct Email: Sendable, Hashable {
        /// Why the email was sent.
        package enum Kind: String, Sendable, Hashable, CaseIterable {
            /// Backendless: confirm the email address (the link confirms).
            case confirmation
            /// Kii: verify the email address (code and link).
            case verification
            /// Backendless: password recovery (a `link` to the change-password page, or a new `password`).
            case passwordRecovery = "password_recovery"
            /// Kii: a password reset was requested (the `link` resets it).
            case passwordReset = "password_reset"
            /// Kii: the reset link was opened and a new `password` generated.
            case passwordResetDone = "password_reset_done"
            /// Backendless: an email the app sent through the email API (`POST messaging/email`).
            case custom
            /// Backendless: an email made from an email template (`email.send_template`, contract version 4).
            case template
        }
        package var to: String
        package var subject: String
        package var kind: Kind
        package var code: String?
        package var link: String?
        /// A password the backend generated (password recovery by a temporary password, a completed Kii reset).
        package var password: String?
        /// A `custom` email's bodies: the text part and the HTML part, as the app sent them.
        package var body: String?
        package var html: String?
        /// Seconds on the virtual clock when it was sent.
        package var sentAt: Double
        /// A `template` email's template name, copies and message id (contract version 4).
        package var template: String?
        package var cc: [String]?
        package var bcc: [String]?
        package var messageID: String?

        package init(
            to: String, subject: String, kind: Kind, code: String? = nil, link: String? = nil, password: String? = nil,
            body: String? = nil, html: String? = nil, sentAt: Double, template: String? = nil, cc: [String]? = nil,
            bcc: [String]? = nil, messageID: String? = nil
        ) {
            self.template = template
            self.cc = cc
            self.bcc = bcc
            self.messageID = messageID
            self.to = to
            self.subject = subject
            self.kind = kind
            self.code = code
            self.link = link
            self.password = password
            self.body = body
            self.html = html
            self.sentAt = sentAt
        }
    }

    /// A text message the backend sent.
    package struct SMS: Sendable, Hashable {
        package var to: String
        package var body: String
        /// A verification code or a password-reset PIN (digits); nil for an SMS that carries only a link.
        package var code: String?
        /// A link (a Kii password-reset link by SMS).
        package var link: String?
        package var sentAt: Double
        /// What the code is for, which says which setting bounds its life; nil for a message without a code.
        package var codePurpose: CodePurpose?

        /// What an SMS code is for.
        package enum CodePurpose: Sendable, Hashable {
            /// Verifies a phone number: good for `sms_code_ttl` (Kii).
            case phoneVerification
            /// Completes a password reset: good for `sms_reset_pin_ttl` (Kii).
            case passwordResetPIN
        }

        package init(to: String, body: String, code: String? = nil, link: String? = nil, sentAt: Double, codePurpose: CodePurpose? = nil) {
            self.to = to
            self.body = body
            self.code = code
            self.link = link
            self.sentAt = sentAt
            self.codePurpose = codePurpose
        }
    }

    /// A push notification delivered to one device (Backendless) or one installation (Kii).
    package struct Push: Sendable, Hashable {
        /// Backendless: the device it went to.
        package var deviceID: String?
        /// Backendless: the channel it was published on.
        package var channel: String?
        /// Kii: the installation it went to.
        package var installationID: String?
        /// Kii: the user it was sent to.
        package var userID: String?
        package var message: String
        package var sentAt: Double
        /// Backendless: what every delivery of one firing shares (headers, message id, template), held once.
        package var publication: PushPublication?
        /// Kii: what every delivery of one topic message shares (topic, data, message id), held once (contract v3).
        package var topicMessage: KiiTopicPush? = nil
        /// Kii: the JSON an MQTT installation's client receives (contract v4); nil for other installations.
        package var payload: String? = nil

        package init(
            deviceID: String? = nil, channel: String? = nil, installationID: String? = nil, userID: String? = nil,
            message: String, sentAt: Double, publication: PushPublication? = nil
        ) {
            self.deviceID = deviceID
            self.channel = channel
            self.installationID = installationID
            self.userID = userID
            self.message = message
            self.sentAt = sentAt
            self.publication = publication
        }
    }

    package private(set) var emails: [Email] = []
    // The one recipient filter: `app.outbox.*(to)` in Lua, `GET /_understudy/outbox?to=` and the dashboard use it.
    package private(set) var sms: [SMS] = []
    package private(set) var pushes: [Push] = []

    /// What the records held hold (`HeldBytes`), kept as each is added: the memory cap counts it.
    package private(set) var heldBytes = 0

    package init() {}

    package mutating func send(_ email: Email) {
        heldBytes += HeldBytes.perRecord + HeldBytes.of(email.to) + HeldBytes.of(email.subject) + HeldBytes.of(email.link)
            + HeldBytes.of(email.body) + HeldBytes.of(email.html)
        emails.append(email)
    }
    package mutating func send(_ message: SMS) {
        heldBytes += HeldBytes.perRecord + HeldBytes.of(message.body) + HeldBytes.of(message.link)
        sms.append(message)
    }
    /// Adds a delivered push. Its message text and what the deliveries of one firing (Backendless) or one topic
    /// message (Kii) share count once: the push before it has the same publication or topic message.
    package mutating func deliver(_ push: Push) {
        heldBytes += HeldBytes.perRecord
        let last = pushes.last
        if let publication = push.publication, last?.publication === publication {
            // the same firing: its text and headers are held once
        } else if let shared = push.topicMessage, last?.topicMessage === shared {
            // the same topic message
        } else {
            heldBytes += HeldBytes.of(push.message) + HeldBytes.of(push.payload)
            if let publication = push.publication {
                heldBytes += HeldBytes.perRecord + publication.headers.reduce(0) { $0 + 32 + HeldBytes.of($1.name) + HeldBytes.of($1.value) }
            }
            if let shared = push.topicMessage { heldBytes += HeldBytes.perRecord + HeldBytes.of(shared.data) }
        }
        pushes.append(push)
    }

    /// Forgets everything sent so far.
    package mutating func clear() {
        emails.removeAll()
        sms.removeAll()
        pushes.removeAll()
        heldBytes = 0
    }
}

extension Outbox.Email {
    /// Whether it went to `recipient`: the address, in any case.
    package func isFor(_ recipient: String) -> Bool { to.lowercased() == recipient.lowercased() }
}

extension Outbox.SMS {
    /// Whether it went to `recipient`: the number as the outbox shows it (E.164).
    package func isFor(_ recipient: String) -> Bool { to == recipient }
}

extension Outbox.Push {
    /// Whether it went to `recipient`: the Backendless device id, the Kii installation id or the Kii user it was
    /// sent to.
    package func isFor(_ recipient: String) -> Bool {
        deviceID == recipient || installationID == recipient || userID == recipient
    }
}
