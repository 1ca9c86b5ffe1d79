// <logistics-shipping-picker>: the piece of a shop's checkout where a customer chooses how, and where, to receive
// the parcel. It asks GET /shipping_options with the shop's publishable key, shows each method with its price and
// the nearest pickup points, and tells the page what was chosen with a `logistics-pick` event that carries the
// signed quote (the shop's backend checks it: client package, `verifyQuote`), and with one whose detail is null
// when that choice no longer holds (another postal code or cart: its quote would be refused). No dependencies; its own styles in a
// shadow root, following the page's font and colours through CSS custom properties.
import type { components } from "../../generated/api.ts";
import { languageOf, TEXTS, type Language, type Texts } from "./texts.ts";
import { BASE_PATH } from "../../generated/base-path.ts";
import { openingHours } from "./hours.ts";
import { mapSwitch } from "./map-switch.ts";

type S = components["schemas"];
type Point = S["PickupPointWithPrice"];
type Method = S["ShippingMethodType"];
/** The pickup points shown: all, or one kind's (when the answer offers both lockers and counters). */
type KindFilter = "all" | "locker" | "counter";

/** What `logistics-pick` carries: the choice, and the quote to send to the shop's backend. */
export interface PickDetail {
  method: Method;
  pickup_point: Point | null;
  price: S["Price"];
  quote: string;
}

const STYLE = `
:host { display: block; font: inherit; color: var(--logistics-text, inherit); max-width: 100%; }
* { box-sizing: border-box; }
form { display: flex; flex-wrap: wrap; gap: .5em; align-items: end; margin: 0 0 .75em; }
label.code { display: flex; flex-direction: column; gap: .25em; flex: 1 1 8em; min-width: 0; }
input[type=text] { font: inherit; padding: .5em; border: 1px solid var(--logistics-border, #767676); border-radius: var(--logistics-radius, 4px); background: var(--logistics-background, #fff); color: inherit; width: 100%; }
button { font: inherit; padding: .5em 1em; border: 0; border-radius: var(--logistics-radius, 4px); background: var(--logistics-accent, #1f5fbf); color: var(--logistics-accent-text, #fff); cursor: pointer; }
fieldset { border: 1px solid var(--logistics-border, #767676); border-radius: var(--logistics-radius, 4px); margin: 0 0 .75em; padding: .5em .75em; min-width: 0; }
legend { font-weight: bold; padding: 0 .25em; }
.option { display: flex; gap: .6em; align-items: flex-start; padding: .5em .25em; border-radius: var(--logistics-radius, 4px); cursor: pointer; }
.option + .option { border-top: 1px solid var(--logistics-divider, #d0d0d0); }
.option:has(input:checked) { background: var(--logistics-selected, rgba(31, 95, 191, .08)); }
.option input { margin-top: .25em; accent-color: var(--logistics-accent, #1f5fbf); flex: none; }
.body { flex: 1 1 auto; min-width: 0; overflow-wrap: anywhere; }
.row { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 0 .75em; }
.name { font-weight: bold; }
.price { font-weight: bold; white-space: nowrap; }
.detail { display: block; font-size: .9em; color: var(--logistics-muted, #4a4a4a); }
.status:empty { display: none; }
.status { margin: 0 0 .75em; }
.views { display: flex; flex-wrap: wrap; gap: .25em; margin: 0 0 .5em; }
.views button[aria-pressed=false] { background: none; color: inherit; box-shadow: inset 0 0 0 1px var(--logistics-border, #767676); }
`;

/** Where the API is when the page does not say: the server that served this script. */
const SCRIPT_API = (() => {
  const src = typeof document !== "undefined" ? (document.currentScript as HTMLScriptElement | null)?.src : undefined;
  return src ? new URL(BASE_PATH, src).href : undefined;
})();

/** The reason the service gives for a postal code its directory does not know. */
const UNKNOWN_POSTAL_CODE = "unknown_postal_code";
/** The reason for pickup when every point is beyond the merchant's greatest distance. */
const TOO_FAR = "pickup_points_too_far";
/** Where the shopper's last choice is kept, in the shop origin's localStorage (docs/checkout-picker.md). */
const CHOICE_KEY = "logistics-shipping-picker:choice";
/** How long the picker waits for an answer before it offers to try again. */
const TIMEOUT_MS = 15_000;

const LOCALES: Record<Language, string> = { en: "en-GB", fi: "fi-FI", sv: "sv-FI" };

const ATTRIBUTES = [
  "api",
  "key",
  "postalcode",
  "country",
  "weight",
  "cart-value",
  "item-count",
  "tags",
  "lang",
] as const;

