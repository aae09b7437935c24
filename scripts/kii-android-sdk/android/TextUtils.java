package android.text;

/** Stand-in for Android's TextUtils: what the Kii Android SDK calls. */
public class TextUtils {
    public static boolean isEmpty(CharSequence text) {
        return text == null || text.length() == 0;
    }
}
