/// Publishing (contract version 3): targeted, scheduled and repeated messages, their status and cancellation,
/// push templates, and the email API. Recipients are resolved at each firing; a firing due while the clock moves
/// is delivered at its own time (`moveClock`).
extension BackendlessApp {
    /// `push.publish`: publishes a message to a channel's devices, now or at `publishAt`, once or repeatedly.
    /// Checks, in order: fault, 5030 (a `publishAt` not later than now), 5003 (a repeat setting that is not a whole
    /// number ≥ 1, or an expiration missing or not later than the first firing, or given without `repeatEvery`).
    package func publish(_ request: PushRequest) throws(BackendlessError) -> PublishResult {
        try checkFaults(.publish, [request.faultArguments])
        let now = clock.now
        if let at = request.publishAt, !(at > now) || !VirtualClock.accepts(at) { throw .invalidPublishDate }
        let first = request.publishAt ?? now
        if let every = request.repeatEvery {
            guard every >= 1, every.rounded(.down) == every, every <= VirtualClock.limit,
                let expires = request.repeatExpiresAt, expires > first, VirtualClock.accepts(expires)
            else { throw .invalidExpirationDate }
        } else if request.repeatExpiresAt != nil {
            throw .invalidExpirationDate
        }
        var channel = request.channel
        if request.deviceIDs == nil {
            let name = channel ?? DeviceRegistry.defaultChannel
            devices.createChannel(name)
            channel = name
        }
        let publication = PushPublication(messageID: nextMessageID(), headers: request.headers)
        var message = MessageSchedule.Message(
            channel: channel, message: request.message, publication: publication, broadcast: request.broadcast,
            singlecast: request.singlecast.map(Set.init), deviceIDs: request.deviceIDs, policy: request.policy,
            status: .scheduled, nextFiring: first, repeatEvery: request.repeatEvery,
            repeatExpiresAt: request.repeatExpiresAt
        )
        // What the message keeps, and a push per device it can reach now, admitted before anything is kept.
        let reached = request.publishAt != nil ? 0 : request.deviceIDs?.count ?? devices.memberCount(of: channel ?? DeviceRegistry.defaultChannel)
        let growth = HeldBytes.sum(HeldBytes.of(request.message), (reached + 2) * HeldBytes.perRecord)
        guard admitsGrowth(growth) else { throw .memoryCapReached(growth) }
        var delivered: [String] = []
        if request.publishAt == nil {
            delivered = deliver(message, at: now)
            message.fired(at: now)
        }
        schedule.add(message)
        return PublishResult(messageID: publication.messageID, status: message.status, delivered: delivered)
    }

    /// `push.message_status`: where a message stands; `unknown` for an id never issued.
    package func messageStatus(_ messageID: String) throws(BackendlessError) -> MessageStatusReport {
        return MessageStatusReport(messageID: messageID, status: schedule.messages[messageID]?.status ?? .unknown)
    }

    /// `push.cancel`: drops a scheduled message's remaining firings (5040 when there is no such message, it was
    /// cancelled already, or every firing has been delivered).
    package func cancelMessage(_ messageID: String) throws(BackendlessError) {
        guard schedule.cancel(messageID) else { throw .cannotCancelMessage }
    }

    /// The console's cancel (the dashboard): like `push.cancel` but no fault applies. False when the message is
    /// not scheduled.
    package func cancelFromConsole(_ messageID: String) -> Bool {
        schedule.cancel(messageID)
    }

    /// Every scheduled message, soonest first: its id, channel, message and next firing (for the dashboard).
    package var scheduledMessages: [(messageID: String, channel: String?, message: String, nextFiring: Double, repeatEvery: Double?)] {
        schedule.scheduled.map { ($0.id, $0.message.channel, $0.message.message, $0.message.nextFiring ?? 0, $0.message.repeatEvery) }
    }

    /// How many messages the app remembers (each keeps its status).
    package var messageCount: Int { schedule.messages.count }

    // MARK: Templates

    /// `push.templates.define` (console): defines or replaces a template.
    package func definePushTemplate(_ template: PushTemplate) {
        let replaced = pushTemplates.updateValue(template, forKey: template.name)
        consoleBytes += HeldBytes.of(template) - (replaced.map(HeldBytes.of) ?? 0)
    }

    /// `push.templates`: the templates listed for an os (every one for `ALL` or nil), sorted by name.
    package func listPushTemplates(os: String?) throws(BackendlessError) -> [PushTemplate] {
        return pushTemplates.values.filter { $0.isListed(for: os) }.sorted { $0.name < $1.name }
    }

