#!/usr/bin/env python3
"""paho-mqtt as an app would use it with a Kii MQTT endpoint. Usage: paho_subscribe.py tcp|ws PORT CLIENT_ID
USERNAME PASSWORD TOPIC. Prints "subscribed <granted qos>", "message <payload>" per message, "error <reason>"."""
import sys
import paho.mqtt.client as mqtt

transport, port, client_id, username, password, topic = sys.argv[1:7]
client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311,
                     transport="websockets" if transport == "ws" else "tcp")
if transport == "ws":
    client.ws_set_options(path="/mqtt")
client.username_pw_set(username, password)


def on_connect(client, userdata, flags, reason_code, properties):
    if reason_code.is_failure:
        print(f"error refused: {reason_code}", flush=True)
        client.disconnect()
        sys.exit(1)
    client.subscribe(topic, qos=1)


def on_subscribe(client, userdata, mid, reason_codes, properties):
    print("subscribed " + ",".join(str(code.value) for code in reason_codes), flush=True)


def on_message(client, userdata, message):
    print("message " + message.payload.decode("utf-8"), flush=True)


client.on_connect = on_connect
client.on_subscribe = on_subscribe
client.on_message = on_message
client.connect("127.0.0.1", int(port), keepalive=30)
try:
    client.loop_forever()
except SystemExit:
    raise
