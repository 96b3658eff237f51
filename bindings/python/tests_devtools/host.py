"""A Python host for the browser test: a counter store connected to $TCA_DEVTOOLS.

Its subscriber prints each state as one JSON line (what a GUI would redraw); it pumps the
inspector's commands until its standard input closes, then writes its session's journal to the
file named by its first argument.
"""

import json
import sys
import threading
import time

from tca.devtools.client import DevtoolsStore

store = DevtoolsStore("counter", clock="manual", seed=5)


@store.effect("numberFact.fetch")
def fetch(count):
    return f"{count} is a good number."


store.subscribe(lambda state: print(json.dumps(state, sort_keys=True), flush=True))
store.send("incrementButtonTapped")
store.send("incrementButtonTapped")
store.send("numberFactButtonTapped")
store.send("decrementButtonTapped")
print("ready", flush=True)

done = threading.Event()
threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
while not done.is_set():
    store.pump()
    time.sleep(0.02)
with open(sys.argv[1], "w", encoding="utf-8") as file:
    file.write(store.journal())
store.close()