    /// `push.with_template`: publishes a template's message now to its channel, limited to its os, with every
    /// `{var}` filled from `values` (24002 for an unknown name).
    package func pushWithTemplate(_ name: String, values: [String: String]) throws(BackendlessError) -> PublishResult {
        try checkFaults(.pushWithTemplate, [.string(name), .object(values.mapValues(Value.string))])
        guard let template = pushTemplates[name] else { throw .unknownPushTemplate(name) }
        // The filled text and a push for each device on the channel, admitted before anything is filled.
        let recipients = devices.memberCount(of: template.channel)
        let growth = HeldBytes.sum(template.filledBytes(with: values), (recipients + 2) * HeldBytes.perRecord)
        guard admitsGrowth(growth) else { throw .memoryCapReached(growth) }
        let headers = (template.headers ?? []).map { (name: $0.name, value: PushTemplate.fill($0.value, with: values)) }
        let publication = PushPublication(
            messageID: nextMessageID(), headers: headers, template: name,
            title: template.title.map { PushTemplate.fill($0, with: values) },
            subtitle: template.subtitle.map { PushTemplate.fill($0, with: values) }
        )
        devices.createChannel(template.channel)
        var message = MessageSchedule.Message(
            channel: template.channel, message: PushTemplate.fill(template.message, with: values), publication: publication,
            broadcast: template.os.broadcast, singlecast: nil, deviceIDs: nil, policy: .both, status: .scheduled,
            nextFiring: clock.now, repeatEvery: nil, repeatExpiresAt: nil
        )
        let delivered = deliver(message, at: clock.now)
        message.fired(at: clock.now)
        schedule.add(message)
        return PublishResult(messageID: publication.messageID, status: message.status, delivered: delivered)
    }

    /// Every template, sorted by name (for the dashboard).
    package var allPushTemplates: [PushTemplate] { pushTemplates.values.sorted { $0.name < $1.name } }

    // MARK: Email

    /// The email API (`POST messaging/email`): one `custom` email per recipient in the outbox. Answers the
    /// message id (its status is `published`).
    package func sendEmail(subject: String, text: String?, html: String?, to recipients: [String]) throws(BackendlessError) -> String {
        try checkFaults(.sendEmail, [
            .string(subject),
            .object(["textmessage": text.map(Value.string) ?? .null, "htmlmessage": html.map(Value.string) ?? .null]),
            .array(recipients.map(Value.string)),
        ])
        for address in recipients {
            outbox.send(Outbox.Email(to: address, subject: subject, kind: .custom, body: text, html: html, sentAt: clock.now))
        }
        let id = nextMessageID()
        recordPublishedMessage(id, subject: subject)
        return id
    }

    /// Keeps a sent email's message id so that `push.status` (`GET messaging/{messageId}`) says `published`.
    func recordPublishedMessage(_ id: String, subject: String) {
        schedule.add(
            MessageSchedule.Message(
                channel: nil, message: subject, publication: PushPublication(messageID: id, headers: []), broadcast: nil,
                singlecast: nil, deviceIDs: nil, policy: .pubsub, status: .published, nextFiring: nil, repeatEvery: nil,
                repeatExpiresAt: nil
            )
        )
    }

    // MARK: The clock

    /// Moves the clock, delivering every firing due on the way in time order, each at its own time (the clock
    /// shows that time while it is delivered, so registrations expired by then receive nothing).
    @discardableResult
    package func moveClock(to seconds: Double, allow: (_ pushes: Int) -> Bool) throws(ClockMoveStopped) -> Double? {
        guard VirtualClock.accepts(seconds) else { return nil }
        while let due = schedule.nextDue(upTo: seconds), let message = schedule.messages[due.id] {
            let recipients = recipients(of: message, at: due.time)
            guard allow(recipients.count) else { throw ClockMoveStopped(time: clock.now) }
            if due.time > clock.now { clock.set(to: due.time) }
            let sentAt = due.time
            for id in recipients {
                outbox.deliver(
                    Outbox.Push(deviceID: id, channel: message.channel, message: message.message, sentAt: sentAt,
                                publication: message.publication)
                )
            }
            schedule.fired(due.id, at: due.time)
        }
        return clock.set(to: seconds)
    }

