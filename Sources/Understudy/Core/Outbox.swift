/// Everything a backend "sent": emails, text messages and push notifications, oldest first.
public struct Outbox: Sendable {
    /// An email the backend sent.
    public struct Email: Sendable, Hashable {
        /// Why the email was sent.
        public enum Kind: String, Sendable, Hashable {
            case confirmation
            case verification
        }
        public var to: String
        public var subject: String
        public var kind: Kind
        public var code: String?
        public var link: String?
        /// Seconds on the virtual clock when it was sent.
        public var sentAt: Double
    }

    /// A text message the backend sent.
    public struct SMS: Sendable, Hashable {
        public var to: String
        public var body: String
        public var code: String
        public var sentAt: Double
    }

    /// A push notification delivered to one device.
    public struct Push: Sendable, Hashable {
        public var deviceID: String
        public var channel: String?
        public var message: String
        public var sentAt: Double
    }

    public private(set) var emails: [Email] = []
    public private(set) var sms: [SMS] = []
    public private(set) var pushes: [Push] = []

    public init() {}

    public mutating func send(_ email: Email) { emails.append(email) }
    public mutating func send(_ message: SMS) { sms.append(message) }
    public mutating func deliver(_ push: Push) { pushes.append(push) }

    /// Forgets everything sent so far.
    public mutating func clear() {
        emails.removeAll()
        sms.removeAll()
        pushes.removeAll()
    }
}
