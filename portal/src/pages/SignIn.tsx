import { useState, type FormEvent } from "react";
import { apiClient, problemsOf, type Problems, type S } from "../api.ts";
import { Field } from "../parts/fields.tsx";
import { LanguageSwitch } from "../parts/LanguageSwitch.tsx";
import { takeSignOutReason } from "../app/data.ts";
import { signedIn } from "../app/session.ts";
import { useWords } from "../words/index.ts";

// Merchants are known by their id, which reads like the shop's web address: the service keeps no other name.
type Choice = S["PortalMerchantChoice"]["merchants"];

export function SignIn() {
  const w = useWords();
  const { lang } = w;
  const [signedOutBecause] = useState(takeSignOutReason);
  const onSignedIn = signedIn;
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  // Set when this email and password open the portal of several shops: the person picks one.
  const [choices, setChoices] = useState<Choice>();
  const [shop, setShop] = useState("");
  const [problems, setProblems] = useState<Problems>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const body = { email, password, ...(choices && shop && { merchant_id: shop }) };
      const r = await apiClient().POST("/portal_sessions/_create", { body });
      if (r.data) onSignedIn(r.data);
      else if (r.response.status === 300) {
        // openapi-fetch types 2xx answers as data and 4xx/5xx as error; a 300 is neither, its body is in error.
        setChoices((r.error as unknown as S["PortalMerchantChoice"]).merchants);
        setShop("");
        setProblems(undefined);
      } else {
        setProblems(problemsOf(r.error, "createPortalSession"));
        setChoices(undefined);
      }
    } catch {
      setProblems({ message: "The service cannot be reached. Try again in a moment.", fields: {} });
    } finally {
      setBusy(false);
    }
  };

  const startOver = () => {
    setChoices(undefined);
    setPassword("");
    setProblems(undefined);
  };

  return (
    <main className="container narrow">
      <article>
        <header>
          <LanguageSwitch />
          <h1>Merchant portal</h1>
          <p>Sign in with the email and password your administrator gave you.</p>
        </header>
        {signedOutBecause && (
          <p role="status" className="notice" lang={lang}>
            {w.t.signIn[signedOutBecause]}
          </p>
        )}
        <form onSubmit={submit} noValidate aria-label="Sign in">
          {choices ? (
            <fieldset>
              <legend>
                <strong>{email}</strong> works for more than one shop. Which shop do you want to open?
              </legend>
              {choices.map((c) => (
                <label key={c.merchant_id}>
                  <input
                    type="radio"
                    name="shop"
                    value={c.merchant_id}
                    checked={shop === c.merchant_id}
                    onChange={() => setShop(c.merchant_id)}
                  />
                  {c.merchant_id}
                </label>
              ))}
            </fieldset>
          ) : (
            <>
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
            </>
          )}
          {problems && (
            <p role="alert" className="problem" lang={lang}>
              {problems.message}
            </p>
          )}
          <button type="submit" aria-busy={busy} disabled={busy || (choices !== undefined && !shop)}>
            {choices ? "Open this shop" : "Sign in"}
          </button>
          {choices && (
            <button type="button" className="secondary" onClick={startOver}>
              Use another email
            </button>
          )}
        </form>
      </article>
    </main>
  );
}
