// Svenska: statusar och sorter som portalens listor visar: inkommande försändelser, webhook-leveranser,
// händelser, roller.
import type { Catalogue } from "../catalogue.ts";

type Statuses = Pick<
  Catalogue,
  | "statuses"
  | "actions"
  | "changedBy"
  | "problemTypes"
  | "deliveryStatuses"
  | "failureClasses"
  | "eventTypes"
  | "roles"
  | "yesNo"
  | "none"
>;

export const statuses: Statuses = {
  statuses: {
    initial: "Aviserad",
    confirmed: "Bekräftad",
    en_route: "På väg",
    arrived_at_warehouse: "Framme vid lagret",
    processing: "Tas emot",
    problem: "Avvikelse",
    processed: "Mottagen",
    cancelled: "Avbruten av lagret",
    deleted: "Återkallad",
  },
  actions: { modify: "Redigera", confirm: "Bekräfta", delete: "Återkalla" },
  changedBy: { merchant: "av din butik", warehouse: "av lagret", service: "automatiskt" },
  problemTypes: {
    "product.missing": "Produkt saknas",
    "product.not_ok": "Produkten är inte som väntat",
    "product.extra": "Extra produkt",
    damaged: "Försändelsen skadad",
  },
  deliveryStatuses: { pending: "Väntar", succeeded: "Levererad", failed: "Misslyckades" },
  failureClasses: {
    dns: "Servern i webbadressen hittades inte: kontrollera adressen.",
    refused: "Inget svarade på adressen: är din mottagande tjänst igång?",
    connection: "Anslutningen bröts innan något svar kom.",
    tls: "Den säkra anslutningen misslyckades: kontrollera serverns HTTPS-certifikat.",
    timeout: "Din server svarade inte i tid.",
    destination_refused: "Adressen leder in i ett privat nätverk, dit tjänsten inte skickar.",
    redirect: "Din server svarade med en omdirigering, som inte följs: använd den slutliga adressen.",
    http_4xx:
      "Din server avvisade händelsen (en felstatus i 400-serien): kontrollera dess inställningar, till exempel inloggningsuppgifterna.",
    http_5xx: "Din server fick ett fel (en status i 500-serien): kontrollera dess loggar.",
    gone: "Din server meddelade att mottagaren har försvunnit för gott, så den stängdes av.",
    invalid_response: "Din servers svar var inte ett giltigt webbsvar.",
  },
  eventTypes: {
    "inbound_shipment.items_arrived": "Varor har kommit fram",
    "inbound_shipment.arrived_at_warehouse": "Försändelsen har kommit fram till lagret",
    "inbound_shipment.processed": "Försändelsen har tagits emot",
    "inbound_shipment.status_changed": "Försändelsens status har ändrats",
    "webhook_endpoint.disabled": "Mottagaren har stängts av",
    "webhook.test": "Testhändelse",
  },
  roles: { admin: "Administratör", staff: "Medarbetare" },
  yesNo: { yes: "Ja", no: "Nej" },
  none: "—",
};
