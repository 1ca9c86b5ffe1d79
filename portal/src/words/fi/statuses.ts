// Suomi: portaalin listojen tilat ja lajit: saapuvat lähetykset, webhook-toimitukset, tapahtumat, roolit.
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
    initial: "Ilmoitettu",
    confirmed: "Vahvistettu",
    en_route: "Matkalla",
    arrived_at_warehouse: "Saapunut varastoon",
    processing: "Vastaanotetaan",
    problem: "Ongelma",
    processed: "Vastaanotettu",
    cancelled: "Varasto perui",
    deleted: "Peruttu",
  },
  actions: { modify: "Muokkaa", confirm: "Vahvista", delete: "Peru" },
  changedBy: { merchant: "kauppasi toimesta", warehouse: "varaston toimesta", service: "automaattisesti" },
  problemTypes: {
    "product.missing": "Tuote puuttuu",
    "product.not_ok": "Tuote ei vastaa odotettua",
    "product.extra": "Ylimääräinen tuote",
    damaged: "Lähetys vaurioitunut",
  },
  deliveryStatuses: { pending: "Odottaa", succeeded: "Toimitettu", failed: "Epäonnistui" },
  failureClasses: {
    dns: "Verkko-osoitteen palvelinta ei löytynyt: tarkista osoite.",
    refused: "Osoitteessa ei vastannut mikään: onko vastaanottava palvelusi käynnissä?",
    connection: "Yhteys katkesi ennen kuin vastaus tuli.",
    tls: "Suojattu yhteys epäonnistui: tarkista palvelimen HTTPS-varmenne.",
    timeout: "Palvelimesi ei vastannut ajoissa.",
    destination_refused: "Osoite johtaa yksityiseen verkkoon, johon palvelu ei lähetä.",
    redirect: "Palvelimesi vastasi uudelleenohjauksella, jota ei seurata: käytä lopullista osoitetta.",
    http_4xx:
      "Palvelimesi hylkäsi tapahtuman (virhekoodi 400-sarjasta): tarkista sen asetukset, esimerkiksi kirjautumistiedot.",
    http_5xx: "Palvelimellasi tapahtui virhe (koodi 500-sarjasta): tarkista sen lokit.",
    gone: "Palvelimesi ilmoitti, että vastaanottaja on poistunut pysyvästi, joten se poistettiin käytöstä.",
    invalid_response: "Palvelimesi vastaus ei ollut kelvollinen verkkovastaus.",
  },
  eventTypes: {
    "inbound_shipment.items_arrived": "Tuotteita saapui",
    "inbound_shipment.arrived_at_warehouse": "Lähetys saapui varastoon",
    "inbound_shipment.processed": "Lähetys vastaanotettu",
    "inbound_shipment.status_changed": "Lähetyksen tila muuttui",
    "webhook_endpoint.disabled": "Vastaanottaja poistettiin käytöstä",
    "webhook.test": "Testitapahtuma",
  },
  roles: { admin: "Pääkäyttäjä", staff: "Työntekijä" },
  yesNo: { yes: "Kyllä", no: "Ei" },
  none: "—",
};
