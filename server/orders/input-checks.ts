// What an order's schema cannot say: each product once, prices in cents, a postal code its country can have. Run by
// the request validator with the schema check (orderValueRules in http.ts), so that one 400 lists every problem; the
// pickup point a destination names is checked in the domain (orders.ts), since it needs the directory.
import type { ErrorDetail } from "../shared/errors.ts";
import { lineProblems } from "../shared/line-checks.ts";
import { fieldOf } from "../shared/loose.ts";
import { postalCodeProblem } from "../shared/postal-codes.ts";

/** createOrder and modifyOrder */
export function orderProblems(body: unknown): ErrorDetail[] {
  const details = lineProblems(fieldOf(body, "products"), "/body/products", "unit_price");
  const customer = fieldOf(body, "customer");
  const country = fieldOf(customer, "country");
  const postalcode = fieldOf(customer, "postalcode");
  if (typeof country === "string" && typeof postalcode === "string") {
    const problem = postalCodeProblem(country, postalcode);
    if (problem) details.push({ path: "/body/customer/postalcode", message: problem, code: "pattern" });
  }
  return details;
}
