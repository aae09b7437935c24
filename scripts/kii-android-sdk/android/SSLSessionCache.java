package android.net;

/** Stand-in: no session cache. */
public class SSLSessionCache {
    public SSLSessionCache(Object context) {}
}
