"""The todos feature end to end from Python: add, edit, toggle (sorting one second after the last
toggle, on the manual clock), filter, move, delete, clear completed, snapshots."""

import pytest

import tca


def to_todo(todo_id, action):
    return {"todos": {"element": {"id": todo_id, "action": action}}}


def descriptions(todos):
    return [todo["description"] for todo in todos]


def shown(state):
    """The descriptions of the todos `filteredTodos` names (it holds their ids only)."""
    by_id = {todo["id"]: todo for todo in state["todos"]}
    return [by_id[todo_id]["description"] for todo_id in state["filteredTodos"]]


def test_a_todo_list():
    with tca.Store("todos", clock="manual", seed=7) as store:
        for _ in range(3):
            store.send("addTodoButtonTapped")
        eggs, bread, milk = (todo["id"] for todo in store.state["todos"])
        assert len({eggs, bread, milk}) == 3
        for todo_id, text in [(milk, "Milk"), (bread, "Bread"), (eggs, "Eggs")]:
            store.send(to_todo(todo_id, {"textFieldChanged": text}))
        assert descriptions(store.state["todos"]) == ["Eggs", "Bread", "Milk"]

        # Toggles restart the second: the sort comes one second after the last one.
        store.send(to_todo(eggs, "checkBoxToggled"))
        assert store.next_deadline() == 1000
        store.advance(500)
        store.send(to_todo(bread, "checkBoxToggled"))
        store.advance(999)
        assert descriptions(store.state["todos"]) == ["Eggs", "Bread", "Milk"]
        store.advance(1)
        assert descriptions(store.state["todos"]) == ["Milk", "Eggs", "Bread"]
        assert [todo["isComplete"] for todo in store.state["todos"]] == [False, True, True]

        store.send({"filterPicked": "completed"})
        assert shown(store.state) == ["Eggs", "Bread"]
        store.send({"move": {"from": [1], "to": 0}})
        assert shown(store.state) == ["Bread", "Eggs"]
        store.advance(100)
        assert descriptions(store.state["todos"]) == ["Milk", "Bread", "Eggs"]

        store.send({"delete": [1, 42]})
        assert shown(store.state) == ["Bread"]
        store.send({"filterPicked": "active"})
        assert shown(store.state) == ["Milk"]
        store.send("clearCompletedButtonTapped")
        assert store.state["todos"] == [{"id": milk, "description": "Milk", "isComplete": False}]

        with pytest.raises(tca.JSONShapeError, match="/todos/element/id"):
            store.send(to_todo("milk", "checkBoxToggled"))
        with pytest.raises(tca.JSONShapeError):
            store.send({"filterPicked": "done"})


def test_the_same_seed_gives_the_same_ids():
    def ids(seed):
        with tca.Store("todos", clock="manual", seed=seed) as store:
            store.send("addTodoButtonTapped")
            store.send("addTodoButtonTapped")
            return [todo["id"] for todo in store.state["todos"]]

    assert ids(3) == ids(3)
    assert ids(3) != ids(4)


def test_snapshots():
    snapshot = {
        "filter": "completed",
        "todos": [
            {"id": "00000000-0000-0000-0000-000000000001", "description": "Milk"},
            {"id": "00000000-0000-0000-0000-000000000002", "isComplete": True},
        ],
        "filteredTodos": "ignored",
    }
    with tca.Store("todos", state=snapshot) as store:
        assert store.state["filteredTodos"] == ["00000000-0000-0000-0000-000000000002"]
        assert tca.Store("todos", state=store.snapshot()).state == store.state
