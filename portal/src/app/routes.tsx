// The route table: every view of the portal, its address and who may open it.
import type { ComponentType } from "react";
import { Checkout } from "../pages/checkout/Checkout.tsx";
import { Pricing } from "../pages/pricing/Pricing.tsx";
import { Shipments } from "../pages/shipments/index.tsx";
import { Users } from "../pages/users/index.tsx";
import { Webhooks } from "../pages/webhooks/index.tsx";

export interface Area {
  path: string;
  label: string;
  adminOnly?: boolean;
  view: ComponentType<{ rest: string[] }>;
}

export const AREAS: readonly Area[] = [
  { path: "/shipments", label: "Shipments", view: Shipments },
  { path: "/pricing", label: "Pricing", view: Pricing },
  { path: "/webhooks", label: "Webhooks", view: Webhooks },
  { path: "/checkout", label: "Checkout", view: Checkout },
  { path: "/users", label: "Users", adminOnly: true, view: Users },
];
