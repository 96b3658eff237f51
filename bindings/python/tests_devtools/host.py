"""A Python host for the browser test: a counter store, made with $TCA_DEVTOOLS set, so the
library connects it to the inspector (docs/devtools.md, "Connecting a store").

Its subscriber prints each state as one JSON line (what a GUI would redraw); it polls the store
(each "frame") until its standard input closes, so that the inspector's dispatches and jumps are
applied on this thread, then writes the store's journal to the file named by its first argument.
"""

import json
import sys
import threading
import time

import tca

store = tca.Store("counter", clock="manual", seed=5)


@store.effect("numberFact.fetch")
def fetch(count):
    return f"{count} is a good number."


store.subscribe(lambda version: print(json.dumps(store.state, sort_keys=True), flush=True))
store.send("incrementButtonTapped")
store.send("incrementButtonTapped")
store.send("numberFactButtonTapped")
store.send("decrementButtonTapped")
print("ready", flush=True)

done = threading.Event()
threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
while not done.is_set():
    store.poll()
    time.sleep(0.02)
with open(sys.argv[1], "w", encoding="utf-8") as file:
    file.write(store.journal())
store.close()
