/// Understudy's version, written once: `understudy --version`, `understudy.version` in Lua and the server read it.
public enum UnderstudyVersion {
    public static let current = "0.1.0"
}
