package android.os;

/** Stand-in for Android's Build: a device on API level 33. */
public class Build {
    public static final String MODEL = "understudy";
    public static final String MANUFACTURER = "understudy";

    public static class VERSION {
        public static final int SDK_INT = 33;
        public static final String RELEASE = "13";
    }
}
