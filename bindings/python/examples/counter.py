"""The counter feature driven from Python: actions, state, a host request, errors."""

import tca

print("libtca", tca.version(), "features:", [f["name"] for f in tca.features()])

with tca.Store("counter") as store:

    @store.effect("numberFact.fetch")
    def fetch(count):
        # The host performs the request; a real one would ask numbersapi.com.
        return f"{count} is {'even' if count % 2 == 0 else 'odd'}, and {count} squared is {count ** 2}."

    store.subscribe(lambda version: print(f"  (state version {version})"))
    print("state:", store.state)
    for _ in range(3):
        print("send: incrementButtonTapped")
        store.send("incrementButtonTapped")
    print("send: {'decrementButtonTapped': {}}")
    store.send({"decrementButtonTapped": {}})
    print("send: numberFactButtonTapped")
    store.send("numberFactButtonTapped")
    print("state:", store.state)
    print("count via JSON Pointer:", store.get("/count"))
    try:
        print("send: jumpButtonTapped (not an action of the counter)")
        store.send("jumpButtonTapped")
    except tca.JSONShapeError as error:
        print("  ->", type(error).__name__ + ":", error)
    print("state:", store.state)
