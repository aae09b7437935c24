public import HTTPTypes
internal import Understudy

/// The control API under `/_understudy/`.
public enum ControlRoutes {
    static let prefix = "_understudy"
    /// The header that carries the control token.
    public static let tokenHeader = HTTPField.Name("X-Understudy-Token")!

    static func register(in table: inout RouteTable<RouteHandler>) {}
}
