// Signing in at the station with a warehouse user's email and password; and the new password a supervisor's reset
// asks for. Big fields, one task per screen.
import { useState, type FormEvent } from "react";
import { useWords } from "../words/index.ts";
import type { StationWords } from "../words/station-words.ts";
import { hint, stationClient } from "./session.ts";
import { ApiError, problemsOf } from "../app/data.ts";
import type { StationSession } from "../../../generated/api.ts";

export function SignIn({
  s,
  problem,
  ended,
  onSignedIn,
}: {
  s: StationWords;
  problem?: string;
  /** The session ended while the station was in use: say so, and how many scans wait. */
  ended?: string;
  onSignedIn: (session: StationSession) => void;
}) {
  const w = useWords();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState(problem);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const r = await stationClient().POST("/station_sessions/_create", { body: { email, password } });
      if (r.data) {
        hint.set(true);
        onSignedIn(r.data);
        return;
      }
      const code = r.error?.code ?? "unknown";
      setError(
        code === "unauthorized"
          ? w.t.signIn.unauthorized
          : code === "rate_limited"
            ? w.t.signIn.rate_limited
            : w.answer(code),
      );
    } catch {
      setError(w.answer("unreachable"));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="container station">
      <h1>{s.title}</h1>
      {ended && (
        <p role="alert" className="notice">
          {ended}
        </p>
      )}
      <p>{s.signInAbout}</p>
      <form onSubmit={submit} aria-label={s.signIn}>
        <label>
          {s.email}
          <input
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <label>
          {s.password}
          <input
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        {error && (
          <p role="alert" className="problem">
            {error}
          </p>
        )}
        <button type="submit" aria-busy={busy} disabled={busy}>
          {s.signIn}
        </button>
      </form>
    </main>
  );
}

export function ChangePassword({
  s,
  session,
  onChanged,
}: {
  s: StationWords;
  session: StationSession;
  onChanged: (session: StationSession) => void;
}) {
  const w = useWords();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [error, setError] = useState<string>();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const r = await stationClient(session.csrf_token).POST("/station_sessions/current/_change_password", {
        body: { current_password: current, new_password: next },
      });
      if (r.data) onChanged(r.data);
      else {
        const p = problemsOf(w, new ApiError(r.response.status, r.error), "changeStationPassword");
        setError([p?.message, ...Object.values(p?.fields ?? {})].filter(Boolean).join(" "));
      }
    } catch {
      setError(w.answer("unreachable"));
    }
  };

  return (
    <main className="container station">
      <h1>{s.newPasswordTitle}</h1>
      <p>{s.newPasswordAbout}</p>
      <form onSubmit={submit} aria-label={s.newPasswordTitle}>
        <label>
          {s.currentPassword}
          <input
            type="password"
            autoComplete="current-password"
            required
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
          />
        </label>
        <label>
          {s.newPassword}
          <input
            type="password"
            autoComplete="new-password"
            required
            minLength={10}
            value={next}
            onChange={(e) => setNext(e.target.value)}
          />
        </label>
        {error && (
          <p role="alert" className="problem">
            {error}
          </p>
        )}
        <button type="submit">{s.saveNewPassword}</button>
      </form>
    </main>
  );
}
