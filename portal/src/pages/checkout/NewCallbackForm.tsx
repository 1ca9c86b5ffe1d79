// Creating a Shopify callback address: a name, how many pickup points become rates, the product properties read as
// tags, and optionally the Shopify app's client secret (then every call must carry Shopify's signature).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { CarrierServiceTokenCreate, CarrierServiceTokenWithSecret } from "../../../../generated/api.ts";
import type { Problems } from "../../api.ts";
import { problemsOf, unwrap } from "../../app/data.ts";
import { useApi } from "../../app/session.ts";
import { Field, ProblemBanner } from "../../parts/fields.tsx";
import { useWords } from "../../words/use-words.ts";
import { CALLBACKS } from "./data.ts";

const SHOWN = ["/body/name", "/body/pickup_rates", "/body/tag_properties", "/body/app_secret"];

/** The properties are one text box: a problem with one line of it is shown at the box (the words name the line). */
function atTheBox(p: Problems | undefined): Problems | undefined {
  if (!p) return p;
  const fields: Record<string, string> = {};
  for (const [path, message] of Object.entries(p.fields)) {
    const key = path.startsWith("/body/tag_properties/") ? "/body/tag_properties" : path;
    fields[key] = fields[key] ? `${fields[key]} ${message}` : message;
  }
  return { ...p, fields };
}

export function NewCallbackForm({ onCreated }: { onCreated: (t: CarrierServiceTokenWithSecret) => void }) {
  const api = useApi();
  const qc = useQueryClient();
  const words = useWords();
  const w = words.t.shopify;
  const [name, setName] = useState("");
  const [pickupRates, setPickupRates] = useState("3");
  const [properties, setProperties] = useState("");
  const [secret, setSecret] = useState("");
  const create = useMutation({
    mutationFn: (body: CarrierServiceTokenCreate) =>
      unwrap(api.POST("/shopify/carrier_service_tokens/_create", { body })),
    onSuccess: (t) => {
      setName("");
      setPickupRates("3");
      setProperties("");
      setSecret("");
      onCreated(t);
      return qc.invalidateQueries({ queryKey: CALLBACKS });
    },
  });
  const problems = atTheBox(problemsOf(words, create.error, "createCarrierServiceToken"));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const tags = properties
      .split("\n")
      .map((p) => p.trim())
      .filter(Boolean);
    create.mutate({
      ...(name && { name }),
      // The browser gives a number box's text only when it is a number; an empty box takes the default.
      ...(pickupRates.trim() !== "" && { pickup_rates: Number(pickupRates) }),
      tag_properties: tags,
      ...(secret && { app_secret: secret }),
    });
  };
  return (
    <form onSubmit={submit} noValidate aria-label={w.form}>
      <h3>{w.createTitle}</h3>
      <div className="row">
        <Field label={w.nameField} path="/body/name" problems={problems}>
          {(p) => <input {...p} type="text" value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label={w.pickupRatesField} path="/body/pickup_rates" problems={problems}>
          {(p) => (
            <input
              {...p}
              type="number"
              inputMode="numeric"
              min={0}
              max={10}
              value={pickupRates}
              onChange={(e) => setPickupRates(e.target.value)}
            />
          )}
        </Field>
      </div>
      <Field label={w.tagPropertiesField} path="/body/tag_properties" problems={problems}>
        {(p) => <textarea {...p} rows={2} value={properties} onChange={(e) => setProperties(e.target.value)} />}
      </Field>
      <p className="muted">{w.tagPropertiesHint}</p>
      <Field label={w.appSecretField} path="/body/app_secret" problems={problems}>
        {(p) => (
          <input {...p} type="password" autoComplete="off" value={secret} onChange={(e) => setSecret(e.target.value)} />
        )}
      </Field>
      <p className="muted">{w.appSecretHint}</p>
      <ProblemBanner problems={problems} shown={SHOWN} />
      <button type="submit" aria-busy={create.isPending} disabled={create.isPending}>
        {w.create}
      </button>
    </form>
  );
}
