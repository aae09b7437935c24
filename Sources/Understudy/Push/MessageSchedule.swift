/// Every Backendless message an app has published, with its status, and the firings still to come in a queue
/// keyed on firing time (ties in publish order), so that a clock move delivers them in time order and only
/// the due ones are touched.
struct MessageSchedule {
    /// One published message: whom it aims at, what it carries, and where it stands.
    struct Message {
        var channel: String?
        var message: String
        var publication: PushPublication
        var broadcast: PushBroadcast?
        var singlecast: Set<String>?
        var deviceIDs: [String]?
        var policy: PushPolicy
        var status: MessageStatus
        /// The next firing time while `status` is `scheduled`.
        var nextFiring: Double?
        var repeatEvery: Double?
        var repeatExpiresAt: Double?
        /// Which queue entry is the live one (a cancelled message's entry stays in the heap, stale).
        var ticket: Int = 0

        /// After a firing at `time`: the next one, or `published` when none is left.
        mutating func fired(at time: Double) {
            if let every = repeatEvery, let expires = repeatExpiresAt, time + every <= expires {
                nextFiring = time + every
                status = .scheduled
            } else {
                nextFiring = nil
                status = .published
            }
        }
    }

    private struct Due {
        var time: Double
        var ticket: Int
        var messageID: String
    }

    private(set) var messages: [String: Message] = [:]
    private var queue = MinHeap<Due>(by: { $0.time < $1.time || ($0.time == $1.time && $0.ticket < $1.ticket) })
    private var tickets = 0

    /// How many messages are scheduled (with firings left).
    private(set) var scheduledCount = 0
    /// What the messages hold (`HeldBytes`), kept as each is added; they are kept once sent (for their status).
    private(set) var heldBytes = 0

    /// Adds a message; when it is `scheduled`, its next firing joins the queue.
    mutating func add(_ message: Message) {
        var message = message
        if messages[message.publication.messageID] == nil {
            heldBytes += HeldBytes.perRecord * 2 + HeldBytes.of(message.message) + HeldBytes.of(message.channel)
                + (message.deviceIDs?.reduce(0) { $0 + 16 + HeldBytes.of($1) } ?? 0)
                + (message.singlecast?.reduce(0) { $0 + 16 + HeldBytes.of($1) } ?? 0)
        }
        if message.status == .scheduled, let time = message.nextFiring {
            tickets += 1
            message.ticket = tickets
            queue.insert(Due(time: time, ticket: tickets, messageID: message.publication.messageID))
            scheduledCount += 1
        }
        messages[message.publication.messageID] = message
    }

    /// The earliest message due at or before `time`, with its firing time; stale entries are dropped on the way.
    mutating func nextDue(upTo time: Double) -> (id: String, time: Double)? {
        while let due = queue.min {
            guard let message = messages[due.messageID], message.status == .scheduled, message.ticket == due.ticket else {
                queue.removeMin()
                continue
            }
            return due.time <= time ? (due.messageID, due.time) : nil
        }
        return nil
    }

    /// Records the firing `nextDue` answered: the message's next firing joins the queue, or it is published.
    mutating func fired(_ id: String, at time: Double) {
        queue.removeMin()
        guard var message = messages[id] else { return }
        message.fired(at: time)
        if message.status == .scheduled, let next = message.nextFiring {
            tickets += 1
            message.ticket = tickets
            queue.insert(Due(time: next, ticket: tickets, messageID: id))
        } else {
            scheduledCount -= 1
        }
        messages[id] = message
    }

    /// Cancels a scheduled message: its remaining firings are dropped. False when there is no such message or it
    /// is not scheduled (already cancelled, or every firing delivered).
    mutating func cancel(_ id: String) -> Bool {
        guard var message = messages[id], message.status == .scheduled else { return false }
        message.status = .cancelled
        message.nextFiring = nil
        messages[id] = message
        scheduledCount -= 1
        return true
    }

    /// The scheduled messages, soonest first (for the dashboard).
    var scheduled: [(id: String, message: Message)] {
        messages.filter { $0.value.status == .scheduled }
            .map { (id: $0.key, message: $0.value) }
            .sorted { ($0.message.nextFiring ?? 0, $0.id) < ($1.message.nextFiring ?? 0, $1.id) }
    }
}
