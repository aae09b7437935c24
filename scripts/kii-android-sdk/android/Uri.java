package android.net;

import java.util.ArrayList;
import java.util.List;

/** Stand-in for Android's Uri over java.net.URI: what the Kii Android SDK calls. */
public class Uri {
    private final String text;
    private final java.net.URI uri;

    private Uri(String text) {
        this.text = text;
        java.net.URI parsed;
        try {
            parsed = new java.net.URI(text);
        } catch (java.net.URISyntaxException e) {
            parsed = null;
        }
        this.uri = parsed;
    }

    public static Uri parse(String text) {
        return new Uri(text);
    }

    public String getScheme() { return uri == null ? null : uri.getScheme(); }
    public String getHost() { return uri == null ? null : uri.getHost(); }
    public String getAuthority() { return uri == null ? null : uri.getAuthority(); }

    public List<String> getPathSegments() {
        List<String> segments = new ArrayList<>();
        String path = uri == null ? null : uri.getPath();
        if (path != null) for (String segment : path.split("/")) if (!segment.isEmpty()) segments.add(segment);
        return segments;
    }

    public String getLastPathSegment() {
        List<String> segments = getPathSegments();
        return segments.isEmpty() ? null : segments.get(segments.size() - 1);
    }

    @Override public String toString() { return text; }
    @Override public boolean equals(Object other) { return other instanceof Uri && ((Uri) other).text.equals(text); }
    @Override public int hashCode() { return text.hashCode(); }
}
