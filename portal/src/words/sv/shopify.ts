// Svenska: kassasidans Shopify-del.
import type { Catalogue } from "../catalogue.ts";

export const shopify: Pick<Catalogue, "shopify"> = {
  shopify: {
    title: "Shopify",
    about:
      "En Shopify-butiks kassa kan fråga oss efter dina leveranssätt: hemleverans, brev och utlämningsställena närmast kunden, prissatta enligt dina prislistor och med leveransdatum. Shopify anropar en hemlig adress som är din för dem.",
    stepsTitle: "Anslut din Shopify-butik",
    stepPlan:
      "Kontrollera att ditt Shopify-abonnemang har fraktberäkning av transportören (carrier-calculated shipping). Advanced och Plus har det, till andra kan Shopify lägga till det.",
    stepApp: "Gör en Shopify-app för din butik som får ändra fraktinställningarna (behörigheten write_shipping).",
    stepAddress:
      "Skapa en anropsadress nedan och kopiera den: den visas bara en gång. Lägg till appens klienthemlighet om du vill att varje anrops signatur kontrolleras.",
    stepRegister:
      "Registrera adressen i Shopify med din app: anropet att skicka visas tillsammans med adressen (carrierServiceCreate).",
    stepZones: "Lägg till den här tjänstens fraktpriser i dina fraktzoner i Shopifys fraktinställningar.",
    addresses: "Shopifys anropsadresser",
    name: "Namn",
    address: "Adress",
    pickupRates: "Utlämningsställen som erbjuds",
    signed: "Signaturen kontrolleras",
    created: "Skapad",
    status: "Tillstånd",
    actions: "Åtgärder",
    unnamed: "Namnlös adress",
    working: "I bruk",
    revokedAt: (when) => `Återkallad ${when}`,
    revoke: "Återkalla",
    revokeQuestion: (name) => `Återkalla ${name}?`,
    revokeAddress: "Återkalla adressen",
    revokeWhat:
      "Shopify får inga priser från den här adressen längre, genast, och visar butikens reservpriser i stället. Det går inte att ångra.",
    revoked: "Adressen återkallades: Shopify visar nu butikens reservpriser.",
    form: "Ny anropsadress för Shopify",
    createTitle: "Skapa en anropsadress",
    nameField: "Namn (för dig, t.ex. butikens namn)",
    pickupRatesField: "Hur många av de närmaste utlämningsställena som erbjuds",
    tagPropertiesField: "Produktegenskaper vars värden är taggar i dina prisregler, en per rad",
    tagPropertiesHint: "Till exempel _shipping_tag. Lämna tomt om dina prisregler inte använder taggar.",
    appSecretField: "Din Shopify-apps klienthemlighet (frivillig)",
    appSecretHint:
      "Med den får ett anrop utan Shopifys signatur inga priser. Den lagras krypterad och visas inte igen.",
    create: "Skapa adress",
    createdTitle: "Din anropsadress (visas en gång)",
    createdAbout:
      "Kopiera den nu och registrera den i Shopify: den visas inte igen. Den som har den får dina priser, så håll den undan.",
    callTitle: "Anropet som registrerar den i Shopify (GraphQL Admin API)",
    copyCall: "Kopiera anropet",
  },
};