    package func canMoveClock(to seconds: Double, allow: (_ pushes: Int) -> Bool) -> Bool {
        guard VirtualClock.accepts(seconds) else { return true }
        var plan = schedule  // a value: the walk fires nothing in the app's own schedule
        // Finding a firing's recipients drops the registrations expired by then; a walk that looks ahead must not
        // drop them before the real move delivers the earlier firings they were live for.
        let registrations = devices
        defer { devices = registrations }
        while let due = plan.nextDue(upTo: seconds), let message = plan.messages[due.id] {
            guard allow(recipients(of: message, at: due.time).count) else { return false }
            plan.fired(due.id, at: due.time)
        }
        return true
    }

    // MARK: Delivery

    func nextMessageID() -> String {
        "message:" + messageIDs.nextIdentifier().formatted()
    }

    /// Delivers one firing of `message` at `time`: an outbox push per recipient. Answers the recipients.
    private func deliver(_ message: MessageSchedule.Message, at time: Double) -> [String] {
        let recipients = recipients(of: message, at: time)
        for id in recipients {
            outbox.deliver(
                Outbox.Push(deviceID: id, channel: message.channel, message: message.message, sentAt: time,
                            publication: message.publication)
            )
        }
        return recipients
    }

    /// The devices a firing at `time` reaches, sorted: those registered then (not expired), on the message's
    /// channel, of a `broadcast` os or listed in `singlecast` when either is given. A `PUBSUB` message reaches none.
    private func recipients(of message: MessageSchedule.Message, at time: Double) -> [String] {
        guard message.policy != .pubsub else { return [] }
        if let deviceIDs = message.deviceIDs {
            var live = Set<String>()
            for id in deviceIDs where devices.registration(of: id, now: time) != nil { live.insert(id) }
            return live.sorted()
        }
        let onChannel = devices.devices(on: message.channel ?? DeviceRegistry.defaultChannel, now: time)
        if message.broadcast == nil, message.singlecast == nil { return onChannel }
        return onChannel.filter { id in
            if message.singlecast?.contains(id) == true { return true }
            guard let broadcast = message.broadcast, let os = devices.registration(of: id, now: time)?.os else { return false }
            return broadcast.includes(os)
        }
    }
}

extension BackendlessError {
    /// 5030: a `publishAt` not later than now.
    static let invalidPublishDate = BackendlessError(code: 5030, message: "Invalid publish date")
    /// 5003: a bad repeat setting.
    static let invalidExpirationDate = BackendlessError(code: 5003, message: "Invalid expiration date")
    /// 5040: cancelling a message that is not scheduled.
    static let cannotCancelMessage = BackendlessError(
        code: 5040, message: "Can't cancel message. Already cancelled or there is no such message"
    )
    /// 24002: an unknown push template.
    static func unknownPushTemplate(_ name: String) -> BackendlessError {
        BackendlessError(code: 24002, message: "Push Template with name '\(name)' doesn't exist.")
    }

    /// The catalogue messages of the scheduled-push codes, for a fault that names only the code.
    static func scheduledPushMessage(for code: Int) -> String? {
        switch code {
        case 5003: return invalidExpirationDate.message
        case 5030: return invalidPublishDate.message
        case 5040: return cannotCancelMessage.message
        case 24002: return unknownPushTemplate("injected fault").message
        default: return nil
        }
    }
}

extension BackendlessError {
    /// The catalogue's entries for the codes of contract version 3's pushes (`understudy explain`, `--codes`).
    static let scheduledPushEntries: [ErrorCatalogue.Entry] = [
        entry(invalidExpirationDate,
              when: "push.publish with repeat_every but no repeat_expires_at, or one not later than the first firing; over HTTP also a repeatEvery that is not a whole number ≥ 1, or repeatExpiresAt without repeatEvery",
              [.publish]),
        entry(invalidPublishDate, when: "push.publish with a publish_at not later than app.clock.now() (checked before 5003)", [.publish]),
        entry(cannotCancelMessage,
              when: "push.cancel of an unknown messageId, of a cancelled message, or of one whose every firing was delivered",
              [.cancelMessage]),
        entry(unknownPushTemplate("%s"),
              when: "push.with_template with a name no template has; email.send_template answers it with `Email Template with name '%s' doesn't exist.`",
              [.pushWithTemplate, .sendTemplate]),
    ]

    private static func entry(
        _ error: BackendlessError, when: String, _ operations: [BackendlessOperation]
    ) -> ErrorCatalogue.Entry {
        ErrorCatalogue.Entry(
            .backendless, String(error.code), status: error.httpStatus, message: error.message, when: when,
            operations: operations.map(\.rawValue), version: 3
        )
    }
}
