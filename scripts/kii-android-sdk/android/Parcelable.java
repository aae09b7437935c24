package android.os;

/** Stand-in for Android's Parcelable. */
public interface Parcelable {
    int describeContents();
    void writeToParcel(Parcel destination, int flags);

    interface Creator<T> {
        T createFromParcel(Parcel source);
        T[] newArray(int size);
    }
}
