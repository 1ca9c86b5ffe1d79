import { useState, type FormEvent } from "react";
import { apiClient, problemsOf, type Problems, type S } from "../api.ts";
import { Field } from "../parts/fields.tsx";

export function SignIn({ onSignedIn }: { onSignedIn: (session: S["PortalSession"]) => void }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [problems, setProblems] = useState<Problems>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const r = await apiClient().POST("/portal_sessions/_create", { body: { email, password } });
      if (r.data) onSignedIn(r.data);
      else setProblems(problemsOf(r.error));
    } catch {
      setProblems({ message: "The service cannot be reached. Try again in a moment.", fields: {} });
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="container narrow">
      <article>
        <header>
          <h1>Merchant portal</h1>
          <p>Sign in with the email and password your administrator gave you.</p>
        </header>
        <form onSubmit={submit} noValidate aria-label="Sign in">
          <Field label="Email" path="/body/email" problems={problems}>
            {(p) => (
              <input
                {...p}
                type="email"
                name="email"
                autoComplete="username"
                required
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            )}
          </Field>
          <Field label="Password" path="/body/password" problems={problems}>
            {(p) => (
              <input
                {...p}
                type="password"
                name="password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            )}
          </Field>
          {problems && (
            <p role="alert" className="problem">
              {problems.message}
            </p>
          )}
          <button type="submit" aria-busy={busy} disabled={busy}>
            Sign in
          </button>
        </form>
      </article>
    </main>
  );
}
