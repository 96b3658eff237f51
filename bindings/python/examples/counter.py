"""The counter feature driven from Python."""

import tca

print("libtca", tca.version(), "features:", [f["name"] for f in tca.features()])

with tca.Store("counter") as store:
    print("state:", store.state)
    for _ in range(3):
        print("send: incrementButtonTapped")
        store.send("incrementButtonTapped")
    print("send: {'decrementButtonTapped': {}}")
    store.send({"decrementButtonTapped": {}})
    print("state:", store.state)
    try:
        print("send: jumpButtonTapped (not an action of the counter)")
        store.send("jumpButtonTapped")
    except tca.JSONShapeError as error:
        print("  ->", type(error).__name__ + ":", error)
    print("state:", store.state)
