import Testing
import Understudy

/// Which field names the journal redacts: the byte search that replaced String.contains keeps the rule.
@Suite("Journal redaction: secret field names")
struct JournalRedactionNameTests {
    @Test("any field holding 'password' in any case, and 'confirm' alone in any case, is secret")
    func secretNames() {
        for name in ["password", "PASSWORD", "newPassword", "new_password", "oldPassWord1", "confirm", "Confirm", "CONFIRM",
                     "passwd", "client_secret", "accessTokenSecret", "accessToken", "access_token", "Access-Token",
                     "refresh_token", "id_token", "oauth_token"] {
            #expect(JournalRedaction.isSecret(name), "\(name)")
        }
        for name in ["", "pass", "passwor", "pass word", "confirmation", "confirmed", "reconfirm", "email", "passwörd",
                     "user-token", "token", "deviceToken", "tokens"] {
            #expect(!JournalRedaction.isSecret(name), "\(name)")
        }
    }
}
