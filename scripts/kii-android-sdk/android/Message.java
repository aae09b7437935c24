package android.os;

/** Stand-in for Android's Message. */
public class Message {
    public int what;
    public Object obj;
    Handler target;

    static Message obtain(Handler handler, int what, Object obj) {
        Message message = new Message();
        message.target = handler;
        message.what = what;
        message.obj = obj;
        return message;
    }

    public void sendToTarget() {
        if (target != null) target.handleMessage(this);
    }
}
