import { useState, type FormEvent } from "react";
import { apiClient, type S } from "../api.ts";
import { Field, ProblemBanner } from "../parts/fields.tsx";
import { LanguageSwitch } from "../parts/LanguageSwitch.tsx";
import { ApiError, problemsOf, takeSignOutReason, Unreachable } from "../app/data.ts";
import { signedIn } from "../app/session.ts";
import { useWords } from "../words/index.ts";

// Merchants are known by their id, which reads like the shop's web address: the service keeps no other name.

export function SignIn() {
  const w = useWords();
  const [signedOutBecause] = useState(takeSignOutReason);
  const onSignedIn = signedIn;
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  // Set when this email and password open the portal of several shops: the person picks one.
  const [choices, setChoices] = useState<S["PortalMerchantChoice"]["merchants"]>();
  const [shop, setShop] = useState("");
  // What the last attempt ran into, said in the page's language (again if the language changes).
  const [failed, setFailed] = useState<unknown>();
  const problems = problemsOf(w, failed, "createPortalSession");
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
        setFailed(undefined);
      } else {
        setFailed(new ApiError(r.response.status, r.error));
        setChoices(undefined);
      }
    } catch {
      setFailed(new Unreachable());
    } finally {
      setBusy(false);
    }
  };

  const startOver = () => {
    setChoices(undefined);
    setPassword("");
    setFailed(undefined);
  };

  return (
    <main className="container narrow">
      <article>
        <header>
          <LanguageSwitch />
          <h1>{w.t.common.portalTitle}</h1>
          <p>{w.t.common.signInAbout}</p>
        </header>
        {signedOutBecause && (
          <p role="status" className="notice">
            {w.t.signIn[signedOutBecause]}
          </p>
        )}
        <form onSubmit={submit} noValidate aria-label={w.t.common.signInForm}>
          {choices ? (
            <fieldset>
              <legend>{w.t.common.whichShop(email)}</legend>
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
              <Field label={w.t.common.email} path="/body/email" problems={problems}>
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
              <Field label={w.t.common.password} path="/body/password" problems={problems}>
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
          <ProblemBanner problems={problems} shown={["/body/email", "/body/password"]} />
          <button type="submit" aria-busy={busy} disabled={busy || (choices !== undefined && !shop)}>
            {choices ? w.t.common.openShop : w.t.common.signIn}
          </button>
          {choices && (
            <button type="button" className="secondary" onClick={startOver}>
              {w.t.common.otherEmail}
            </button>
          )}
        </form>
      </article>
    </main>
  );
}
