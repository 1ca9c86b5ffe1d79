// Creating a checkout key: a name and the shop's web addresses, one per line.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { Problems, S } from "../../api.ts";
import { problemsOf, unwrap } from "../../app/data.ts";
import { useApi } from "../../app/session.ts";
import { Field, ProblemBanner } from "../../parts/fields.tsx";
import { useWords } from "../../words/index.ts";
import { KEYS } from "./data.ts";

/** The addresses are one text box: a problem with one line of it is shown at the box (the words name the line). */
function atTheBox(p: Problems | undefined): Problems | undefined {
  if (!p) return p;
  const fields: Record<string, string> = {};
  for (const [path, message] of Object.entries(p.fields)) {
    const key = path.startsWith("/body/origins/") ? "/body/origins" : path;
    fields[key] = fields[key] ? `${fields[key]} ${message}` : message;
  }
  return { ...p, fields };
}

export function NewKeyForm({ onCreated }: { onCreated: (k: S["PublishableKey"]) => void }) {
  const api = useApi();
  const w = useWords();
  const t = w.t.checkout;
  const qc = useQueryClient();
  const [name, setName] = useState("");
  const [origins, setOrigins] = useState("");
  const create = useMutation({
    mutationFn: (body: S["PublishableKeyCreate"]) => unwrap(api.POST("/publishable_keys/_create", { body })),
    onSuccess: (k) => {
      setName("");
      setOrigins("");
      onCreated(k);
      return qc.invalidateQueries({ queryKey: KEYS });
    },
  });
  const problems = atTheBox(problemsOf(w, create.error, "createPublishableKey"));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const list = origins
      .split(/\s+/)
      .map((o) => o.trim())
      .filter(Boolean);
    create.mutate({ ...(name && { name }), origins: list });
  };
  return (
    <form onSubmit={submit} noValidate aria-label={t.newKey}>
      <h2>{t.createTitle}</h2>
      <div className="row">
        <Field label={t.nameField} path="/body/name" problems={problems}>
          {(p) => <input {...p} type="text" value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label={t.originsField} path="/body/origins" problems={problems}>
          {(p) => (
            <textarea
              {...p}
              rows={3}
              placeholder={t.originsExample}
              value={origins}
              onChange={(e) => setOrigins(e.target.value)}
            />
          )}
        </Field>
      </div>
      <ProblemBanner problems={problems} shown={["/body/name", "/body/origins"]} />
      <button type="submit" aria-busy={create.isPending} disabled={create.isPending}>
        {t.create}
      </button>
    </form>
  );
}
