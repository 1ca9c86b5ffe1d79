// Suomi: Käyttäjät-osion omat sanat (roolien nimet ovat statuses.ts:ssä).
import type { Catalogue } from "../catalogue.ts";

export const users: Pick<Catalogue, "users"> = {
  users: {
    title: "Käyttäjät",
    about: "Ihmiset, jotka kirjautuvat tähän portaaliin kauppasi puolesta.",
    email: "Sähköposti",
    role: "Rooli",
    added: "Lisätty",
    actions: "Toiminnot",
    you: " (sinä)",
    changeYours: "Vaihda salasanasi",
    resetOf: (email) => `Vaihda käyttäjän ${email} salasana`,
    reset: "Vaihda salasana",
    removeOf: (email) => `Poista ${email}`,
    remove: "Poista",
    resetDone: (email) =>
      `Väliaikainen salasana asetettu: ${email} on nyt kirjattu ulos, ja hänen on valittava uusi salasana seuraavalla kirjautumisella. Anna väliaikainen salasana hänelle itse.`,
    removed: (email) => `${email} poistettiin: hänet kirjattiin ulos, eikä hän voi enää kirjautua.`,

    added1: (email) => `${email} voi nyt kirjautua. Anna salasana hänelle itse: sitä ei näytetä uudelleen.`,
    newUser: "Uusi käyttäjä",
    addTitle: "Lisää käyttäjä",
    newEmail: "Uuden käyttäjän sähköposti",
    initialPassword: "Ensimmäinen salasana",
    rolesAbout: (min, admin, staff) =>
      `Salasanassa on oltava vähintään ${min} merkkiä. ”${admin}” voi myös hallita käyttäjiä täällä; ”${staff}” voi tehdä kaiken muun.`,
    add: "Lisää käyttäjä",

    yourRoleNow: (role) => `Roolisi on nyt ${role}. Kirjaudu uudelleen jatkaaksesi.`,
    roleNow: (email, role) =>
      `Käyttäjän ${email} rooli on nyt ${role}. Hänet kirjattiin ulos, ja hän kirjautuu uudelleen omalla salasanallaan.`,
    roleOf: (email) => `Käyttäjän ${email} rooli`,
    saveRoleOf: (email) => `Tallenna käyttäjän ${email} rooli`,
    saveRole: "Tallenna rooli",

    removeQuestion: (email) => `Poistetaanko ${email}?`,
    removeUser: "Poista käyttäjä",
    removeYourself: "Sinut kirjataan heti ulos, etkä voi enää kirjautua tämän kaupan portaaliin.",
    removeThem: "Hänet kirjataan heti ulos, eikä hän voi enää kirjautua.",

    resetQuestion: (email) => `Vaihdetaanko käyttäjän ${email} salasana?`,
    setTemporary: "Aseta väliaikainen salasana",
    resetAbout:
      "Kirjoita väliaikainen salasana ja anna se hänelle itse: portaali ei lähetä sähköpostia. Hänet kirjataan nyt ulos, ja seuraavalla kirjautumisella hänen on valittava oma uusi salasana.",
    temporaryPassword: (min) => `Väliaikainen salasana (vähintään ${min} merkkiä)`,
  },
};
