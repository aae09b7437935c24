import Testing
import Understudy

@Suite("Push registrations expire on the virtual clock")
struct DeviceExpirationScaleTests {
    @Test("100,000 devices on 1,000 channels: after each clock step exactly the live ones are listed and delivered to")
    func expirationAtScale() throws {
        let app = BackendlessApp(seed: 99)
        var generator = SeededGenerator(seed: 5)
        var expirations: [String: Double?] = [:]
        var channelOf: [String: String] = [:]
        let start = app.clock.now
        for index in 0..<100_000 {
            let device = "device-\(index)"
            let channel = "channel-\(index % 1000)"
            let expiration: Double? = index % 7 == 0 ? nil : start + Double(1 + generator.next() % 10_000)
            _ = try app.registerDevice(
                token: "token-\(index)", deviceID: device, os: .android, channels: [channel],
                expiration: expiration.map { Value.double($0) }
            )
            expirations[device] = expiration
            channelOf[device] = channel
        }
        for step in [1.0, 500, 2_000, 2_500, 5_000, 10_000] {
            app.moveClock(to: start + step)
            let now = app.clock.now
            let live = Set(expirations.filter { $0.value.map { $0 > now } ?? true }.keys)
            var listed = Set<String>()
            for channel in 0..<1000 { listed.formUnion(app.devices(onChannel: "channel-\(channel)")) }
            #expect(listed == live, "at +\(step) s")
            let probe = "channel-\(Int(step) % 1000)"
            let delivered = try app.publish(message: "hi", channel: probe)
            #expect(Set(delivered) == live.filter { channelOf[$0] == probe }, "publish at +\(step) s")
            #expect(app.device("device-1") == nil || live.contains("device-1"))
        }
    }
}