export class ShippingPicker extends HTMLElement {
  static observedAttributes = [...ATTRIBUTES];
  private root = this.attachShadow({ mode: "open" });
  private answer: S["ShippingOptionsResult"] | undefined;
  private method: Method | undefined;
  private pointId: string | undefined;
  private asked = 0;
  private scheduled = false;
  /** Whether the remembered choice was looked for: once, in the first answer. */
  private restored = false;
  /** The query the shown answer (and so the choice) was asked with: another one clears the choice. */
  private basis: string | undefined;
  /** The current choice, as the last `logistics-pick` event told it; null when none (or it was cleared). */
  value: PickDetail | null = null;
  private kind: KindFilter = "all";
  /** The pickup points' list/map switch: only when the server has a map (map-switch.ts). */
  private map = mapSwitch(() => this.render(this.built?.status.textContent ?? ""));

  connectedCallback(): void {
    this.load();
  }

  attributeChangedCallback(name: string, _old: string | null, value: string | null): void {
    // The field shows the postal code asked about, whoever set it: a page's change (the customer's address) must
    // not leave the old one there for Search to ask for again.
    if (name === "postalcode" && this.built) this.built.input.value = value ?? "";
    if (this.isConnected) this.load();
  }

  /** The element's `lang`, else the page's around it. */
  private get language(): Language {
    return languageOf(this.getAttribute("lang") ?? this.closest("[lang]")?.getAttribute("lang"));
  }

  private get texts(): Texts {
    return TEXTS[this.language];
  }

  private get locale(): string {
    return LOCALES[this.language];
  }

  private money(price: S["Price"]): string {
    if (price.gross === 0) return this.texts.free;
    return new Intl.NumberFormat(this.locale, { style: "currency", currency: price.currency }).format(price.gross);
  }

  private distance(metres: number): string {
    if (metres < 1000) return `${new Intl.NumberFormat(this.locale).format(Math.round(metres / 10) * 10)} m`;
    return `${new Intl.NumberFormat(this.locale, { maximumFractionDigits: 1 }).format(metres / 1000)} km`;
  }

  /** "Delivered Tue 1 Dec – Thu 3 Dec" (one date when both are the same day); nothing when the answer has none. */
  private dates(estimate: S["DeliveryEstimate"] | undefined): string[] {
    if (!estimate) return [];
    // A `YYYY-MM-DD` parses as midnight UTC: formatted in UTC, it is that calendar day wherever the shopper is.
    const format = new Intl.DateTimeFormat(this.locale, {
      weekday: "short",
      day: "numeric",
      month: "short",
      timeZone: "UTC",
    });
    const earliest = format.format(Date.parse(estimate.earliest));
    const latest = format.format(Date.parse(estimate.latest));
    return [this.texts.delivered(earliest === latest ? earliest : `${earliest} – ${latest}`)];
  }

