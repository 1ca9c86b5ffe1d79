// Svenska: användaravsnittets egna ord (rollernas namn finns i statuses.ts).
import type { Catalogue } from "../catalogue.ts";

export const users: Pick<Catalogue, "users"> = {
  users: {
    title: "Användare",
    about: "De personer som loggar in i portalen för din butik.",
    email: "E-post",
    role: "Roll",
    added: "Tillagd",
    actions: "Åtgärder",
    you: " (du)",
    changeYours: "Byt ditt lösenord",
    resetOf: (email) => `Återställ lösenordet för ${email}`,
    reset: "Återställ lösenord",
    removeOf: (email) => `Ta bort ${email}`,
    remove: "Ta bort",
    resetDone: (email) =>
      `Tillfälligt lösenord satt: ${email} är utloggad nu och måste välja ett nytt lösenord vid nästa inloggning. Ge personen det tillfälliga lösenordet själv.`,
    removed: (email) => `${email} togs bort: personen loggades ut och kan inte längre logga in.`,

    added1: (email) => `${email} kan nu logga in. Ge personen lösenordet själv: det visas inte igen.`,
    newUser: "Ny användare",
    addTitle: "Lägg till en användare",
    newEmail: "Den nya användarens e-post",
    initialPassword: "Första lösenord",
    rolesAbout: (min, admin, staff) =>
      `Lösenordet behöver minst ${min} tecken. ”${admin}” kan också hantera användarna här; ”${staff}” kan göra allt annat.`,
    add: "Lägg till användare",

    yourRoleNow: (role) => `Din roll är nu ${role}. Logga in igen för att fortsätta.`,
    roleNow: (email, role) =>
      `Rollen för ${email} är nu ${role}. Personen loggades ut och loggar in igen med sitt eget lösenord.`,
    roleOf: (email) => `Roll för ${email}`,
    saveRoleOf: (email) => `Spara rollen för ${email}`,
    saveRole: "Spara roll",

    removeQuestion: (email) => `Ta bort ${email}?`,
    removeUser: "Ta bort användaren",
    removeYourself: "Du loggas ut genast och kan inte längre logga in i butikens portal.",
    removeThem: "Personen loggas ut genast och kan inte längre logga in.",

    resetQuestion: (email) => `Återställa lösenordet för ${email}?`,
    setTemporary: "Sätt tillfälligt lösenord",
    resetAbout:
      "Skriv ett tillfälligt lösenord och ge det till personen själv: portalen skickar ingen e-post. Personen loggas ut nu och måste vid nästa inloggning välja ett eget nytt lösenord.",
    temporaryPassword: (min) => `Tillfälligt lösenord (minst ${min} tecken)`,
  },
};
