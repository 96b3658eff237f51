// A C# game loop over libtca (Tca.dll): the dice roller on the store's manual clock at a fixed
// 60 Hz timestep, its requests taken once a frame (pull mode: no delegate is handed to the
// library) and the haptics performed by the host, the roll landing 500 ms after the tap, the die
// drawn as text from a state the game keeps: parsed whole once, then brought up to date each
// frame by the patch since the last frame. Then the counter, whose number fact the host answers
// when it takes the request.
//
//   make test-dotnet builds and runs it (docs/dotnet.md has the commands)
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
                // The state the game draws, and the version it is of.
                object state = Json.Parse(dice.State());
                ulong seen = dice.Version;
                int patches = 0;
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
                            Console.WriteLine("        host: {0} {1}  *bzzt*", request.Name,
                                request.Payload);
                        }
                    }
                    // Fixed timestep: frame n ends at (n + 1) * 1000 / 60 ms.
                    ulong next = (frame + 1) * 1000 / 60;
                    dice.Advance(next - elapsed);
                    elapsed = next;
                    // What changed this frame, applied to the kept state.
                    if (dice.Version != seen)
                    {
                        state = Json.ApplyPatch(state, dice.Changes(seen, out seen));
                        patches++;
                    }
                    if (frame % 5 == 0)
                    {
                        object face = Json.Find(state, "/currentRoll");
                        string shown = (bool)Json.Find(state, "/isRolling") ? "~"
                            : face == null ? " " : Json.Write(face);
                        Console.WriteLine("frame {0,2}  t={1,3} ms  die [{2}]", frame, elapsed,
                            shown);
                    }
                }
                Console.WriteLine("dice: rolled {0} after 500 ms ({1} buzz), history {2}",
                    Json.Write(Json.Find(state, "/currentRoll")), buzzes,
                    Json.Write(Json.Find(state, "/rollHistory")));
                Console.WriteLine("followed {0} patches; the kept state is the store's: {1}",
                    patches, Json.Write(Json.Equal(state, Json.Parse(dice.State()))));
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
                    {
                        string fact = request.Payload + " is the number of this example.";
                        counter.Respond(request.Id, Json.Quote(fact));
                    }
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
        catch (DllNotFoundException error)
        {
            // Where the loader looked, and what to set (TCA_LIBRARY, LD_LIBRARY_PATH).
            Console.Error.WriteLine("libtca: {0}", error.Message);
            return 1;
        }
    }
}
