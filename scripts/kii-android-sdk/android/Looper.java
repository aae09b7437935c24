package android.os;

/** Stand-in for Android's Looper (the SDK's async calls post results to the main looper; the checks call synchronously). */
public class Looper {
    private static final Looper MAIN = new Looper();

    public static Looper getMainLooper() { return MAIN; }
}
