// English: what an error answer and each of its field problems say to the person running the shop.
import type { Catalogue, Say } from "../catalogue.ts";

type Errors = Pick<Catalogue, "answers" | "signIn" | "language" | "cut" | "details" | "shapes" | "statusNow">;

const reload = "reload the page and try again";
const check = (s: Say) => `Check ${s.l}.`;
const enter = (s: Say) => (s.item ? `Add at least one ${s.item.one}.` : `Enter ${s.l}.`);
const twoDecimals = (s: Say) => `Use at most two decimals in ${s.l}.`;
const tooMany = (s: Say) =>
  s.item
    ? s.n
      ? `There can be at most ${s.n} ${s.item.many}: remove some.`
      : `There are too many ${s.item.many}: remove some.`
    : `${s.L} has too many entries: remove some.`;
const url = "like https://shop.example.com/webhooks";

export const errors: Errors = {
  answers: {
    validation_failed: "Some details need fixing: see the marked fields.",
    unauthorized: "You are not signed in, or your session has ended: sign in again.",
    access_denied: "You do not have permission to do this. Ask your shop's administrator.",
    not_found: "This was not found: it may have been removed. Go back to the list.",
    method_not_allowed: `The service does not allow this here: ${reload}.`,
    conflict: "This clashes with how things are now: reload the page to see the latest, then try again.",
    invalid_state: "This cannot be done while the shipment is in its current status.",
    ambiguous_reference:
      "Several shipments have this reference. Scan the code on the shipment's label, or choose the shipment from the list.",
    cursor_from_other_history:
      "The list of events was taken back to an earlier point when the service was restored from a backup: start reading it again from the beginning.",
    precondition_failed:
      "Someone else saved changes in the meantime: reload the page to see them, then make your changes again.",
    payload_too_large: "This is too much to send at once: split it into smaller parts.",
    unsupported_media_type: `The browser sent the data in a form the service does not accept: ${reload}.`,
    idempotency_key_reused: `This was already sent with different content: ${reload}.`,
    rate_limited: "Too many attempts in a short time: wait a moment and try again.",
    headers_too_large:
      "The browser sent too much extra data (often too many cookies): clear this site's cookies and sign in again.",
    unknown: "Something went wrong in the service: try again. If it keeps happening, contact support.",
    not_implemented: "This is not available yet.",
    unavailable: "The service is not available right now: try again in a moment.",
    merchant_choice_required: "This email address has a sign-in for several shops: choose the shop to sign in to.",
    unexpected_response: "The service gave an answer the portal did not understand: try again in a moment.",
    unreachable: "The service cannot be reached: check your internet connection and try again.",
  },
  signIn: {
    unauthorized: "The email address or password is wrong.",
    rate_limited: "Too many failed sign-ins: wait a while before you try again.",
    removedYourself:
      "You removed yourself from this shop's portal, so you are signed out. Ask an administrator if you need to sign in again.",
  },
  language: "Language",
  cut: (total) => `Only the first 50 of ${total} problems are shown: fix them and save again to see the rest.`,
  statusNow: (status) => `The shipment's status is now “${status}”.`,

  details: {
    type: (s) =>
      s.type === "integer"
        ? `Enter ${s.l} as a whole number.`
        : s.type === "number"
          ? `Enter ${s.l} as a number.`
          : s.type === "boolean"
            ? `Choose yes or no for ${s.l}.`
            : s.type === "string"
              ? `Enter ${s.l} as text.`
              : check(s),
    required: enter,
    additionalProperties: () => `The form sent something the service does not accept: ${reload}.`,
    minLength: (s) => (!s.count || s.count <= 1 ? enter(s) : `${s.L} is too short: use at least ${s.n} characters.`),
    maxLength: (s) => (s.n ? `${s.L} is too long: use at most ${s.n} characters.` : `${s.L} is too long: shorten it.`),
    pattern: (s) => `Check ${s.l}: it is not in the expected form.`,
    format: (s) => `Check ${s.l}: it is not in the expected form.`,
    enum: (s) => `Choose ${s.l} from the list.`,
    const: check,
    // A transit's most below its least is the one minimum that is not the spec's number.
    minimum: (s) =>
      s.field === "transit_days_max"
        ? `${s.L} cannot be fewer than the fewest days on the way.`
        : s.n
          ? `${s.L} must be at least ${s.n}.`
          : `${s.L} is too small.`,
    maximum: (s) => (s.n ? `${s.L} can be at most ${s.n}.` : `${s.L} is too large.`),
    exclusiveMinimum: (s) => (s.n ? `${s.L} must be more than ${s.n}.` : `${s.L} is too small.`),
    exclusiveMaximum: (s) => (s.n ? `${s.L} must be less than ${s.n}.` : `${s.L} is too large.`),
    multipleOf: twoDecimals,
    minItems: (s) =>
      s.item
        ? !s.count || s.count <= 1
          ? `Add at least one ${s.item.one}.`
          : `Add at least ${s.n} ${s.item.many}.`
        : check(s),
    maxItems: tooMany,
    uniqueItems: (s) =>
      s.item ? `The same ${s.item.one} is listed twice: remove the duplicate.` : `Remove the duplicates from ${s.l}.`,
    minProperties: () => "Nothing was changed: change something before saving.",
    maxProperties: check,
    propertyNames: () => `The form sent something the service does not accept: ${reload}.`,
    unevaluatedProperties: () => `The form sent something the service does not accept: ${reload}.`,
    items: check,
    prefixItems: check,
    oneOf: check,
    anyOf: check,
    allOf: check,
    not: check,

    json: () => `What was sent could not be read: ${reload}.`,
    encoding: () => `What was sent contains characters that could not be read: ${reload}.`,
    aborted: () => "The connection broke before everything was sent: try again.",
    nul: (s) => `Retype ${s.l}: it contains an invisible control character.`,
    unicode: (s) => `Retype ${s.l}: it contains a broken character.`,
    depth: () => `What was sent is nested too deeply: ${reload}.`,
    duplicate_key: (s) => `${s.L} was sent twice: ${reload}.`,
    not_allowed: (s) =>
      s.field === "problems"
        ? "Problems can be recorded only when the shipment's status is set to “Problem”."
        : `This action takes no form data: ${reload}.`,
    method: () => "The browser sent a request the service does not know: reload the page.",
    cursor: () => "The page link no longer works: go back to the first page.",
    stale: () =>
      "Someone else changed this in the meantime: reload the page to see their changes, then make yours again.",

    duplicate: (s) =>
      s.field === "authorization"
        ? "Sign in again."
        : "The same product code is on another line too: combine the lines into one.",
    gtin: () => "The GTIN's last digit does not match the others: check the number.",
    decimals: twoDecimals,
    future: (s) => `${s.L} cannot be in the future.`,
    too_early: (s) => `${s.L} is too far in the past: use a time after the year 2000.`,
    below_zero: () => "The number of arrived items would go below zero: check the change.",
    above_maximum: (s) =>
      s.n
        ? `The number of arrived items would be too large: at most ${s.n}.`
        : "The number of arrived items would be too large.",
    below_arrived: () => "More of this product has already arrived: enter at least the quantity that has arrived.",
    has_arrivals: () => "A product that has already arrived cannot be removed from the shipment: keep its line.",

    unique: (s) =>
      s.field === "method"
        ? "There is already a price list for this delivery method: edit that one instead."
        : s.field === "email"
          ? "This email address already has a portal user."
          : `${s.L} is already in use.`,
    unknown_fact: () => "Choose what to check from the list.",
    operator_not_applicable: () => "This comparison does not fit what is checked: choose another one.",
    too_large: () => "The price list is too large: use fewer rules or shorter lists of values.",
    unknown_pickup_point: () => "That pickup point no longer exists: choose another one.",
    quote_invalid: () => "The shipping quote is not valid: ask for the shipping options again.",
    quote_expired: () => "The shipping quote has expired: ask for the shipping options again.",
    quote_not_yours: () => "The shipping quote was given to another shop.",
    quote_facts: () => "The order has changed since the shipping quote was given: ask for the shipping options again.",
    quote_destination: () =>
      "The shipping quote is for another delivery choice: choose again, or ask for new shipping options.",
    quote_unavailable: () =>
      "This order cannot be delivered the way the shipping quote says: ask for the order's shipping options and choose again.",
    quote_price: () =>
      "This order costs more or less to deliver than the shipping quote says: ask for the order's shipping options again.",

    invalid_url: () => `Enter the whole web address, starting with https://, ${url}.`,
    unsupported_scheme: () => "The web address must start with https:// or http://.",
    credentials_in_url: () =>
      "Remove the user name and password from the web address, and enter them under the endpoint's sign-in instead.",
    missing_host: () => `Enter the whole web address, starting with https://, ${url}.`,
    destination_not_allowed: () => `This address is not on the public internet: use one the service can reach, ${url}.`,
    origin: () => "Enter only the web shop's address, like https://shop.example.com: no path and no slash at the end.",

    length: (s) => `${s.L} is too short or too long.`,
    wrong_password: () => "The current password is wrong.",
    unchanged: () => "The new password must be different from the current one.",
    last_admin: () => "This is the shop's only administrator: make someone else an administrator first.",
    must_change_password: () => "Change your password before you continue.",
    range: () => "The last date comes before the first one: choose a last date on or after the first.",
    differences: () =>
      "Some products did not arrive as announced: only a supervisor may finish this shipment with differences.",
  },

  shapes: {
    gtin: () => "A GTIN has 8, 12, 13 or 14 digits: check the number.",
    email: () => "Enter an email address like name@example.com.",
    url: () => `Enter the whole web address, starting with https://, ${url}.`,
    origin: () => "Enter only the web shop's address, like https://shop.example.com: no path and no slash at the end.",
    date: (s) => `Check ${s.l}: choose a date from the calendar.`,
    datetime: (s) => `Check ${s.l}: enter a date and a time.`,
    postalcode: (s) => `Check ${s.l}: it is not a postal code of the chosen country.`,
    phone: () => "Enter the phone number in digits, like +358 40 123 4567.",
    trimmed: (s) => `Remove the spaces at the start and end of ${s.l}.`,
    merchant_id: () => "The shop ID has only letters, digits, dots and hyphens.",
    basic_username: () => "The user name cannot contain a colon (:) or line breaks.",
    basic_password: () => "The password cannot contain line breaks or other control characters.",
    pickup_point: () => "Choose home delivery, a letter or a pickup point from the list.",
    quote: () => "The shipping quote is damaged: ask for the shipping options again.",
    cursor: () => "The page link no longer works: go back to the first page.",
    id: () => "This link is broken: go back and open the item from the list.",
    request_key: () => "The request could not be sent safely: try again.",
    rule_value: () => "Check the value: it does not fit what is checked.",
  },
};
