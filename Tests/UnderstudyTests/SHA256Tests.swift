import Testing
import Understudy

/// The password hash's SHA-256 against FIPS 180-4's examples and lengths around the padding's block edges.
@Suite("SHA-256")
struct SHA256Tests {
    private func hex(_ text: String) -> String {
        Array(text.utf8).withUnsafeBytes { bytes in
            SHA256.digest(of: bytes) { digest in
                digest.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
            }
        }
    }

    @Test("the standard's examples and messages that end at, before and after a block's edge")
    func knownDigests() {
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hex(String(repeating: "a", count: 55)) == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        #expect(hex(String(repeating: "a", count: 56)) == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        #expect(hex(String(repeating: "a", count: 64)) == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
        #expect(hex(String(repeating: "a", count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }
}
