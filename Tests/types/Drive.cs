// Drives counter, todos and dice through their generated C# types (Counter.cs, …, written by
// `python -m tca types FEATURE --lang csharp`) and the C# binding. Prints the lines every
// language's driver prints (Tests/types/test_hosts.py compares them).
using System.Collections.Generic;
using System.Linq;
using Counter;
using Dice;
using Todos;

static class Drive
{
    static string DriveCounter()
    {
        string line;
        using (var store = new Tca.Store(Counter.Feature.Name))
        {
            store.Send(Counter.Action.IncrementButtonTapped());
            store.Send(Counter.Action.IncrementButtonTapped());
            store.Send(Counter.Action.DecrementButtonTapped());
            store.Send(Counter.Action.NumberFactResponse("1 is a number."));
            Counter.State state = Counter.State.Read(store);
            line = state.Count + " \"" + state.NumberFact + "\" " +
                (state.IsNumberFactLoading ? "true" : "false");
        }
        var snapshot = new Counter.State { Count = 41, NumberFact = "x" };
        using (var store = new Tca.Store(Counter.Feature.Name, null, snapshot.ToJson()))
        {
            Counter.State read = Counter.State.Read(store);
            line += " | snapshot " + read.Count + " \"" + read.NumberFact + "\"";
        }
        return "counter: " + line;
    }

    static string Show(Todos.State state)
    {
        return string.Join(" ",
            state.Todos.Select(t => t.Description + (t.IsComplete ? "*" : "")));
    }

    static string DriveTodos()
    {
        var parts = new List<string>();
        var options = new Tca.Options { ManualClock = true, Seed = 1 };
        using (var store = new Tca.Store(Todos.Feature.Name, options))
        {
            store.Send(Todos.Action.AddTodoButtonTapped());
            store.Send(Todos.Action.AddTodoButtonTapped());
            var ids = Todos.State.Read(store).Todos.Select(t => t.Id).ToList();
            store.Send(Todos.Action.Todos(IdentifiedActionUUIDTodoAction.Element(
                ids[0], TodoAction.TextFieldChanged("eggs"))));
            store.Send(Todos.Action.Todos(IdentifiedActionUUIDTodoAction.Element(
                ids[1], TodoAction.TextFieldChanged("milk"))));
            store.Send(Todos.Action.Todos(IdentifiedActionUUIDTodoAction.Element(
                ids[0], TodoAction.CheckBoxToggled())));
            parts.Add(Show(Todos.State.Read(store)));
            store.Advance(1000);
            parts.Add(Show(Todos.State.Read(store)));
            store.Send(Todos.Action.Move(new List<long> { 1 }, 0));
            parts.Add(Show(Todos.State.Read(store)));
            store.Advance(100);
            parts.Add(Show(Todos.State.Read(store)));
            store.Send(Todos.Action.FilterPicked(TodosFilter.Active));
            Todos.State state = Todos.State.Read(store);
            var names = state.Todos.ToDictionary(t => t.Id, t => t.Description);
            parts.Add("active " + string.Join(" ", state.FilteredTodos.Select(id => names[id])));
        }
        return "todos: " + string.Join(" | ", parts);
    }

    static string DriveDice()
    {
        var parts = new List<string>();
        var options = new Tca.Options { ManualClock = true, Seed = 1 };
        using (var store = new Tca.Store(Dice.Feature.Name, options))
        {
            store.Send(Dice.Action.RollButtonTapped());
            store.Advance(500);
            store.Send(Dice.Action.View(DiceActionViewAction.RollButtonTapped()));
            store.Advance(500);
            Dice.State state = Dice.State.Read(store);
            parts.Add(state.CurrentRoll + " [" + string.Join(",", state.RollHistory) + "]");
            store.Send(Dice.Action.ViewFullHistoryTapped());
            DiceHistoryState history = Dice.State.Read(store).Destination.History;
            parts.Add("history " + history.Rolls.Count + " rolls, " + history.Entries.Count +
                " entries");
            store.Send(Dice.Action.Destination(PresentationActionDiceDestinationAction.Presented(
                DiceDestinationAction.History(DiceHistoryAction.CloseButtonTapped()))));
            parts.Add(Dice.State.Read(store).Destination == null ? "closed" : "open");
            store.Send(Dice.Action.ResetButtonTapped());
            AlertStateDiceActionAlert alert = Dice.State.Read(store).Alert;
            parts.Add("alert \"" + alert.Message + "\" " + string.Join(" ", alert.Buttons.Select(
                b => b.Label + ":" + (b.Role == null ? "null"
                    : b.Role == ButtonStateRole.Destructive ? "destructive" : "cancel") + ":" +
                    (b.Action == null ? "-" : b.Action.CaseName))));
            store.Send(Dice.Action.Alert(
                PresentationActionDiceActionAlert.Presented(alert.Buttons[0].Action)));
            state = Dice.State.Read(store);
            parts.Add("reset " + state.RollHistory.Count + " rolls, alert " +
                (state.Alert == null ? "none" : "shown"));
        }
        return "dice: " + string.Join(" | ", parts);
    }

    static int Main()
    {
        try
        {
            System.Console.WriteLine(DriveCounter());
            System.Console.WriteLine(DriveTodos());
            System.Console.WriteLine(DriveDice());
            return 0;
        }
        catch (Tca.TcaException error)
        {
            System.Console.Error.WriteLine("Drive: " + error.Message);
            return 1;
        }
    }
}