  /** Asks again once the current task's attribute changes have all landed. */
  private load(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      void this.fetchOptions();
    });
  }

  private async fetchOptions(): Promise<void> {
    const postalcode = this.getAttribute("postalcode")?.trim();
    const key = this.getAttribute("key");
    const api = this.getAttribute("api") ?? SCRIPT_API;
    this.answer = undefined;
    if (!postalcode || !key || !api) {
      this.basis = undefined;
      this.method = this.pointId = undefined;
      this.clear();
      return this.render("");
    }
    const ask = ++this.asked;
    this.render(this.texts.loading);
    const query = new URLSearchParams({ postalcode, country: this.getAttribute("country") ?? "FI" });
    for (const [attr, param] of [
      ["weight", "weight"],
      ["cart-value", "cart_value"],
      ["item-count", "item_count"],
    ] as const) {
      const v = this.getAttribute(attr);
      if (v !== null && v !== "") query.set(param, v);
    }
    for (const tag of (this.getAttribute("tags") ?? "")
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean))
      query.append("tags", tag);
    // A new postal code or cart is another answer: the choice and its quote belong to the old one.
    const basis = `${api} ${key} ${query}`;
    if (basis !== this.basis) {
      this.basis = basis;
      this.method = undefined;
      this.pointId = undefined;
      this.clear();
    }
    let status: string;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), TIMEOUT_MS);
    try {
      const r = await fetch(`${api.replace(/\/$/, "")}/shipping_options?${query}`, {
        headers: { Authorization: `Bearer ${key}` },
        signal: timeout.signal,
      });
      const body: unknown = await r.json().catch(() => undefined);
      if (ask !== this.asked) return;
      status = this.outcome(r.status, body, postalcode);
    } catch {
      // No answer at all (the service or the network is down, or it took too long): asking again may help.
      if (ask !== this.asked) return;
      status = this.texts.failed;
    } finally {
      clearTimeout(timer);
    }
    if (this.method && !this.available(this.method)) this.method = undefined;
    // The first answer only (the page was loaded again): after another postal code or cart, the shopper chooses anew.
    if (!this.method && this.answer && !this.restored) this.restore();
    this.render(status);
  }

  /** What the service's answer means for the shopper: the options, or which failure it is, told apart. */
  private outcome(status: number, body: unknown, postalcode: string): string {
    const t = this.texts;
    const answer = body as S["ShippingOptionsResult"] | undefined;
    if (status === 200 && answer?.options) {
      const reasons = Object.values(answer.options).map((o) => (o.available ? "" : o.reason));
      if (reasons.includes(UNKNOWN_POSTAL_CODE)) return t.badCode;
      this.answer = answer;
      return this.summary(postalcode);
    }
    // The key is unknown or revoked, or this page's origin is not one the key lists: asking again cannot help,
    // and only the shop can fix it, so its developer is told how.
    if (status === 401 || status === 403) {
      console.warn(
        `<logistics-shipping-picker>: the service refused this page (${status}). Add ${location.origin} to the ` +
          `allowed origins of the publishable key in the portal (Checkout), and check that the key is not revoked.`,
      );
      return t.refused;
    }
    if (status === 400 || (body as { code?: string } | undefined)?.code === UNKNOWN_POSTAL_CODE) return t.badCode;
    return t.failed;
  }

  private available(method: Method): boolean {
    return this.answer?.options[method].available === true;
  }

  private points(): Point[] {
    const pickup = this.answer?.options.pickup;
    return pickup?.available ? Object.values(pickup.pickup_points) : [];
  }

  private summary(code: string): string {
    const methods = (["home", "letter", "pickup"] as const).filter((m) => this.available(m)).length;
    // Pickup missing because no point is near: said, so the shopper does not look for it in vain.
    const pickup = this.answer?.options.pickup;
    const far = pickup && !pickup.available && pickup.reason === TOO_FAR ? ` ${this.texts.tooFar}` : "";
    if (methods === 0) return this.texts.none + far;
    const points = this.points().length;
    return `${this.texts.methods(methods, code)}${points ? ` ${this.texts.found(points, code)}` : ""}${far}`;
  }

  /** The postal code search and the live region stay; what they show is set, so a screen reader hears changes. */
  private built: { input: HTMLInputElement; status: HTMLElement; content: HTMLElement; texts: Texts } | undefined;

  private frame() {
    const t = this.texts;
    if (this.built?.texts === t) return this.built;
    const style = element("style", {}, STYLE);
    const form = element("form", { role: "search" });
    const label = element("label", { class: "code" }, t.postalcode);
    const input = element("input", {
      type: "text",
      name: "postalcode",
      inputmode: "numeric",
      autocomplete: "postal-code",
    }) as HTMLInputElement;
    input.value = this.getAttribute("postalcode") ?? "";
    label.append(input);
    form.append(label, element("button", { type: "submit" }, t.search));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.setAttribute("postalcode", input.value.trim());
    });
    const status = element("p", { class: "status", role: "status", "aria-live": "polite" });
    const content = element("div");
    this.root.replaceChildren(style, form, status, content);
    return (this.built = { input, status, content, texts: t });
  }

  private render(status: string): void {
    const t = this.texts;
    const { status: live, content } = this.frame();
    live.textContent = status;
    content.replaceChildren();
    if (status === t.failed) {
      const retry = element("button", { type: "button" }, t.retry);
      retry.addEventListener("click", () => this.load());
      content.append(retry);
    }
    if (!this.answer || !(["home", "letter", "pickup"] as const).some((m) => this.available(m))) return;

    const methods = element("fieldset");
    methods.append(element("legend", {}, t.legend));
    for (const method of ["home", "letter", "pickup"] as const) {
      const option = this.answer.options[method];
      if (!option.available) continue;
      const [price, dates] =
        "price" in option
          ? [this.money(option.price), this.dates(option.delivery_estimate)]
          : [t.from(this.money(cheapest(this.points())!.price)), []];
      methods.append(
        this.radio("method", method, t[method], price, this.method === method, () => this.choose(method), dates),
      );
    }
    content.append(methods);

    if (this.method === "pickup") {
      const points = element("fieldset");
      points.append(element("legend", {}, t.points));
      const all = this.points();
      // Lockers or counters: a choice only when both are offered; points of unknown kind show under All.
      if (!(["locker", "counter"] as const).every((k) => all.some((p) => p.kind === k))) this.kind = "all";
      else points.append(this.kindSwitch());
      const shown = all.filter((p) => this.kind === "all" || p.kind === this.kind);
      const onMap = this.map?.(
        points,
        this.language,
        shown.map((p) => ({ point: p, label: `${p.name}, ${this.money(p.price)}` })),
        this.pointId,
        (p) => this.choosePoint(p),
      );
      for (const p of onMap ? [] : shown) {
        const detail = [
          `${p.address}, ${p.postalcode} ${p.city}`,
          ...this.dates(p.delivery_estimate),
          ...(p.distance_m !== undefined ? [`${t.distance}: ${this.distance(p.distance_m)}`] : []),
          ...(p.location_info ? [`${t.hours}: ${openingHours(p.location_info, this.locale)}`] : []),
        ];
        points.append(
          this.radio(
            "point",
            p.id,
            p.name,
            this.money(p.price),
            this.pointId === p.id,
            () => this.choosePoint(p),
            detail,
          ),
        );
      }
      content.append(points);
    }
  }

  /** All / Parcel lockers / Service counters: pressed buttons, as the list/map switch is; the keyboard stays on it. */
  private kindSwitch(): HTMLElement {
    const t = this.texts;
    const group = element("div", { class: "views", role: "group", "aria-label": t.kinds });
    for (const [kind, words] of [
      ["all", t.all],
      ["locker", t.lockers],
      ["counter", t.counters],
    ] as const) {
      const button = element("button", { type: "button", "aria-pressed": String(this.kind === kind) }, words);
      button.onclick = () => {
        this.kind = kind;
        this.render(this.built?.status.textContent ?? "");
        this.root.querySelector<HTMLElement>(`[aria-label="${t.kinds}"] [aria-pressed=true]`)?.focus();
      };
      group.append(button);
    }
    return group;
  }

  private radio(
    group: string,
    value: string,
    name: string,
    price: string,
    checked: boolean,
    onChoose: () => void,
    details: string[] = [],
  ): HTMLElement {
    const label = element("label", { class: "option" });
    const input = element("input", { type: "radio", name: group, value }) as HTMLInputElement;
    input.checked = checked;
    input.addEventListener("change", () => input.checked && onChoose());
    const body = element("span", { class: "body" });
    const row = element("span", { class: "row" });
    row.append(element("span", { class: "name" }, name), element("span", { class: "price" }, price));
    body.append(row, ...details.map((d) => element("span", { class: "detail" }, d)));
    label.append(input, body);
    return label;
  }

  private choose(method: Method): void {
    this.select(method);
    this.render(this.liveText());
    this.focusGroup("method");
  }

  private choosePoint(p: Point): void {
    this.selectPoint(p);
    this.render(this.liveText());
    this.focusGroup("point");
  }

  private select(method: Method): void {
    this.method = method;
    this.pointId = undefined;
    const option = this.answer!.options[method];
    if (method !== "pickup" && option.available && "price" in option && option.quote) {
      this.pick({ method, pickup_point: null, price: option.price, quote: option.quote });
    } else this.clear();
  }

  private selectPoint(p: Point): void {
    this.method = "pickup";
    this.pointId = p.id;
    if (p.quote) this.pick({ method: "pickup", pickup_point: p, price: p.price, quote: p.quote });
    else this.clear();
  }

  /**
   * The shopper's last choice on this shop's origin (a pickup point's id, or `home` or `letter`), chosen again when
   * this answer still offers it; anything else, or storage the browser refuses (private mode), is passed over.
   */
  private restore(): void {
    this.restored = true;
    let saved: string | null;
    try {
      saved = localStorage.getItem(CHOICE_KEY);
    } catch {
      return;
    }
    const point = this.points().find((p) => p.id === saved);
    if (point) this.selectPoint(point);
    else if ((saved === "home" || saved === "letter") && this.available(saved)) this.select(saved);
  }

  private liveText(): string {
    return this.value
      ? this.texts.chosen(this.value.pickup_point?.name ?? this.texts[this.value.method], this.money(this.value.price))
      : "";
  }

  /** Keeps the keyboard where it was after a re-render: on the checked radio of `group`. */
  private focusGroup(group: string): void {
    this.root.querySelector<HTMLInputElement>(`input[name=${group}]:checked`)?.focus();
  }

  private pick(detail: PickDetail): void {
    this.value = detail;
    try {
      localStorage.setItem(CHOICE_KEY, detail.pickup_point?.id ?? detail.method);
    } catch {
      // Storage refused (private mode, a blocked origin): the choice holds, it is only not remembered.
    }
    this.dispatchEvent(new CustomEvent<PickDetail>("logistics-pick", { detail, bubbles: true, composed: true }));
  }

  /** No choice any more: `value` null, and the page told by a `logistics-pick` whose detail is null. */
  private clear(): void {
    if (this.value === null) return;
    this.value = null;
    this.dispatchEvent(new CustomEvent<null>("logistics-pick", { detail: null, bubbles: true, composed: true }));
  }
}

function element(tag: string, attrs: Record<string, string> = {}, text?: string): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

const cheapest = (points: Point[]) =>
  points.reduce<Point | undefined>((a, p) => (!a || p.price.gross < a.price.gross ? p : a), undefined);

if (typeof customElements !== "undefined" && !customElements.get("logistics-shipping-picker"))
  customElements.define("logistics-shipping-picker", ShippingPicker);
