// A C# game loop over libtca (Tca.dll): the dice roller on the store's manual clock at a fixed
// 60 Hz timestep, its requests taken once a frame (pull mode: no delegate is handed to the
// library) and the haptics performed by the host, the roll landing 500 ms after the tap, the die
// drawn as text; then the counter, whose number fact the host answers when it takes the request.
//
//   make test-dotnet builds and runs it (mcs -r:Tca.dll examples/Game.cs; mono Game.exe)
using System;
using Tca;

static class Game
{
    static int Main()
    {
        try
        {
            int buzzes = 0;
            ulong elapsed = 0;
            using (var dice = new Store("dice", new Options { ManualClock = true, Seed = 7 }))
            {
                for (ulong frame = 0; frame < 45; frame++)
                {
                    if (frame == 5)
                    {
                        Console.WriteLine("frame {0,2}  tap: roll", frame);
                        dice.Send("\"rollButtonTapped\"");
                    }
                    // The requests of this frame, at the point of the frame the game chooses.
                    foreach (Request request in dice.TakeRequests())
                    {
                        if (request.Name == "haptics.impact")
                        {
                            buzzes++;  // a real game rumbles the controller here
                            Console.WriteLine("        host: {0} {1}  *bzzt*", request.Name, request.Payload);
                        }
                    }
                    if (frame % 5 == 0)
                    {
                        string face = dice.Get("/currentRoll");
                        string shown = dice.Get("/isRolling") == "true" ? "~" : face == "null" ? " " : face;
                        Console.WriteLine("frame {0,2}  t={1,3} ms  die [{2}]", frame, elapsed, shown);
                    }
                    // Fixed timestep: frame n is at n * 1000 / 60 ms.
                    ulong next = (frame + 1) * 1000 / 60;
                    dice.Advance(next - elapsed);
                    elapsed = next;
                }
                Console.WriteLine("dice: rolled {0} after 500 ms ({1} buzz), history {2}",
                    dice.Get("/currentRoll"), buzzes, dice.Get("/rollHistory"));
            }

            using (var counter = new Store("counter"))
            {
                counter.Send("\"incrementButtonTapped\"");
                counter.Send("\"incrementButtonTapped\"");
                counter.Send("\"numberFactButtonTapped\"");
                foreach (Request request in counter.TakeRequests())
                {
                    // The host's number facts (a real one would ask a service, and answer later).
                    if (request.Name == "numberFact.fetch")
                        counter.Respond(request.Id, Json.Quote(request.Payload + " is the number of this example."));
                }
                Console.WriteLine("counter: {0} — {1}", counter.Get("/count"),
                    Json.Unquote(counter.Get("/numberFact")));
            }
            return 0;
        }
        catch (TcaException error)
        {
            Console.Error.WriteLine("libtca: {0} ({1})", error.Message, error.Status);
            return 1;
        }
    }
}
