// Checkout keys: the publishable keys that let the shop's checkout page show delivery options with the shipping
// picker. Listed with the code to paste, created for the shop's web addresses, revoked after a confirmation.
import { signedOut } from "../app/data.ts";
import { useApi } from "../app/session.ts";
import { useCallback, useEffect, useState, type FormEvent } from "react";
import { formatTime, problemsOf, type Api, type Problems, type S } from "../api.ts";
import { Field, ProblemBanner } from "../parts/fields.tsx";

/** The lines a shop pastes into its checkout page (docs/checkout-picker.md says the same). */
export const snippet = (key: string) =>
  [
    `<script src="${window.location.origin}/picker.js"></script>`,
    `<logistics-shipping-picker key="${key}" postalcode="00100" country="FI"`,
    `  weight="1200" cart-value="59.80" item-count="2"></logistics-shipping-picker>`,
    `<script>document.addEventListener("logistics-pick", (e) => saveChoice(e.detail.quote));</script>`,
  ].join("\n");

/** A web address as the shop typed it, in the words the shop understands when it is not one. */
function plainProblems(p: Problems | undefined): Problems | undefined {
  if (!p) return p;
  const fields: Record<string, string> = {};
  for (const path of Object.keys(p.fields)) {
    const line = /^\/body\/origins\/(\d+)$/.exec(path);
    if (line)
      fields["/body/origins"] =
        `Line ${Number(line[1]) + 1}: write the address of your shop's website only, such as https://shop.example.com (no page path, no / at the end).`;
    else if (path === "/body/origins") fields[path] = "List one to twenty website addresses, each once.";
    else if (path === "/body/name")
      fields[path] = "A name is at most 100 characters, without spaces at the start or end.";
    else fields[path] = p.fields[path]!;
  }
  return { message: "The key was not created: check the fields below.", fields };
}

export function Checkout(_: { rest: string[] }) {
  const api = useApi();
  const onExpired = signedOut;
  const [keys, setKeys] = useState<S["PublishableKey"][]>();
  const [name, setName] = useState("");
  const [origins, setOrigins] = useState("");
  const [problems, setProblems] = useState<Problems>();
  const [notice, setNotice] = useState<string>();
  const [confirming, setConfirming] = useState<string>();

  const load = useCallback(async () => {
    const r = await api.GET("/publishable_keys");
    if (r.response.status === 401) return onExpired();
    if (r.data) setKeys(r.data.items);
  }, [api, onExpired]);
  useEffect(() => void load(), [load]);

  const create = async (e: FormEvent) => {
    e.preventDefault();
    const list = origins
      .split(/\s+/)
      .map((o) => o.trim())
      .filter(Boolean);
    const r = await api.POST("/publishable_keys/_create", { body: { ...(name && { name }), origins: list } });
    if (r.response.status === 401) return onExpired();
    setProblems(plainProblems(problemsOf(r.error)));
    if (r.data) {
      setNotice(`Key created for ${r.data.origins.join(", ")}. Paste its code into your checkout page.`);
      setName("");
      setOrigins("");
      await load();
    }
  };
  const revoke = async (id: string) => {
    const r = await api.POST("/publishable_keys/{key_id}/_revoke", { params: { path: { key_id: id } } });
    if (r.response.status === 401) return onExpired();
    setConfirming(undefined);
    setNotice("The key was revoked: pages that use it no longer show delivery options.");
    await load();
  };
  const working = keys?.filter((k) => !k.revoked_at) ?? [];

  return (
    <section>
      <hgroup>
        <h1>Checkout</h1>
        <p>
          Keys that let your shop's checkout page show your delivery options and prices with the shipping picker. A key
          works only on the websites you list, and only for delivery options: it is safe in your page's code.
        </p>
      </hgroup>
      {notice && <p role="status">{notice}</p>}
      <div className="table-wrap">
        <table aria-label="Checkout keys" className="stack-on-phone">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Websites</th>
              <th scope="col">Created</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys?.map((k) => (
              <tr key={k.id}>
                <td data-label="Name">{k.name || "Unnamed key"}</td>
                <td data-label="Websites">{k.origins.join(", ")}</td>
                <td data-label="Created">{formatTime(k.created_at)}</td>
                <td data-label="Status">{k.revoked_at ? `Revoked ${formatTime(k.revoked_at)}` : "Working"}</td>
                <td>
                  {!k.revoked_at &&
                    (confirming === k.id ? (
                      <div role="group" aria-label={`Revoke ${k.name || "this key"}?`}>
                        <p>Pages using this key stop showing delivery options at once. This cannot be undone.</p>
                        <button type="button" onClick={() => void revoke(k.id)}>
                          Revoke key
                        </button>{" "}
                        <button type="button" className="secondary" onClick={() => setConfirming(undefined)}>
                          Keep it
                        </button>
                      </div>
                    ) : (
                      <button type="button" className="secondary" onClick={() => setConfirming(k.id)}>
                        Revoke
                      </button>
                    ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {working.map((k) => (
        <details key={k.id}>
          <summary>Code for your checkout page: {k.name || "unnamed key"}</summary>
          <pre aria-label={`Code for ${k.name || "unnamed key"}`}>{snippet(k.key)}</pre>
          <button
            type="button"
            className="secondary"
            onClick={() => void navigator.clipboard?.writeText(snippet(k.key))}
          >
            Copy code
          </button>
        </details>
      ))}
      <form onSubmit={create} noValidate aria-label="New checkout key">
        <h2>Create a key</h2>
        <div className="row">
          <Field label="Name (for you, e.g. the shop's name)" path="/body/name" problems={problems}>
            {(p) => <input {...p} type="text" value={name} onChange={(e) => setName(e.target.value)} />}
          </Field>
          <Field label="Websites that may use it, one per line" path="/body/origins" problems={problems}>
            {(p) => (
              <textarea
                {...p}
                rows={3}
                placeholder="https://shop.example.com"
                value={origins}
                onChange={(e) => setOrigins(e.target.value)}
              />
            )}
          </Field>
        </div>
        <ProblemBanner problems={problems} shown={["/body/name", "/body/origins"]} />
        <button type="submit">Create key</button>
      </form>
    </section>
  );
}
