package android.os;

import java.util.HashMap;
import java.util.Map;

/** Stand-in for Android's Bundle: a map, with the accessors the Kii Android SDK calls. */
public class Bundle {
    private final Map<String, Object> values = new HashMap<>();

    public Bundle() {}
    public Bundle(Bundle other) { values.putAll(other.values); }

    public boolean containsKey(String key) { return values.containsKey(key); }
    public boolean isEmpty() { return values.isEmpty(); }
    public void remove(String key) { values.remove(key); }
    public void putString(String key, String value) { values.put(key, value); }
    public String getString(String key) { Object v = values.get(key); return v instanceof String ? (String) v : null; }
    public void putBundle(String key, Bundle value) { values.put(key, value); }
    public Bundle getBundle(String key) { Object v = values.get(key); return v instanceof Bundle ? (Bundle) v : null; }
    public void putLong(String key, long value) { values.put(key, value); }
    public long getLong(String key) { Object v = values.get(key); return v instanceof Long ? (Long) v : 0L; }
    public void putInt(String key, int value) { values.put(key, value); }
    public int getInt(String key) { Object v = values.get(key); return v instanceof Integer ? (Integer) v : 0; }
    public void putDouble(String key, double value) { values.put(key, value); }
    public double getDouble(String key) { Object v = values.get(key); return v instanceof Double ? (Double) v : 0.0; }
    public void putBoolean(String key, boolean value) { values.put(key, value); }
    public boolean getBoolean(String key) { Object v = values.get(key); return v instanceof Boolean && (Boolean) v; }
    public void putParcelable(String key, Parcelable value) { values.put(key, value); }
    @SuppressWarnings("unchecked")
    public <T extends Parcelable> T getParcelable(String key) { return (T) values.get(key); }
    @Override public String toString() { return "Bundle" + values; }
}
