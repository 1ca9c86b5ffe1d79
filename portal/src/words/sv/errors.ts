// Svenska: vad ett felsvar och dess fältproblem säger till den som driver butiken. Fältets namn står i bestämd
// form ("Fyll i namnet.", "Namnet har för många tecken").
import type { Catalogue, Say } from "../catalogue.ts";

type Errors = Pick<Catalogue, "answers" | "signIn" | "language" | "cut" | "details" | "shapes" | "statusNow">;

const reload = "ladda om sidan och försök igen";
const check = (s: Say) => `Kontrollera ${s.l}.`;
const enter = (s: Say) => (s.item ? `Lägg till minst ${s.item.one}.` : `Fyll i ${s.l}.`);
const twoDecimals = (s: Say) => `Ange ${s.l} med högst två decimaler.`;
const tooMany = (s: Say) =>
  s.item && s.n ? `Högst ${s.n} ${s.item.many}: ta bort några.` : `${s.L}: för många, ta bort några.`;
const url = "till exempel https://butik.example.com/webhooks";
const wholeUrl = `Ange hela webbadressen med https:// först, ${url}.`;
const origin =
  "Ange bara webbutikens adress, till exempel https://butik.example.com, utan sökväg och utan snedstreck i slutet.";

export const errors: Errors = {
  answers: {
    validation_failed: "Några uppgifter behöver rättas: se de markerade fälten.",
    unauthorized: "Du är inte inloggad, eller så har sessionen gått ut: logga in igen.",
    access_denied: "Du har inte behörighet till det här. Be butikens administratör om hjälp.",
    not_found: "Det här hittades inte: det kan ha tagits bort. Gå tillbaka till listan.",
    method_not_allowed: `Tjänsten tillåter inte det här här: ${reload}.`,
    conflict: "Ändringen krockar med hur det ser ut nu: ladda om sidan för att se det senaste och försök sedan igen.",
    invalid_state: "Det här går inte att göra i försändelsens nuvarande status.",
    ambiguous_reference:
      "Flera försändelser har den här referensen. Läs streckkoden på försändelsens etikett eller välj försändelsen i listan.",
    cursor_from_other_history:
      "Händelselistan återställdes till en tidigare punkt när tjänsten återställdes från en säkerhetskopia: börja läsa den från början igen.",
    precondition_failed:
      "Någon annan har sparat ändringar under tiden: ladda om sidan för att se dem och gör sedan dina ändringar igen.",
    payload_too_large: "Det är för mycket att skicka på en gång: dela upp det i mindre delar.",
    unsupported_media_type: `Webbläsaren skickade uppgifterna i en form som tjänsten inte tar emot: ${reload}.`,
    idempotency_key_reused: `Det här har redan skickats med annat innehåll: ${reload}.`,
    rate_limited: "För många försök på kort tid: vänta en stund och försök igen.",
    headers_too_large:
      "Webbläsaren skickade för mycket extra data (ofta för många kakor): rensa kakorna för den här webbplatsen och logga in igen.",
    unknown: "Något gick fel i tjänsten: försök igen. Kontakta supporten om det fortsätter att hända.",
    not_implemented: "Det här finns inte ännu.",
    unavailable: "Tjänsten är inte tillgänglig just nu: försök igen om en stund.",
    merchant_choice_required: "E-postadressen kan logga in i flera butiker: välj vilken butik du loggar in i.",
    unexpected_response: "Tjänsten svarade på ett sätt som portalen inte förstod: försök igen om en stund.",
    unreachable: "Det går inte att nå tjänsten: kontrollera internetanslutningen och försök igen.",
  },
  signIn: {
    unauthorized: "Fel e-postadress eller lösenord.",
    rate_limited: "För många misslyckade inloggningar: vänta en stund innan du försöker igen.",
    removedYourself:
      "Du tog bort dig själv från butikens portal och är därför utloggad. Be en administratör om du behöver logga in igen.",
  },
  language: "Språk",
  cut: (total) => `Det finns ${total} problem, och de första 50 visas: rätta dem och spara igen för att se resten.`,
  statusNow: (status) => `Försändelsens status är nu ”${status}”.`,

  details: {
    type: (s) =>
      s.type === "integer"
        ? `Ange ${s.l} som ett heltal.`
        : s.type === "number"
          ? `Ange ${s.l} som ett tal.`
          : s.type === "boolean"
            ? `Välj ja eller nej för ${s.l}.`
            : s.type === "string"
              ? `Ange ${s.l} som text.`
              : check(s),
    required: enter,
    additionalProperties: () => `Formuläret skickade en uppgift som tjänsten inte tar emot: ${reload}.`,
    minLength: (s) => (!s.count || s.count <= 1 ? enter(s) : `${s.L} har för få tecken: använd minst ${s.n}.`),
    maxLength: (s) =>
      s.n ? `${s.L} har för många tecken: använd högst ${s.n}.` : `${s.L} har för många tecken: korta ner texten.`,
    pattern: (s) => `Kontrollera ${s.l}: formatet stämmer inte.`,
    format: (s) => `Kontrollera ${s.l}: formatet stämmer inte.`,
    enum: (s) => `Välj ${s.l} i listan.`,
    const: check,
    minimum: (s) =>
      s.field === "transit_days_max"
        ? `${s.L} kan inte vara färre än minsta antal dagar på vägen.`
        : s.n
          ? `${s.L} måste vara minst ${s.n}.`
          : `${s.L} måste vara större.`,
    maximum: (s) => (s.n ? `${s.L} får vara högst ${s.n}.` : `${s.L} måste vara mindre.`),
    exclusiveMinimum: (s) => (s.n ? `${s.L} måste vara mer än ${s.n}.` : `${s.L} måste vara större.`),
    exclusiveMaximum: (s) => (s.n ? `${s.L} måste vara mindre än ${s.n}.` : `${s.L} måste vara mindre.`),
    multipleOf: twoDecimals,
    minItems: (s) =>
      s.item
        ? !s.count || s.count <= 1
          ? `Lägg till minst ${s.item.one}.`
          : `Lägg till minst ${s.n} ${s.item.many}.`
        : check(s),
    maxItems: tooMany,
    uniqueItems: (s) =>
      s.item
        ? `Samma ${s.item.title.toLowerCase()} finns två gånger: ta bort dubbletten.`
        : `Ta bort dubbletterna i ${s.l}.`,
    minProperties: () => "Inget har ändrats: ändra något innan du sparar.",
    maxProperties: check,
    propertyNames: () => `Formuläret skickade en uppgift som tjänsten inte tar emot: ${reload}.`,
    unevaluatedProperties: () => `Formuläret skickade en uppgift som tjänsten inte tar emot: ${reload}.`,
    items: check,
    prefixItems: check,
    oneOf: check,
    anyOf: check,
    allOf: check,
    not: check,

    json: () => `Det som skickades gick inte att läsa: ${reload}.`,
    encoding: () => `Det som skickades innehåller tecken som inte gick att läsa: ${reload}.`,
    aborted: () => "Anslutningen bröts innan allt hade skickats: försök igen.",
    nul: (s) => `Skriv ${s.l} på nytt: texten innehåller ett osynligt styrtecken.`,
    unicode: (s) => `Skriv ${s.l} på nytt: texten innehåller ett trasigt tecken.`,
    depth: () => `Det som skickades är för djupt nästlat: ${reload}.`,
    duplicate_key: (s) => `${s.L} skickades två gånger: ${reload}.`,
    not_allowed: (s) =>
      s.field === "problems"
        ? "Avvikelser kan bara anges när försändelsens status sätts till ”Avvikelse”."
        : `Den här åtgärden tar inte emot några formulärdata: ${reload}.`,
    method: () => "Webbläsaren skickade en begäran som tjänsten inte känner till: ladda om sidan.",
    cursor: () => "Sidlänken fungerar inte längre: gå tillbaka till första sidan.",
    stale: () =>
      "Någon annan har ändrat det här under tiden: ladda om sidan för att se ändringarna och gör sedan dina igen.",

    duplicate: (s) =>
      s.field === "authorization"
        ? "Logga in igen."
        : "Samma artikelnummer finns på en annan rad också: slå ihop raderna till en.",
    gtin: () => "GTIN-kodens sista siffra stämmer inte med de andra: kontrollera koden.",
    decimals: twoDecimals,
    future: (s) => `${s.L} kan inte ligga i framtiden.`,
    too_early: (s) => `${s.L} ligger för långt bak i tiden: använd en tid efter år 2000.`,
    below_zero: () => "Antalet ankomna varor skulle bli mindre än noll: kontrollera ändringen.",
    above_maximum: (s) =>
      s.n ? `Antalet ankomna varor skulle bli för stort: högst ${s.n}.` : "Antalet ankomna varor skulle bli för stort.",
    below_arrived: () => "Fler av den här produkten har redan kommit fram: ange minst det antal som har kommit.",
    has_arrivals: () => "En produkt som redan har kommit fram kan inte tas bort ur försändelsen: behåll dess rad.",

    unique: (s) =>
      s.field === "method"
        ? "Det finns redan en prislista för det här leveranssättet: redigera den i stället."
        : s.field === "email"
          ? "Det finns redan en portalanvändare med den här e-postadressen."
          : `${s.L} används redan.`,
    unknown_fact: () => "Välj i listan vad som ska kontrolleras.",
    operator_not_applicable: () => "Den här jämförelsen passar inte det som kontrolleras: välj en annan.",
    too_large: () => "Prislistan är för stor: använd färre regler eller kortare värdelistor.",
    unknown_pickup_point: () => "Utlämningsstället finns inte längre: välj ett annat.",
    quote_invalid: () => "Fraktofferten är inte giltig: hämta leveransalternativen igen.",
    quote_expired: () => "Fraktofferten har gått ut: hämta leveransalternativen igen.",
    quote_not_yours: () => "Fraktofferten gavs till en annan butik.",
    quote_facts: () => "Ordern har ändrats sedan fraktofferten gavs: hämta leveransalternativen igen.",
    quote_destination: () =>
      "Fraktofferten gäller ett annat leveransval: välj igen eller hämta nya leveransalternativ.",
    quote_unavailable: () =>
      "Ordern kan inte levereras på det sätt fraktofferten anger: hämta orderns leveransalternativ och välj igen.",
    quote_price: () =>
      "Orderns frakt kostar ett annat pris än fraktofferten anger: hämta orderns leveransalternativ igen.",

    invalid_url: () => wholeUrl,
    unsupported_scheme: () => "Webbadressen måste börja med https:// eller http://.",
    credentials_in_url: () =>
      "Ta bort användarnamnet och lösenordet ur webbadressen och ange dem under mottagarens inloggning i stället.",
    missing_host: () => wholeUrl,
    destination_not_allowed: () =>
      `Adressen finns inte på det öppna internet: använd en adress som tjänsten kan nå, ${url}.`,
    origin: () => origin,

    length: (s) => `${s.L} har fel längd.`,
    wrong_password: () => "Det nuvarande lösenordet är fel.",
    unchanged: () => "Det nya lösenordet måste skilja sig från det nuvarande.",
    last_admin: () => "Det här är butikens enda administratör: gör först någon annan till administratör.",
    must_change_password: () => "Byt ditt lösenord innan du fortsätter.",
    range: () => "Det sista datumet får inte vara före det första.",
    differences: () =>
      "Alla produkter kom inte som aviserat: bara en arbetsledare får avsluta mottagningen med avvikelser.",
  },

  shapes: {
    gtin: () => "En GTIN-kod har 8, 12, 13 eller 14 siffror: kontrollera koden.",
    email: () => "Ange en e-postadress i formen namn@example.com.",
    url: () => wholeUrl,
    origin: () => origin,
    date: (s) => `Kontrollera ${s.l}: välj ett datum i kalendern.`,
    datetime: (s) => `Kontrollera ${s.l}: ange datum och klockslag.`,
    postalcode: (s) => `Kontrollera ${s.l}: det är inte ett postnummer i det valda landet.`,
    phone: () => "Ange telefonnumret med siffror, till exempel +46 70 123 45 67.",
    trimmed: (s) => `${s.L} får inte börja eller sluta med mellanslag.`,
    merchant_id: () => "Butikens ID får bara innehålla bokstäver, siffror, punkter och bindestreck.",
    basic_username: () => "Användarnamnet får inte innehålla kolon (:) eller radbrytningar.",
    basic_password: () => "Lösenordet får inte innehålla radbrytningar eller andra styrtecken.",
    pickup_point: () => "Välj hemleverans, brev eller ett utlämningsställe i listan.",
    quote: () => "Fraktofferten är skadad: hämta leveransalternativen igen.",
    cursor: () => "Sidlänken fungerar inte längre: gå tillbaka till första sidan.",
    id: () => "Länken är trasig: gå tillbaka och öppna posten i listan.",
    request_key: () => "Begäran kunde inte skickas säkert: försök igen.",
    rule_value: () => "Kontrollera värdet: det passar inte det som kontrolleras.",
  },
};
