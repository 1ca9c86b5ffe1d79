// What a publishable key's schema cannot say, run by the request validator with the schema check
// (publishableKeyValueRules in http.ts), reading the body loosely as every value rule does.
import type { ErrorDetail } from "../shared/errors.ts";
import { fieldOf, itemsOf } from "../shared/loose.ts";

/**
 * What the spec's pattern cannot say of an origin: written as a browser sends it (`new URL(o).origin`: no default
 * port such as `:443`, a port within 1-65535).
 */
export function originProblems(body: unknown): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  itemsOf(fieldOf(body, "origins")).forEach((origin, i) => {
    if (typeof origin !== "string") return;
    let canonical: string | undefined;
    try {
      canonical = new URL(origin).origin;
    } catch {
      canonical = undefined;
    }
    if (canonical !== origin) {
      problems.push({
        path: `/body/origins/${i}`,
        message: canonical
          ? `write it as a browser sends it: ${canonical}`
          : "not a web origin such as https://shop.example.com",
        code: "origin",
      });
    }
  });
  return problems;
}
