"""Drives counter, todos and dice through their generated Python types (counter_types.py, …,
written by `python -m tca types FEATURE --lang python`), under mypy --strict too.

Prints the lines every language's driver prints (Tests/types/test_hosts.py compares them)."""

from __future__ import annotations

from typing import List

import tca

import counter_types as counter
import dice_types as dice
import todos_types as todos


def drive_counter() -> str:
    Action = counter.Action
    with tca.Store(counter.FEATURE) as store:
        store.send(Action.incrementButtonTapped())
        store.send(Action.incrementButtonTapped())
        store.send(Action.decrementButtonTapped())
        store.send(Action.numberFactResponse("1 is a number."))
        state: counter.State = store.state
        loading = str(state["isNumberFactLoading"]).lower()
        line = f'{state["count"]} "{state.get("numberFact")}" {loading}'
    snapshot: counter.State = {"count": 41, "numberFact": "x", "isNumberFactLoading": False}
    with tca.Store(counter.FEATURE, state=snapshot) as store:
        again: counter.State = store.state
        line += f' | snapshot {again["count"]} "{again.get("numberFact")}"'
    return "counter: " + line


def drive_todos() -> str:
    Action = todos.Action
    Element = todos.IdentifiedActionUUIDTodoAction
    Todo = todos.TodoAction
    parts: List[str] = []

    def show(state: todos.State) -> str:
        marked = (t["description"] + ("*" if t["isComplete"] else "") for t in state["todos"])
        return " ".join(marked)

    with tca.Store(todos.FEATURE, clock="manual", seed=1) as store:
        store.send(Action.addTodoButtonTapped())
        store.send(Action.addTodoButtonTapped())
        state: todos.State = store.state
        ids = [todo["id"] for todo in state["todos"]]
        store.send(Action.todos(Element.element(ids[0], Todo.textFieldChanged("eggs"))))
        store.send(Action.todos(Element.element(ids[1], Todo.textFieldChanged("milk"))))
        store.send(Action.todos(Element.element(ids[0], Todo.checkBoxToggled())))
        parts.append(show(store.state))
        store.advance(1000)
        parts.append(show(store.state))
        store.send(Action.move([1], 0))
        parts.append(show(store.state))
        store.advance(100)
        parts.append(show(store.state))
        store.send(Action.filterPicked("active"))
        state = store.state
        names = {todo["id"]: todo["description"] for todo in state["todos"]}
        parts.append("active " + " ".join(names[i] for i in state["filteredTodos"]))
    return "todos: " + " | ".join(parts)


def drive_dice() -> str:
    Action = dice.Action
    parts: List[str] = []
    with tca.Store(dice.FEATURE, clock="manual", seed=1) as store:
        store.send(Action.rollButtonTapped())
        store.advance(500)
        store.send(Action.view(dice.DiceActionViewAction.rollButtonTapped()))
        store.advance(500)
        state: dice.State = store.state
        parts.append(f"{state['currentRoll']} [{','.join(str(r) for r in state['rollHistory'])}]")
        store.send(Action.viewFullHistoryTapped())
        state = store.state
        destination = state["destination"]
        assert destination is not None
        history = destination["history"]
        parts.append(f"history {len(history['rolls'])} rolls, {len(history['entries'])} entries")
        store.send(
            Action.destination(
                dice.PresentationActionDiceDestinationAction.presented(
                    dice.DiceDestinationAction.history(
                        dice.DiceHistoryAction.closeButtonTapped()
                    )
                )
            )
        )
        state = store.state
        parts.append("closed" if state["destination"] is None else "open")
        store.send(Action.resetButtonTapped())
        state = store.state
        alert = state["alert"]
        assert alert is not None
        buttons = " ".join(
            f"{b['label']}:{b['role']}:{next(iter(b['action'])) if b['action'] else '-'}"
            for b in alert["buttons"]
        )
        parts.append(f'alert "{alert["message"]}" {buttons}')
        tapped = alert["buttons"][0]["action"]
        assert tapped is not None
        store.send(Action.alert(dice.PresentationActionDiceActionAlert.presented(tapped)))
        state = store.state
        alert_left = "none" if state["alert"] is None else "shown"
        parts.append(f"reset {len(state['rollHistory'])} rolls, alert {alert_left}")
    return "dice: " + " | ".join(parts)


if __name__ == "__main__":
    print(drive_counter())
    print(drive_todos())
    print(drive_dice())
