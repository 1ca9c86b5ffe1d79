// The receiving station: the sign-in form until there is a station session, then the station itself. A session that
// ends while scans wait (401) brings the sign-in form back over the station: the queue waits for the same person.
import { useEffect, useState } from "react";
import { useWords } from "../words/index.ts";
import { ChangePassword, SignIn } from "./SignIn.tsx";
import { currentSession } from "./session.ts";
import { Station } from "./Station.tsx";
import type { StationSession } from "../../../generated/api.ts";

export function StationApp() {
  const w = useWords();
  const s = w.t.station;
  const [session, setSession] = useState<StationSession | null>();
  const [unreachable, setUnreachable] = useState(false);

  useEffect(() => {
    document.documentElement.lang = w.lang;
    document.title = s.title;
  }, [w.lang, s.title]);

  useEffect(() => {
    currentSession().then(setSession, () => {
      setUnreachable(true);
      setSession(null);
    });
  }, []);

  if (session === undefined)
    return (
      <main className="container station" aria-busy="true">
        {s.loading}
      </main>
    );
  if (!session)
    return <SignIn s={s} problem={unreachable ? w.answer("unreachable") : undefined} onSignedIn={setSession} />;
  if (session.must_change_password) return <ChangePassword s={s} session={session} onChanged={setSession} />;
  return (
    <Station key={session.user.id} session={session} onSignedOut={() => setSession(null)} onSession={setSession} />
  );
}
