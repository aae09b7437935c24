package android.os;

import java.util.ArrayDeque;

/** Stand-in for Android's Parcel: bundles in, bundles out. */
public class Parcel {
    private final ArrayDeque<Bundle> bundles = new ArrayDeque<>();

    public void writeBundle(Bundle bundle) { bundles.add(bundle); }
    public Bundle readBundle() { return bundles.poll(); }
}
