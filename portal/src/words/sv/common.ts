// Svenska: ramen kring varje vy (översta raden, inloggning, byte av lösenord) och de gemensamma delarnas ord.
import type { Catalogue } from "../catalogue.ts";

export const common: Pick<Catalogue, "common"> = {
  common: {
    brand: "Logistikportalen",
    documentTitle: "Handlarportalen · Logistik-API",
    main: "Huvudmeny",
    areas: {
      shipments: "Försändelser",
      pricing: "Prissättning",
      webhooks: "Webhooks",
      checkout: "Kassan",
      users: "Användare",
    },
    account: "Konto",
    changePassword: "Byt lösenord",
    signOut: "Logga ut",
    loading: "Laddar…",
    breadcrumb: "Brödsmulor",
    cancel: "Avbryt",
    copy: "Kopiera",
    copied: "Kopierat.",
    selectedToCopy: "Markerat: tryck Ctrl+C (eller ⌘C) för att kopiera.",

    portalTitle: "Handlarportalen",
    signInAbout: "Logga in med den e-postadress och det lösenord som din administratör gav dig.",
    signInForm: "Inloggning",
    whichShop: (email) => `${email} används i mer än en butik. Vilken butik vill du öppna?`,
    email: "E-post",
    password: "Lösenord",
    signIn: "Logga in",
    openShop: "Öppna den här butiken",
    otherEmail: "Använd en annan e-postadress",

    chooseTitle: "Välj ett nytt lösenord",
    changeTitle: "Byt ditt lösenord",
    chooseAbout:
      "En administratör har återställt ditt lösenord. Innan du fortsätter, välj ett eget nytt lösenord: skriv det tillfälliga lösenord du fick och sedan ditt nya lösenord två gånger.",
    changeAbout:
      "Skriv ditt nuvarande lösenord och sedan ditt nya lösenord två gånger. Du förblir inloggad här; överallt annars loggas du ut.",
    temporaryPassword: "Tillfälligt lösenord",
    currentPassword: "Nuvarande lösenord",
    newPassword: (min) => `Nytt lösenord (minst ${min} tecken)`,
    newPasswordAgain: "Nytt lösenord igen",
    notSame: "De två nya lösenorden är inte lika: skriv det nya lösenordet igen.",
    changed: "Ditt lösenord är bytt. Använd det nya nästa gång du loggar in.",
    saveNewPassword: "Spara mitt nya lösenord",
  },
};
