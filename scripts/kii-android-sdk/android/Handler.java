package android.os;

/** Stand-in for Android's Handler: a message sent to it is handled at once, on the sending thread. */
public class Handler {
    private final Looper looper;

    public Handler() { this(Looper.getMainLooper()); }
    public Handler(Looper looper) { this.looper = looper; }

    public Looper getLooper() { return looper; }

    public Message obtainMessage() {
        Message message = new Message();
        message.target = this;
        return message;
    }

    public void handleMessage(Message message) {}
}
