internal import Understudy
internal import UnderstudyLua

/// The control route that writes the world down: a Lua setup script that `understudy serve --setup FILE` (or a
/// scenario) runs to get the same world back.
extension ControlRoutes {
    /// `GET /_understudy/export[?app=ID]` → `text/x-lua`: `understudy.import{...}` holding every app (or the one
    /// named) with its settings, clock, generators and records; password hashes, never passwords
    /// (`WorldExport`). The same world always gives the same bytes.
    static let export = ControlRequest.handler(query: ["app"]) { request throws(ControlRefusal) in
        var reply = Reply.text(WorldExport.script(try request.selectedApps()), contentType: WorldExport.contentType)
        reply.headers.append(("Content-Disposition", #"inline; filename="understudy-world.lua""#))
        return reply
    }
}
