package android.net;

/** Stand-in: the JDK's default TLS socket factory for Apache HttpClient (the checks use plain HTTP). */
public class SSLCertificateSocketFactory {
    public static org.apache.http.conn.ssl.SSLSocketFactory getHttpSocketFactory(int timeout, SSLSessionCache cache) {
        return org.apache.http.conn.ssl.SSLSocketFactory.getSocketFactory();
    }
}
